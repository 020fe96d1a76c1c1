"""--diff --json's "callers" and "callees" (issue 35) against each
profile read alone and against gprof.

- Each listed function's callee's cost and count on each side equal
  the sum of that side's --json "arcs" from the function to the callee
  (by name, file and object, NEW's main program under BASE's name when
  --diff matched them; where that names one function of the side), and a
  side that has no such arc says 0 and "calls_in" leaves it out.
- A callee's entry and the callee's caller entry (both listed) agree.
- gmon.out: each caller line gprof -q prints above a function (self +
  children, in ticks of 0.01 s, and the count) is the function's
  "callers" entry on that side.
Pairs: two builds of one program (Callgrind, perf.data, gmon.out), the
gperftools pair, tests/diff's two programs.

Usage: diff_calls_check.py BINARY
"""
import json
import re
import subprocess
import sys
from collections import defaultdict

BIN = sys.argv[1]
B = 'tests/diff/builds/'
PAIRS = {
    'callgrind': ([], B + 'fib.cg', [], B + 'fib-O2.cg'),
    'perf': (['-b', B + 'fib'], B + 'fib.data', ['-b', B + 'fib-O2'], B + 'fib-O2.data'),
    'gmon': (['-b', 'tests/gmon/prog-pie'], 'tests/gmon/pie.gmon',
             ['-b', 'tests/gmon/prog-nopie'], 'tests/gmon/nopie.gmon'),
    'gperf': (['-b', 'tests/gperf/prog'], 'tests/gperf/prog.prof',
              ['-b', 'tests/gperf/prog-nopie'], 'tests/gperf/prog-nopie.prof'),
    'progs': ([], 'tests/diff/base.cg', [], 'tests/diff/new.cg'),
}
failed = 0


def fail(*what):
    global failed
    failed += 1
    print('FAIL:', *what)


def run(args):
    out = subprocess.run([BIN] + args, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def side_arcs(extra, path, mains):
    """(caller, callee) by (name, file, object) -> [cost, count], NEW's
    main program under BASE's name where --diff matched the two
    (mains: {NEW's: BASE's}); the keys that name two functions"""
    j = run(['--json'] + extra + [path])
    fs = j['functions']
    key = [(f['name'], f['file'] or None, mains.get(f['object'], f['object']))
           for f in fs]
    objs = defaultdict(set)
    for f, k in zip(fs, key):
        objs[k].add(f['object'])
    arcs = defaultdict(lambda: [0.0, 0])
    for a in j['arcs']:
        if a['caller'] == a['callee']:
            continue
        v = arcs[(key[a['caller']], key[a['callee']])]
        v[0] += a['inclusive'][0]
        v[1] += a['count']
    return arcs, {k for k, o in objs.items() if len(o) > 1}


def gprof_callers(binary, gmon):
    """gprof -q's caller lines: (callee, caller) -> [ticks, count]"""
    out = subprocess.run(['gprof', '-b', '-q', binary, gmon], capture_output=True,
                         text=True, check=True).stdout
    got = {}
    for block in out.split('-----------------------------------------------'):
        lines = [ln for ln in block.split('\n') if ln.strip()]
        prim = [i for i, ln in enumerate(lines) if re.match(r'\[\d+\]', ln)]
        if not prim:
            continue
        m = re.match(r'\[\d+\]\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+\S+\s+(.*?)(\s+<cycle \d+>)?\s+\[\d+\]$',
                     lines[prim[0]])
        if not m:
            continue
        callee = m.group(1)
        for ln in lines[:prim[0]]:
            c = re.match(r'\s+([\d.]+)\s+([\d.]+)\s+(\d+)/\d+\s+(.*?)(\s+<cycle \d+>)?\s+\[\d+\]$', ln)
            if c:
                got[(callee, c.group(4))] = [round(100 * (float(c.group(1)) +
                                                          float(c.group(2)))),
                                             int(c.group(3))]
    return got


for kind, (bb, b, nb, n) in PAIRS.items():
    d = run(['--diff', '--json', '--threshold=0'] + bb + nb + [b, n])
    m = d.get('main_programs')
    renamed = {m['new']: m['base']} if m and m['matched'] else {}
    sides = [side_arcs(bb, b, {}), side_arcs(nb, n, renamed)]
    checked = 0
    by_key = {}
    for f in d['functions']:
        by_key[(f['name'], f['file'], f['object'])] = f
    for f in d['functions']:
        fk = (f['name'], f['file'], f['object'])
        for g in f['callees']:
            gk = (g['name'], g['file'], g['object'])
            for k in (0, 1):
                arcs, dup = sides[k]
                if fk in dup or gk in dup:
                    continue
                cost, count = arcs.get((fk, gk), [0, 0])
                had = (fk, gk) in arcs
                if round(cost) != g['cost'][k] or count != g['count'][k]:
                    fail(kind, f['name'], '->', g['name'], 'side', k, 'cost',
                         g['cost'][k], 'count', g['count'][k], '--json', cost, count)
                if had != (g['calls_in'] in ('both', ('base', 'new')[k])):
                    fail(kind, f['name'], '->', g['name'], 'calls_in', g['calls_in'])
                checked += 1
            h = by_key.get((g['name'], g['file'], g['object']))
            if h is not None:
                back = [c for c in h['callers'] if (c['name'], c['file'], c['object']) ==
                        (f['name'], f['file'], f['object'])]
                if len(back) != 1 or back[0]['cost'] != g['cost'] or \
                        back[0]['count'] != g['count']:
                    fail(kind, f['name'], '->', g['name'], 'not its callee\'s caller')
                checked += 1
    if kind == 'gmon':
        for k, (extra, path) in enumerate(((bb, b), (nb, n))):
            for (callee, caller), (ticks, count) in gprof_callers(extra[1], path).items():
                f = [x for x in d['functions'] if x['name'] == callee]
                row = [c for x in f for c in x['callers'] if c['name'] == caller]
                if len(row) != 1:
                    continue
                if row[0]['cost'][k] != ticks or row[0]['count'][k] != count:
                    fail(kind, caller, '->', callee, 'side', k, row[0]['cost'][k],
                         row[0]['count'][k], 'gprof', ticks, count)
                checked += 1
    if checked < 5:
        fail(kind, 'only', checked, 'figures checked')
    print('%s: %d figures checked' % (kind, checked))
sys.exit(1 if failed else 0)
