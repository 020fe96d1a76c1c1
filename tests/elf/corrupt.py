#!/usr/bin/env python3
"""Damage a good 64-bit little-endian ELF file in known ways, for the
tests of the symbol loader on bad binaries (see make-elves.sh).

    corrupt.py GOOD OUTDIR

writes OUTDIR/bad-*: each a copy of GOOD with one kind of damage."""
import struct
import sys

EHDR = struct.Struct('<16sHHIQQQIHHHHHH')
SHDR = struct.Struct('<IIQQQQIIQQ')
SYM = struct.Struct('<IBBHQQ')


def header(data):
    f = EHDR.unpack_from(data, 0)
    return {'shoff': f[6], 'shentsize': f[11], 'shnum': f[12],
            'shstrndx': f[13]}


def sections(data):
    h = header(data)
    secs = []
    for i in range(h['shnum']):
        f = SHDR.unpack_from(data, h['shoff'] + i * h['shentsize'])
        secs.append({'name': f[0], 'type': f[1], 'offset': f[4],
                     'size': f[5], 'link': f[6], 'entsize': f[9]})
    strtab = secs[h['shstrndx']]
    for s in secs:
        start = strtab['offset'] + s['name']
        s['name'] = data[start:data.index(b'\0', start)].decode()
    return secs


def section(data, name):
    return next(s for s in sections(data) if s['name'] == name)


def with_shdr_field(data, name, field, value):
    """Section `name`'s header with one field changed."""
    h = header(data)
    index = [s['name'] for s in sections(data)].index(name)
    out = bytearray(data)
    at, fmt = {'type': (4, '<I'), 'offset': (24, '<Q'),
               'size': (32, '<Q')}[field]
    struct.pack_into(fmt, out, h['shoff'] + index * h['shentsize'] + at,
                     value)
    return bytes(out)


def bad_strtab(data):
    """Three symbols whose names point far past the string table."""
    out = bytearray(data)
    symtab = section(data, '.symtab')
    n = 0
    for i in range(1, symtab['size'] // SYM.size):
        off = symtab['offset'] + i * SYM.size
        sym = list(SYM.unpack_from(out, off))
        if sym[1] & 0xf == 2 and n < 3:	# STT_FUNC
            sym[0] = 0x40000000 + 0x1000 * n
            SYM.pack_into(out, off, *sym)
            n += 1
    assert n == 3
    return bytes(out)


def with_byte(data, off, value):
    out = bytearray(data)
    out[off] = value
    return bytes(out)


def main():
    good = open(sys.argv[1], 'rb').read()
    outdir = sys.argv[2]
    phdrs_end = 64 + 56 * EHDR.unpack_from(good, 0)[10]
    variants = {
        'bad-strtab': bad_strtab(good),
        'bad-class': with_byte(good, 4, 3),
        'bad-byteorder': with_byte(good, 5, 0),
        # a size or an offset that points past the end of the file
        'bad-line-size': with_shdr_field(good, '.debug_line', 'size',
                                         0x7fffffff),
        'bad-text-offset': with_shdr_field(good, '.text', 'offset',
                                           1 << 40),
        # DWARF with no bytes in the file (SHT_NOBITS) but a size
        'bad-line-nobits': with_shdr_field(good, '.debug_line', 'type', 8),
        # the file cut inside its identification, its header, its
        # program headers, its contents, its section header table
        'cut-ident': good[:10],
        'cut-header': good[:40],
        'cut-phdrs': good[:phdrs_end - 8],
        'cut-middle': good[:len(good) // 2],
        'cut-last-byte': good[:-1],
    }
    for name, data in variants.items():
        with open('%s/%s' % (outdir, name), 'wb') as f:
            f.write(data)


main()
