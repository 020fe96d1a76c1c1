#!/bin/sh
# nopie-huge-range.gmon: tests/gmon/nopie.gmon with its histogram's
# high_pc made 2^64 - 1, as a damaged header may have it: each bin then
# spans far past the program, and every tick falls beyond its last
# function. gprof 2.40 drops them and prints 0.00 seconds for all; we
# list them as <hicore>, gprof's name, and warn (e2e case
# bad-gmon-range).
# Run from the top of the tree.
python3 - <<'PY'
import struct
d = bytearray(open('tests/gmon/nopie.gmon', 'rb').read())
assert d[:4] == b'gmon' and d[20] == 0, 'a GNU gmon.out with a histogram first'
# header 20 bytes, tag 1, low_pc 8, then high_pc
struct.pack_into('<Q', d, 21 + 8, 0xffffffffffffffff)
open('tests/bad/nopie-huge-range.gmon', 'wb').write(d)
PY
