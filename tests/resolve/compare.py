#!/usr/bin/env python3
"""Compare addr2line's and llvm-symbolizer's answers for one binary.

    compare.py BINARY            reads BINARY.addr2line, BINARY.llvm-symbolizer
                                 writes BINARY.peers-diff

Both files come from `-f -C -i -a -p` runs (llvm-symbolizer with
--output-style=GNU), one record per address: "ADDR: FRAME" then
" (inlined by) FRAME" lines, innermost first. llvm-symbolizer prints
addresses without leading zeros; they are compared as numbers.

For every address where the two differ, the .peers-diff file shows the
frames that differ (#0 is the innermost, #1 the function it was inlined
into, and so on; frames both tools agree on are left out) and the kinds
of difference (several can apply):

  format-unknown   `?? ??:0` (addr2line) vs `?? at ??:0` (llvm): same answer
  no-line          a function with no line: addr2line `FILE:?` vs llvm `FILE:0`
  discriminator    frames equal but for a `(discriminator N)`
  clone-suffix     one name has a .part.N/.isra.N/.constprop.N/.cold/[clone ...]
                   suffix the other lacks
  name-vs-none     one names a function, the other says ??
  demangler        the demanglers differ: `{lambda(int, int)#1}` vs
                   `'lambda'(int, int)`, `[clone .isra.0]` vs `(.isra.0)`
  inlined-as-outer addr2line names the innermost frame of an inline chain
                   after the outermost function (C++ only, see README.md)
  func-name        other differences in a function name
  file             a file differs (e.g. relative vs absolute, ?? vs a name)
  line             a line number differs
  inline-depth     the number of frames differs

The counts per kind end the file. For humans: CI never runs this.
"""
import re
import sys

CLONE = re.compile(r"(\.(part|isra|constprop|cold|lto_priv)\.?\d*)+$"
                   r"|( \[clone [^]]*\])+$|( \(\.[a-z_]+(\.\d+)?\))+$")


def demangle_style(name):
    """libiberty (addr2line) and LLVM 14 demangle some things differently:
    `main::{lambda(int, int)#1}` vs `main::'lambda'(int, int)`, and
    `f() [clone .isra.0]` vs `f() (.isra.0)`. Map both to LLVM's."""
    name = re.sub(r"\{lambda\(([^)]*)\)#\d+\}", r"'lambda'(\1)", name)
    name = re.sub(r"'lambda\d*'", "'lambda'", name)
    return re.sub(r" \[clone (\.[^]]+)\]", r" (\1)", name)


def parse(path):
    recs = {}
    order = []
    cur = None
    for line in open(path):
        line = line.rstrip("\n")
        m = re.match(r"(0x[0-9a-f]+): (.*)", line)
        if m:
            cur = int(m.group(1), 16)
            recs[cur] = [m.group(2)]
            order.append(cur)
        elif line.startswith(" (inlined by) "):
            recs[cur].append(line[len(" (inlined by) "):])
        elif line:
            sys.exit("%s: cannot parse %r" % (path, line))
    return order, recs


def frame(text):
    """'FUNC at FILE:LINE (discriminator N)' -> (func, file, line, disc)."""
    disc = None
    m = re.match(r"(.*) \(discriminator (\d+)\)$", text)
    if m:
        text, disc = m.group(1), m.group(2)
    if text == "?? ??:0":               # addr2line's way of saying nothing
        return ("??", "??", "0", disc)
    m = re.match(r"(.*) at (.*):([0-9?]+)$", text)
    if not m:
        return (text, None, None, disc)
    return (m.group(1), m.group(2), m.group(3), disc)


def kinds(a, b):
    out = set()
    fa, fb = [frame(x) for x in a], [frame(x) for x in b]
    if len(fa) != len(fb):
        out.add("inline-depth")
    for x, y in zip(fa, fb):
        if x == y:
            continue
        if x[:3] == y[:3]:
            out.add("discriminator")
            continue
        if x[0] != y[0]:
            nx, ny = demangle_style(x[0]), demangle_style(y[0])
            if "??" in (x[0], y[0]):
                out.add("name-vs-none")
            elif nx == ny:
                out.add("demangler")
            elif CLONE.sub("", nx) == CLONE.sub("", ny):
                out.add("clone-suffix")
            elif len(fa) > 1 and x is fa[0] and x[0] == fa[-1][0] and y[0] != fb[-1][0]:
                out.add("inlined-as-outer")
            else:
                out.add("func-name")
        if x[1] != y[1] and not (x[0] == "??" and y[0] == "??"):
            out.add("file")
        if x[2] != y[2]:
            if {x[2], y[2]} == {"?", "0"}:
                out.add("no-line")
            else:
                out.add("line")
        if x[3] != y[3]:
            out.add("discriminator")
    if not out and a != b:
        out.add("format-unknown")
    return out


def main():
    base = sys.argv[1]
    oa, ra = parse(base + ".addr2line")
    ob, rb = parse(base + ".llvm-symbolizer")
    if sorted(oa) != sorted(ob):
        sys.exit("%s: the two files answer different addresses" % base)
    counts = {}
    ndiff = 0
    with open(base + ".peers-diff", "w") as f:
        f.write("# %s: addr2line (<) vs llvm-symbolizer (>), differing addresses only\n" % base)
        for addr in oa:
            a, b = ra[addr], rb[addr]
            if a == b:
                continue
            k = kinds(a, b)
            ndiff += 1
            for x in k:
                counts[x] = counts.get(x, 0) + 1
            f.write("0x%016x [%s]\n" % (addr, " ".join(sorted(k))))
            for i in range(max(len(a), len(b))):
                x = a[i] if i < len(a) else "(no frame)"
                y = b[i] if i < len(b) else "(no frame)"
                if x != y:
                    f.write("  < #%d %s\n  > #%d %s\n" % (i, x, i, y))
        f.write("# %d of %d addresses differ\n" % (ndiff, len(oa)))
        for x in sorted(counts):
            f.write("# %-15s %d\n" % (x, counts[x]))
    print("%s: %d of %d addresses differ: %s" % (
        base, ndiff, len(oa), ", ".join("%s %d" % kv for kv in sorted(counts.items()))))


if __name__ == "__main__":
    main()
