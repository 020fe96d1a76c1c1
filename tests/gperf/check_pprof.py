#!/usr/bin/env python3
"""Compare cganalyze --json on a gperftools profile with google-pprof --text.

usage: check_pprof.py OURS.json PPROF.txt EVENT UNIT [NAME...]

Each row of google-pprof --text or go tool pprof -top is "flat flat%
sum% cum cum% name" (go's numbers with a unit, "4224000B"); ours are
each function's self and inclusive cost of EVENT (its index in --json's
events), divided by UNIT (the ns of one sample of a CPU profile; 1 for
bytes or objects). Names are shortened as pprof shortens them
(argument lists, template arguments and a leading return type dropped),
and ours summed per short name, since pprof adds up the functions its
short names make one (square<int>::area and square<double>::area).
With NAMEs, only those rows are compared (the others are code of
system libraries, which pprof names from this machine's files: a
checkout elsewhere has others); else every row. A NAME may be
"A+B:cum": pprof's rows A and B added up are our A, and only their
cumulative column is compared (google-pprof gives code inlined into a
function rows of its own, "f (inline)", with that code's flat, and may
name one function two ways from its DWARF; the function's own row keeps
the samples of its stacks as cumulative). Exit 1 on a difference.
"""
import json
import re
import sys


def short(name):
    # pprof's ShortFunctionName
    while True:
        n = re.sub(r'\([^()]*\)(\s*const)?', '', name)
        if n == name:
            break
        name = n
    while True:
        n = re.sub(r'<[^<>]*>', '', name)
        if n == name:
            break
        name = n
    return re.sub(r'^.*\s+(\w+::)', r'\1', name)


def main():
    ours_path, pprof_path = sys.argv[1], sys.argv[2]
    event, unit = int(sys.argv[3]), float(sys.argv[4])
    specs = {}
    for spec in sys.argv[5:]:
        cum_only = spec.endswith(':cum')
        names = spec[:-4].split('+') if cum_only else spec.split('+')
        specs[names[0]] = (names, cum_only)
    ours = json.load(open(ours_path))
    flat, cum = {}, {}
    for f in ours['functions']:
        n = short(f['name'])
        flat[n] = flat.get(n, 0) + f['self'][event]
        cum[n] = cum.get(n, 0) + f['inclusive'][event]
    rows = {}
    num = r'([\d.]+)(?:B|ms|s)?\s+[\d.]+%'
    for line in open(pprof_path):
        m = re.match(r'\s*' + num + r'\s+[\d.]+%\s+' + num + r'\s+(.*)$', line)
        if m:
            rows[m.group(3).strip()] = (float(m.group(1)), float(m.group(2)))
    if not specs:
        specs = {n: ([n], False) for n in rows}
    bad = 0
    for name, (names, cum_only) in sorted(specs.items()):
        if not all(n in rows for n in names):
            print('%s: pprof has no such row' % '+'.join(names))
            bad = 1
            continue
        want = (sum(rows[n][0] for n in names), sum(rows[n][1] for n in names))
        have = (flat.get(name, 0) / unit, cum.get(name, 0) / unit)
        if name not in cum or have[1] != want[1] or \
           (not cum_only and have[0] != want[0]):
            print('%s: pprof has flat %g cum %g, we have %s' %
                  (name, want[0], want[1],
                   '%g and %g' % have if name in cum else 'no such function'))
            bad = 1
    return bad


if __name__ == '__main__':
    sys.exit(main())
