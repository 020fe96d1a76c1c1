"""A stripped binary's functions, named from its .eh_frame, carry the
same samples as the functions its symbols name.

Run by tests/sh/perf-stripped.sh as
    python3 tests/perf_stripped_check.py BINARY PROG STRIPPED -- ARGS...
where STRIPPED is PROG after objcopy --strip-all (its build-id kept, so
the recording takes it as PROG) and ARGS read a recording of PROG with
PROG given by -b. The run with PROG and the run with STRIPPED in its
place must agree function for function: each of PROG's functions that
the strip left unnamed (nm lists it, STRIPPED's .dynsym does not) is
"prog+0xADDR" at nm's address, with the same self and inclusive cost,
samples and calls; every other function is the same in both.
"""
import json
import os
import subprocess
import sys


def functions(binary, args):
    out = subprocess.run([binary, '--json'] + args, capture_output=True,
                         text=True, check=True).stdout
    return {(f['object'], f['name']): f for f in json.loads(out)['functions']}


def nm(path, dynamic):
    out = subprocess.run(['nm', '--defined-only'] + (['-D'] if dynamic else [])
                         + [path], capture_output=True, text=True,
                         check=True).stdout
    names = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in 'tTwW':
            names[parts[2].split('@')[0]] = int(parts[0], 16)
    return names


def main():
    binary, prog, stripped = sys.argv[1:4]
    args = sys.argv[5:]
    full = functions(binary, args)
    bare_args = [stripped if a == prog else a for a in args]
    bare = functions(binary, bare_args)
    exported = nm(stripped, True)
    addrs = nm(prog, False)
    base = os.path.basename(prog)
    renamed = 0
    bad = []
    for (obj, name), f in full.items():
        key = (obj, name)
        if obj is not None and os.path.basename(obj) == base and \
                name in addrs and name not in exported:
            key = (obj, '%s+0x%x' % (base, addrs[name]))
            renamed += 1
        g = bare.get(key)
        if g is None:
            bad.append('%s: %s has no %s' % (stripped, name, key[1]))
            continue
        for field in ('self', 'inclusive', 'self_count', 'calls'):
            if f[field] != g[field]:
                bad.append('%s: %s %s %s, as %s %s' % (
                    field, name, f[field], field, key[1], g[field]))
    if len(bare) != len(full):
        bad.append('%d functions with symbols, %d stripped' %
                   (len(full), len(bare)))
    for b in bad:
        print('perf-stripped: ' + b)
    if not renamed:
        print('perf-stripped: no function of %s was left unnamed by the '
              'strip: nothing compared' % prog)
        return 1
    print('perf-stripped: %d functions named from .eh_frame, %d in all, '
          'costs equal' % (renamed, len(full)))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
