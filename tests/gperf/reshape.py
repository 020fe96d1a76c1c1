#!/usr/bin/env python3
"""Write a gperftools CPU profile again in another layout, for tests.

usage: reshape.py IN OUT {be64|le32|be32}

be64: every word byte-swapped (a big-endian machine's profile).
le32, be32: 4-byte words (a 32-bit machine's). A 64-bit address does not
fit: each executable mapping is moved to 0x10000000 + i * 0x1000000 and
its addresses with it, and the mappings' text says so, so the profile
names the same code at other addresses.
"""
import re
import struct
import sys

src, dst, shape = sys.argv[1], sys.argv[2], sys.argv[3]
b = open(src, 'rb').read()
words = []
off = 0


def take(n):
    global off
    v = struct.unpack_from('<%dQ' % n, b, off)
    off += 8 * n
    return list(v)


words += take(5)
records = []
while True:
    count, depth = take(2)
    pcs = take(depth)
    records.append((count, pcs))
    if count == 0 and depth == 1 and pcs[0] == 0:
        break
maps = b[off:].decode()
moves = []        # (start, end, new start)
lines = []
for line in maps.splitlines(True):
    m = re.match(r'([0-9a-f]+)-([0-9a-f]+) (\S+)(.*)$', line, re.S)
    if shape != 'be64' and m and 'x' in m.group(3):
        start, end = int(m.group(1), 16), int(m.group(2), 16)
        new = 0x10000000 + len(moves) * 0x1000000
        assert end - start <= 0x1000000
        moves.append((start, end, new))
        line = '%08x-%08x %s%s' % (new, new + end - start, m.group(3), m.group(4))
    lines.append(line)


def move(a):
    if shape == 'be64' or a == 0:
        return a
    for start, end, new in moves:
        if start <= a < end:
            return new + a - start
    return a & 0xffffffff


fmt = {'be64': '>Q', 'le32': '<I', 'be32': '>I'}[shape]
out = [struct.pack(fmt, w) for w in words]
for count, pcs in records:
    out.append(struct.pack(fmt, count))
    out.append(struct.pack(fmt, len(pcs)))
    out += [struct.pack(fmt, move(a)) for a in pcs]
open(dst, 'wb').write(b''.join(out) + ''.join(lines).encode())
