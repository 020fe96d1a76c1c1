#!/bin/sh
# nopie-bad-arc.gmon: tests/gmon/nopie.gmon with the callee address of
# two of its 12 call arcs made main's + 0x80 (0x40144e), far from any
# entry where -pg code calls mcount, as a damaged copy may have them.
# The binary that wrote it is refused as another program's (10 of 12
# arcs at an entry); --force-binary lists it, and the flat profile is
# gprof 2.40's (but helper.part.0's own time, which gprof gives to
# frame_dummy, README.md): e2e cases bad-gmon-arc, bad-gmon-arc-forced.
# --force-binary was refused for a gmon.out alone.
# Run from the top of the tree.
python3 - <<'PY'
import struct
d = bytearray(open('tests/gmon/nopie.gmon', 'rb').read())
assert d[:4] == b'gmon', 'a GNU gmon.out'
off, arcs = 20, []
while off < len(d):
    tag = d[off]
    if tag == 0:        # histogram: low, high, nbins, rate, dimen, abbrev
        nbins = struct.unpack_from('<I', d, off + 17)[0]
        off += 1 + 8 + 8 + 4 + 4 + 15 + 1 + 2 * nbins
    elif tag == 1:      # call arc: from, self, count
        arcs.append(off + 1 + 8)
        off += 1 + 8 + 8 + 4
    else:
        raise SystemExit('unexpected tag %d' % tag)
assert len(arcs) == 12, len(arcs)
for at in arcs[:2]:
    struct.pack_into('<Q', d, at, 0x4013ce + 0x80)
open('tests/bad/nopie-bad-arc.gmon', 'wb').write(d)
PY
