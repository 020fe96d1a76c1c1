#!/usr/bin/env python3
"""Rewrite a GNU gmon.out (64-bit little-endian, one histogram, no
basic-block records) in another layout, for the reader's tests:

  gmon-convert.py IN OUT bsd44    4.4BSD header (with the rate), same size
  gmon-convert.py IN OUT bsd-old  old BSD header (no rate: 100 Hz assumed)
  gmon-convert.py IN OUT gnu32    GNU, 4-byte addresses (another arch)
  gmon-convert.py IN OUT gnu-be   GNU, big-endian (another arch)
  gmon-convert.py IN OUT gnu-bb   GNU plus a basic-block record
  gmon-convert.py IN OUT runtime  GNU, every address 0x555555554000 up:
                                  a PIE's gmon.out as older glibc wrote
                                  it, with runtime addresses
"""
import struct
import sys


def parse(data):
    assert data[:4] == b"gmon", "not a GNU gmon.out"
    hist, arcs, off = None, [], 20
    while off < len(data):
        tag = data[off]
        off += 1
        if tag == 0:
            low, high, n, rate = struct.unpack_from("<QQII", data, off)
            dimen = data[off + 24:off + 40]
            off += 40
            bins = list(struct.unpack_from("<%dH" % n, data, off))
            off += 2 * n
            hist = (low, high, rate, dimen, bins)
        elif tag == 1:
            arcs.append(struct.unpack_from("<QQI", data, off))
            off += 20
        else:
            raise SystemExit("unexpected tag %d" % tag)
    return hist, arcs


def bsd(hist, arcs, with_rate):
    low, high, rate, _, bins = hist
    hdr = 40 if with_rate else 20
    out = struct.pack("<QQI", low, high, hdr + 2 * len(bins))
    if with_rate:
        out += struct.pack("<II12x", 0x00051879, rate)
    out += struct.pack("<%dH" % len(bins), *bins)
    for f, s, c in arcs:
        out += struct.pack("<QQQ", f, s, c)
    return out


def gnu(hist, arcs, e, a, bbs=()):
    low, high, rate, dimen, bins = hist
    out = b"gmon" + struct.pack(e + "I12x", 1)
    out += b"\0" + struct.pack(e + a + a + "II", low, high, len(bins), rate)
    out += dimen + struct.pack(e + "%dH" % len(bins), *bins)
    for f, s, c in arcs:
        out += b"\1" + struct.pack(e + a + a + "I", f, s, c)
    if bbs:
        out += b"\2" + struct.pack(e + "I", len(bbs))
        for addr, count in bbs:
            out += struct.pack(e + a + a, addr, count)
    return out


def main():
    src, dst, kind = sys.argv[1:4]
    hist, arcs = parse(open(src, "rb").read())
    if kind == "bsd44":
        out = bsd(hist, arcs, True)
    elif kind == "bsd-old":
        out = bsd(hist, arcs, False)
    elif kind == "gnu32":
        out = gnu(hist, arcs, "<", "I")
    elif kind == "gnu-be":
        out = gnu(hist, arcs, ">", "Q")
    elif kind == "gnu-bb":
        # two blocks at the first two call sites, counted as called
        bbs = [(arcs[0][0], arcs[0][2]), (arcs[1][0], arcs[1][2])]
        out = gnu(hist, arcs, "<", "Q", bbs)
    elif kind == "runtime":
        base = 0x555555554000
        low, high, rate, dimen, bins = hist
        hist = (low + base, high + base, rate, dimen, bins)
        arcs = [(f + base, s + base, c) for f, s, c in arcs]
        out = gnu(hist, arcs, "<", "Q")
    else:
        raise SystemExit("unknown kind " + kind)
    open(dst, "wb").write(out)


main()
