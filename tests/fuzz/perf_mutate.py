#!/usr/bin/env python3
"""Write a perf.data file (not pipe mode) with its data section's records
changed as a hostile or unlucky recording could have them, for the
differential checks of tests/sh/perf-unwind-mutants.sh: whatever the
records, unwinding on one thread or on two must print the same.

    perf_mutate.py IN OUT SEED KIND

KIND: swap (neighbours swapped), across (records moved into other rounds),
dropfr / dupfr (FINISHED_ROUNDs dropped / duplicated and added), side
(MMAP, MMAP2, FORK, COMM, EXIT moved), mmapend / taskend / exitfirst
(all mappings last, all tasks' records last, all EXITs first), rev
(each round's records reversed), rounds (the rounds' order reversed),
cut / zero / regs (samples' user stacks cut short by their dyn_size,
zeroed in part, or one of their user registers changed). The feature
sections after the data section are moved with it. Exit status 3: KIND
found nothing to change (no sample with a user stack)."""
import random
import struct
import sys

MMAP, COMM, EXIT, FORK, SAMPLE, MMAP2, FINISHED_ROUND = 1, 3, 4, 7, 9, 10, 68


def records(b, start, size):
    out, p = [], start
    while p + 8 <= start + size:
        sz = struct.unpack_from('<IHH', b, p)[2]
        if sz < 8:
            break
        out.append(bytearray(b[p:p + sz]))
        p += sz
    return out


def typ(r):
    return struct.unpack_from('<I', r, 0)[0]


def stack_of(r):
    """A sample's user stack: (offset of its size, size, offset of its
    dyn_size), taken as the last u64 whose value is the number of bytes
    after it less its dyn_size and up to 4 fields more; None if none."""
    n = len(r)
    for o in range(8, n - 16, 8):
        size = struct.unpack_from('<Q', r, o)[0]
        if size >= 64 and 0 <= n - (o + 16 + size) <= 32:
            return o, size, o + 8 + size
    return None


def rounds_of(recs):
    out, cur = [], []
    for r in recs:
        cur.append(r)
        if typ(r) == FINISHED_ROUND:
            out.append(cur)
            cur = []
    return out, cur


def mutate(recs, rnd, kind):
    def where(types):
        return [i for i, r in enumerate(recs) if typ(r) in types]
    if kind == 'swap':
        for _ in range(rnd.randint(1, 20)):
            i = rnd.randrange(len(recs) - 1)
            recs[i], recs[i + 1] = recs[i + 1], recs[i]
    elif kind == 'across':
        for _ in range(rnd.randint(1, 10)):
            r = recs.pop(rnd.randrange(len(recs)))
            recs.insert(rnd.randrange(len(recs) + 1), r)
    elif kind == 'dropfr':
        fr = where((FINISHED_ROUND,))
        for i in sorted(rnd.sample(fr, rnd.randint(min(1, len(fr)), len(fr))),
                        reverse=True):
            del recs[i]
    elif kind == 'dupfr':
        fr = where((FINISHED_ROUND,))
        for i in sorted(rnd.sample(fr, min(len(fr), rnd.randint(1, 5))),
                        reverse=True):
            recs.insert(i, bytearray(recs[i]))
        for _ in range(3):
            recs.insert(rnd.randrange(len(recs) + 1),
                        bytearray(struct.pack('<IHH', FINISHED_ROUND, 0, 8)))
    elif kind == 'side':
        side = where((MMAP, COMM, EXIT, FORK, MMAP2))
        moved = [recs[i] for i in rnd.sample(side, min(len(side), rnd.randint(1, 6)))]
        recs[:] = [r for r in recs if not any(r is m for m in moved)]
        for r in moved:
            recs.insert(rnd.randrange(len(recs) + 1), r)
    elif kind in ('mmapend', 'taskend', 'exitfirst'):
        types = {'mmapend': (MMAP, MMAP2), 'taskend': (COMM, EXIT, FORK),
                 'exitfirst': (EXIT,)}[kind]
        some = [r for r in recs if typ(r) in types]
        rest = [r for r in recs if typ(r) not in types]
        recs[:] = some + rest if kind == 'exitfirst' else rest + some
    elif kind == 'rev':
        rs, cur = rounds_of(recs)
        recs[:] = [r for g in rs for r in list(reversed(g[:-1])) + g[-1:]] + \
            list(reversed(cur))
    elif kind == 'rounds':
        rs, cur = rounds_of(recs)
        recs[:] = [r for g in reversed(rs) for r in g] + cur
    elif kind in ('cut', 'zero', 'regs'):
        smp = [i for i in where((SAMPLE,)) if stack_of(recs[i])]
        if not smp:
            sys.exit(3)
        for i in rnd.sample(smp, min(len(smp), rnd.randint(1, 30))):
            r = recs[i]
            o, size, dyn = stack_of(r)
            if kind == 'cut':
                struct.pack_into('<Q', r, dyn, rnd.choice(
                    [0, 8, 16, 64, rnd.randrange(size + 1)]))
            elif kind == 'zero':
                a = o + 8 + rnd.randrange(size)
                e = min(o + 8 + size, a + rnd.randint(8, 2048))
                r[a:e] = bytes(e - a)
            else:
                ro = o - 8 * rnd.randint(1, 18)
                if ro > 8:
                    v = struct.unpack_from('<Q', r, ro)[0]
                    v = rnd.choice([0, v + 8, v - 8, v ^ (1 << rnd.randrange(48)),
                                    0xffffffffffffffff])
                    struct.pack_into('<Q', r, ro, v & 0xffffffffffffffff)
    else:
        sys.exit('perf_mutate.py: unknown kind ' + kind)


def main():
    src, dst, seed, kind = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    b = open(src, 'rb').read()
    if b[:8] != b'PERFILE2':
        sys.exit('perf_mutate.py: %s: not a perf.data file (PERFILE2)' % src)
    do, dsz, eo, esz = struct.unpack_from('<4Q', b, 40)
    recs = records(b, do, dsz)
    mutate(recs, random.Random(seed), kind)
    data = b''.join(recs)
    delta = len(data) - dsz
    # the feature sections' table follows the data section: one
    # {offset, size} per bit of the header's flags
    feat = bytearray(b[do + dsz:])
    for k in range(bin(int.from_bytes(b[72:104], 'little')).count('1')):
        off, sz = struct.unpack_from('<QQ', feat, 16 * k)
        struct.pack_into('<QQ', feat, 16 * k,
                         off + delta if off >= do + dsz else off, sz)
    out = bytearray(b[:do]) + data + feat
    struct.pack_into('<Q', out, 48, len(data))
    if esz and eo >= do + dsz:
        struct.pack_into('<Q', out, 56, eo + delta)
    open(dst, 'wb').write(out)


main()
