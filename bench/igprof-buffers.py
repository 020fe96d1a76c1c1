#!/usr/bin/env python3
"""Write an IgProf dump of many buffers, for benchmarks and the report's
one pass over them (doc/PERFORMANCE.md, session 21).

    python3 bench/igprof-buffers.py BUFFERS [LINES] [SEED] > f.txt

Each buffer is a depth-first walk of random stacks over a pool of
functions (recursion included), its counters defined again under new ids
as igprof does per thread; a buffer may begin below the stack the one
before it left (its first line deeper than 1), so stacks cross the
buffers' ends as the reader allows. Two counters, PERF_TICKS on most
lines and a second one, MEM_MAX-like maxima, on some ("X_MAX"), so that
maxima and sums both cross. Functions are defined as first used, some
in late buffers only.
"""
import random
import sys


def main():
    nbuf = int(sys.argv[1])
    lines = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    rnd = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    pool = 30 + nbuf // 4
    defined = set()
    out = ['P=(ID=77 N=(./prog) T=0.010000)']
    vid = 0
    depth = 0
    obj_defined = False
    for b in range(nbuf):
        ids = {}
        first = True
        for _ in range(lines):
            if first and b and depth > 1 and rnd.random() < 0.5:
                d = rnd.randint(2, depth + 1)   # across the end
            elif depth == 0:
                d = 1
            else:
                d = rnd.randint(1, min(depth + 1, 12))
            # late functions: a pool growing with the buffers
            f = rnd.randrange(min(pool, 8 + b + d))
            if f in defined:
                fn = 'FN%d+%d' % (f, 4 + f % 7)
            else:
                obj = 'F0' if obj_defined else 'F0=(./prog)'
                obj_defined = True
                fn = 'FN%d=(%s+%d N=(fn%d))+%d' % (f, obj, 4096 + 64 * f,
                                                  f % (pool - 3),
                                                  4 + f % 7)
                defined.add(f)
            line = 'C%d %s' % (d, fn)
            depth = d
            vals = []
            if first or rnd.random() < 0.6:
                if 'T' not in ids:
                    ids['T'] = vid
                    vid += 1
                    vals.append(' V%d=(PERF_TICKS)' % ids['T'])
                else:
                    vals.append(' V%d' % ids['T'])
                n = rnd.randint(0, 9)
                vals[-1] += ':(%d,%d,%d)' % (n, n, n)
                first = False
            if not first and rnd.random() < 0.2:
                if 'M' not in ids:
                    ids['M'] = vid
                    vid += 1
                    vals.append(' V%d=(X_MAX)' % ids['M'])
                else:
                    vals.append(' V%d' % ids['M'])
                n = rnd.randint(0, 999)
                vals[-1] += ':(1,%d,%d)' % (n, n)
            out.append(line + ''.join(vals))
    print('\n'.join(out))


main()
