#!/usr/bin/env python3
"""Write a perf record -z pipe stream whose zstd data is raw (stored)
blocks, from an uncompressed pipe-mode perf.data: each run of the
kernel's records (types under 64) goes into COMPRESSED records of at
most CHUNK bytes each, cut wherever CHUNK falls (inside records too, as
perf cuts them). A fuzzer's changes to the records' bytes then stay
valid zstd, so they reach the records read from decompressed data.

    python3 tests/fuzz/zraw.py tests/perf/pipe.data OUT [CHUNK]
"""
import struct
import sys

COMPRESSED = 81
# zstd frame: magic, a descriptor with no content size, checksum or
# dictionary and not single-segment, then a window of 2^17 bytes (a raw
# block holds at most the window, and at most 128 KiB)
FRAME_HEADER = struct.pack('<IBB', 0xFD2FB528, 0x00, (17 - 10) << 3)


def raw_block(data):
    # the block header: bit 0 last block (never: perf's stream does not
    # end), bits 1-2 type (0, raw), bits 3-23 size
    return struct.pack('<I', len(data) << 3)[:3] + data


def main():
    src, out = sys.argv[1], sys.argv[2]
    chunk = int(sys.argv[3]) if len(sys.argv) > 3 else 700
    data = open(src, 'rb').read()
    magic, hsize = struct.unpack_from('<8sQ', data, 0)
    assert magic == b'PERFILE2' and hsize == 16, 'a little-endian pipe stream'
    res = bytearray(data[:16])
    pending = bytearray()
    first = [True]

    def flush():
        for at in range(0, len(pending), chunk):
            payload = raw_block(bytes(pending[at:at + chunk]))
            if first[0]:
                payload = FRAME_HEADER + payload
                first[0] = False
            res.extend(struct.pack('<IHH', COMPRESSED, 0, 8 + len(payload)))
            res.extend(payload)
        pending.clear()

    at = 16
    while at < len(data):
        rtype, _, size = struct.unpack_from('<IHH', data, at)
        if rtype < 64:
            pending.extend(data[at:at + size])
        else:
            flush()
            res.extend(data[at:at + size])
        at += size
    flush()
    open(out, 'wb').write(res)


main()
