#!/bin/sh
# nopie-1000hz.gmon: tests/gmon/nopie.gmon with its histogram's rate
# made 1000 ticks a second (glibc's is 100): added to nopie.gmon, its
# ticks would be counted as 0.01 s each, ten times their time (gprof
# 2.40 does so with GNU files; e2e case bad-gmon-rate: refused).
# Run from the top of the tree.
python3 - <<'PY'
import struct
d = bytearray(open('tests/gmon/nopie.gmon', 'rb').read())
assert d[:4] == b'gmon' and d[20] == 0, 'a GNU gmon.out with a histogram first'
# header 20 bytes, tag 1, low_pc 8, high_pc 8, nbins 4, then the rate
struct.pack_into('<I', d, 21 + 8 + 8 + 4, 1000)
open('tests/bad/nopie-1000hz.gmon', 'wb').write(d)
PY
