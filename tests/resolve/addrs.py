#!/usr/bin/env python3
"""Write <binary>.addrs and <binary>.addrs.why for one binary of a case.

    addrs.py --profile callgrind.out --log valgrind.log --object ./prog \
             [--symbols FILE] [--text-only] OUT_PREFIX

Addresses come from two places:

 1. The callgrind profile (--dump-instr=yes --collect-jumps=yes): every
    `instr` position of a cost line, every call target and every jump
    target that lies in the object. Under the object's own `ob=` these
    are object-relative (= link-time for a PIE or a shared object) or
    absolute (= link-time for a non-PIE executable). valgrind only counts
    an object's .text as the object, so code in .init, .plt, .plt.sec and
    .fini shows up under `ob=???` at its *runtime* address: those are
    taken too, minus the load bias that valgrind's --trace-redir=yes log
    gives ("Reading syms from X" / "svma S, avma A": bias = A - S), when
    they fall in one of the object's executable PT_LOAD segments.

 2. Edge cases from the symbol table (nm -S) and the section headers: the
    first and last byte of a few functions, padding between two
    functions, the byte before the first code symbol, address 0, the first
    byte past .text, the first byte past every segment, and a data object.

Every address is checked against `objdump -d`: the .why file says, for
each address, where it came from and whether an instruction starts
there. Profile addresses that are not instruction starts make this
script fail.

--symbols names the file to read symbols from when the object has none
(the `stripped` case reads them from prog.debug). For humans rebuilding
the test data: CI never runs this.
"""
import argparse
import os
import re
import subprocess
import sys


def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def load_bias(log, path):
    """valgrind -trace-redir=yes: 'Reading syms from PATH' then 'svma, avma'."""
    want = os.path.realpath(path)
    lines = open(log).read().splitlines()
    for i, line in enumerate(lines):
        m = re.search(r"Reading syms from (\S+)", line)
        if not m or os.path.realpath(m.group(1)) != want:
            continue
        for nxt in lines[i + 1:i + 4]:
            m2 = re.search(r"svma (0x[0-9a-f]+), avma (0x[0-9a-f]+)", nxt)
            if m2:
                return int(m2.group(2), 16) - int(m2.group(1), 16)
    sys.exit("addrs.py: no 'Reading syms from %s' with svma/avma in %s" % (want, log))


def segments(binary):
    """Executable and all PT_LOAD segments: lists of (vaddr, memsz)."""
    exe, every = [], []
    for line in run("readelf", "-lW", binary).splitlines():
        f = line.split()
        if f and f[0] == "LOAD":
            vaddr, memsz, flags = int(f[2], 16), int(f[5], 16), "".join(f[6:-1])
            every.append((vaddr, memsz))
            if "E" in flags:
                exe.append((vaddr, memsz))
    return exe, every


def sections(binary):
    out = {}
    for line in run("readelf", "-SW", binary).splitlines():
        m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)", line)
        if m:
            out[m.group(1)] = (int(m.group(2), 16), int(m.group(3), 16))
    return out


def insn_starts(binary):
    starts = set()
    for line in run("objdump", "-d", "--no-show-raw-insn", binary).splitlines():
        m = re.match(r"\s+([0-9a-f]+):\s", line)
        if m:
            starts.add(int(m.group(1), 16))
    return starts


def parse_profile(path, obj, bias, exe_segs):
    """Return {link-time address: set of how it appears}."""
    want = os.path.realpath(obj)
    names = {}          # compressed ob/cob ids -> name
    positions = ["line"]
    ob = None           # current object name
    cob = None          # object of the next call only
    last = 0            # instr of the last cost line
    found = {}

    def obname(v):
        m = re.match(r"\((\d+)\)\s*(.*)", v)
        if not m:
            return v
        if m.group(2):
            names[m.group(1)] = m.group(2)
        return names[m.group(1)]

    def subpos(tok, base):
        if tok == "*":
            return base
        if tok[0] in "+-":
            return base + int(tok, 0)
        return int(tok, 0)

    def note(name, addr, how):
        if name is None:
            return
        if name != "???":
            if os.path.realpath(name) == want:
                found.setdefault(addr, set()).add(how)
            return
        link = addr - bias      # ob=???: absolute runtime addresses
        if any(v <= link < v + s for v, s in exe_segs):
            found.setdefault(link, set()).add(how + " (ob=???, runtime %#x)" % addr)

    instr = None
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("positions:"):
            positions = line.split()[1:]
            instr = positions.index("instr") if "instr" in positions else None
            continue
        if line.startswith("part:"):
            last = 0
            continue
        if instr is None:
            continue
        if line.startswith("ob="):
            ob = obname(line[3:])
        elif line.startswith("cob="):
            cob = obname(line[4:])
        elif line.startswith("calls="):
            tgt = line.split()[1 + instr]
            note(cob if cob is not None else ob, subpos(tgt, last), "call target")
            cob = None
        elif line.startswith("jump=") or line.startswith("jcnd="):
            tgt = line.split()[1 + instr]
            note(ob, subpos(tgt, last), "jump target")
        elif line[:1] and (line[0].isdigit() or line[0] in "+-*"):
            last = subpos(line.split()[instr], last)
            note(ob, last, "profile")
    return found


def symbols(binary):
    """Defined symbols from nm -S: (addr, size or None, type, name)."""
    out = []
    for line in run("nm", "-S", binary).splitlines():
        f = line.split(None, 3)
        if len(f) == 4 and re.fullmatch(r"[0-9a-f]+", f[1]):
            out.append((int(f[0], 16), int(f[1], 16), f[2], f[3]))
        elif len(f) == 3 and re.fullmatch(r"[0-9a-f]+", f[0]):
            out.append((int(f[0], 16), None, f[1], f[2]))
    return sorted(out, key=lambda s: (s[0], s[1] or 0, s[2], s[3]))


def edges(syms, secs, every_seg):
    extra = []
    text = [s for s in syms if s[2] in "tTwW"]
    funcs = [s for s in text if s[1]]
    pick = []
    for s in funcs:
        if s[3] == "main":
            pick.append(s)
    if funcs:
        pick += [funcs[0], funcs[-1]]
    for s in funcs:                    # a clone or a split part
        if "." in s[3] and s not in pick:
            pick.append(s)
            break
    for s in funcs:
        if s[3].endswith(".cold") and s not in pick:
            pick.append(s)
            break
    for s in pick:
        extra.append((s[0], "first byte of %s (nm -S)" % s[3]))
        extra.append((s[0] + s[1] - 1, "last byte of %s (nm -S)" % s[3]))
    covered = [(s[0], s[0] + (s[1] or 0)) for s in text]
    for a, b in zip(funcs, funcs[1:]):
        end = a[0] + a[1]
        if end < b[0] and not any(lo <= end < hi for lo, hi in covered):
            extra.append((end, "gap: padding between %s and %s" % (a[3], b[3])))
            break
    if text:
        extra.append((min(s[0] for s in text) - 1, "one byte before the first code symbol"))
    extra.append((0, "address 0"))
    if ".text" in secs:
        lo, size = secs[".text"]
        extra.append((lo + size, "first byte past .text"))
    hi = max(v + s for v, s in every_seg)
    extra.append((hi, "first byte past the last PT_LOAD segment"))
    extra.append((hi + 0x100000, "far past everything"))
    for sec in (".plt", ".plt.sec"):     # callgrind skips PLT stubs
        if sec in secs and secs[sec][1] > 16:
            lo = secs[sec][0] + (16 if sec == ".plt" else 0)
            extra.append((lo, "first stub in %s (readelf -S)" % sec))
    for kinds in ("dD", "bB", "rR"):      # one object of each kind
        objs = [s for s in syms if s[2] in kinds and s[1]]
        if objs:
            s = objs[0]
            extra.append((s[0], "data object %s (nm -S, type %s)" % (s[3], s[2])))
    return extra


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--profile", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--object", required=True, help="the binary as it was run")
    ap.add_argument("--symbols", help="read symbols from this file instead")
    ap.add_argument("--bias", help="load bias (default: from the log)")
    ap.add_argument("out", help="write OUT.addrs and OUT.addrs.why")
    a = ap.parse_args()

    exe_segs, every_seg = segments(a.object)
    if a.bias is not None:
        bias = int(a.bias, 0)
    else:
        bias = load_bias(a.log, a.object)
    found = parse_profile(a.profile, a.object, bias, exe_segs)
    if not found:
        sys.exit("addrs.py: no address of %s in %s" % (a.object, a.profile))
    starts = insn_starts(a.object)
    bad = sorted(x for x in found if x not in starts)
    if bad:
        sys.exit("addrs.py: not instruction starts: %s" % " ".join(hex(x) for x in bad))

    why = {x: sorted(h) for x, h in found.items()}
    syms = symbols(a.symbols or a.object)
    for x, h in edges(syms, sections(a.symbols or a.object), every_seg):
        why.setdefault(x, []).append("edge: " + h)

    with open(a.out + ".addrs", "w") as f:
        for x in sorted(why):
            f.write("0x%016x\n" % x)
    with open(a.out + ".addrs.why", "w") as f:
        f.write("# address\tinsn-start?\thow it got here\n")
        for x in sorted(why):
            f.write("0x%016x\t%s\t%s\n" % (x, "insn" if x in starts else "-",
                                          "; ".join(why[x])))
    print("%s.addrs: %d addresses (%d from the profile)" % (a.out, len(why), len(found)))


if __name__ == "__main__":
    main()
