#!/usr/bin/env python3
"""Write a Callgrind profile with some of its function blocks changed as
an unlucky or hostile file could have them, for the differential checks
of tests/sh/disasm-positions-mutants.sh: whatever the blocks, reading by
region must print what reading every position prints.

    callgrind_mutate.py IN OUT SEED

One to four changes, chosen by SEED: a block's addresses shifted (by 1,
16, -16, 0x40 down, 0x1000 or 0x100000), a block split in two (its fn=
line again before one of its cost lines), a block copied to the end
(again after the others: a function read in two blocks), a block given
another object (an ob= line before it), two blocks' names swapped, an
absolute address made relative (+N), the objects' names changed, a
block's cost lines reversed."""
import random
import re
import sys

COST = re.compile(r'^(0x[0-9a-fA-F]+|\+\d+|-\d+|\*)( |$)')


def block(lines, i):
    """The lines of the block whose fn= line is lines[i]: [i, j)."""
    j = i + 1
    while j < len(lines) and lines[j] and \
            not lines[j].startswith(('fn=', 'ob=', 'fl=')):
        j += 1
    return j


def shift(line, d):
    m = re.match(r'^0x([0-9a-fA-F]+)(.*)$', line)
    return '0x%x%s' % (max(0, int(m.group(1), 16) + d), m.group(2)) if m else line


def change(lines, rnd):
    fns = [i for i, line in enumerate(lines) if line.startswith('fn=')]
    obs = sorted({line.split(' ')[0] for line in lines if line.startswith('ob=')})
    i = rnd.choice(fns)
    j = block(lines, i)
    k = rnd.randrange(8)
    if k == 0:
        d = rnd.choice([1, 16, -16, -0x40, 0x1000, 0x100000])
        lines[i + 1:j] = [shift(line, d) for line in lines[i + 1:j]]
    elif k == 1:
        cost = [c for c in range(i + 1, j) if COST.match(lines[c])]
        if len(cost) > 1:
            lines.insert(rnd.choice(cost[1:]), lines[i].split(' ')[0])
    elif k == 2:
        head = [line.split(' ')[0] for line in lines[max(0, i - 3):i]
                if line.startswith(('ob=', 'fl='))]
        lines += [''] + head + [lines[i].split(' ')[0]] + lines[i + 1:j]
    elif k == 3:
        if obs:
            lines.insert(i, rnd.choice(obs))
    elif k == 4:
        i2 = rnd.choice(fns)
        lines[i], lines[i2] = lines[i2], lines[i]
    elif k == 5:
        cost = [c for c in range(i + 1, j) if lines[c].startswith('0x') and ' ' in lines[c]]
        if cost:
            c = rnd.choice(cost)
            lines[c] = '+%d %s' % (rnd.randint(0, 64), lines[c].split(' ', 1)[1])
    elif k == 6:
        for c, line in enumerate(lines):
            if line.startswith('ob=(') and ' ' in line and rnd.random() < 0.5:
                lines[c] = line + rnd.choice(['.old', '-x'])
    else:
        lines[i + 1:j] = list(reversed(lines[i + 1:j]))


def main():
    src, dst, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
    rnd = random.Random(seed)
    lines = open(src).read().split('\n')
    for _ in range(rnd.randint(1, 4)):
        change(lines, rnd)
    open(dst, 'w').write('\n'.join(lines))


main()
