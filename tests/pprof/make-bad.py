"""Write the bad pprof inputs under tests/bad/ (pprof-*.pb), each broken
in one way the reader must report with the file and the byte offset, and
one whose counts claim far more than its size (it must stop at its
bound, not grow). Run from the top of the repository; the files are
committed, so the tests need only them."""
import gzip


def varint(v):
    out = bytearray()
    while v >= 0x80:
        out.append(v & 0x7f | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def key(num, wire):
    return varint(num << 3 | wire)


def u(num, v):
    return key(num, 0) + varint(v)


def msg(num, body):
    return key(num, 2) + varint(len(body)) + body


def packed(num, vals):
    return msg(num, b''.join(varint(v) for v in vals))


def strings(*ss):
    return b''.join(msg(6, s.encode()) for s in ss)


# strings: 0 "", 1 cpu, 2 count, 3 main, 4 work, 5 prog.c
STRS = strings('', 'cpu', 'count', 'main', 'work', 'prog.c')
HEAD = msg(1, u(1, 1) + u(2, 2))
FUNCS = msg(5, u(1, 1) + u(2, 3) + u(4, 5)) + msg(5, u(1, 2) + u(2, 4) + u(4, 5))
LOCS = (msg(4, u(1, 1) + msg(4, u(1, 1) + u(2, 10))) +
        msg(4, u(1, 2) + msg(4, u(1, 2) + u(2, 20))))
GOOD_SAMPLE = msg(2, packed(1, [2, 1]) + packed(2, [7]))


def good(extra=b''):
    return HEAD + GOOD_SAMPLE + LOCS + FUNCS + extra + STRS


def write(name, data):
    with open('tests/bad/pprof-' + name, 'wb') as f:
        f.write(data)


def main():
    whole = good()
    # a length that runs past the end (the file cut inside the strings)
    write('truncated.pb', whole[:-3])
    # a truncated varint: the last byte of the file starts one
    write('truncated-varint.pb', whole + b'\x90')
    # a sample naming location 9, which no location has
    write('location-id.pb', HEAD + msg(2, packed(1, [9]) + packed(2, [1]))
          + LOCS + FUNCS + STRS)
    # a function named by string 77 of 6
    write('string-index.pb', HEAD + GOOD_SAMPLE + LOCS + FUNCS +
          msg(5, u(1, 3) + u(2, 77)) + STRS)
    # a line of function 5, which no function has
    write('function-id.pb', HEAD + GOOD_SAMPLE + LOCS + FUNCS +
          msg(4, u(1, 3) + msg(4, u(1, 5))) + STRS)
    # two values for one sample type
    write('values.pb', HEAD + msg(2, packed(1, [1]) + packed(2, [1, 2]))
          + LOCS + FUNCS + STRS)
    # a negative value (a difference of profiles)
    write('negative.pb', HEAD + msg(2, packed(1, [1]) + packed(2, [2**64 - 5]))
          + LOCS + FUNCS + STRS)
    # huge counts: a location of 20,000 inlined lines named 200 times in
    # each of 400 samples claims 1.6 billion frames from a file of some
    # 200 KB; the reader stops at its bound for a file of that size
    lines = b''.join(msg(4, u(1, 1 + (i & 1)) + u(2, i + 1))
                     for i in range(20000))
    big = msg(4, u(1, 3) + lines)
    samples = b''.join(msg(2, packed(1, [3] * 200) + packed(2, [1]))
                       for _ in range(400))
    data = HEAD + samples + LOCS + big + FUNCS + STRS
    write('huge-stacks.pb.gz', gzip.compress(data, mtime=0))
    # many sample types by many functions: 3,000 types and a location
    # of 3,000 inlined functions, 9 million cost numbers from 100 KB;
    # refused before the functions' rows are made
    n = 3000
    strs = ['', 'count'] + ['t%d' % i for i in range(n)]
    types = b''.join(msg(1, u(1, 2 + i) + u(2, 1)) for i in range(n))
    funcs = b''.join(msg(5, u(1, i + 1) + u(2, 2 + i)) for i in range(n))
    loc = msg(4, u(1, 1) + b''.join(msg(4, u(1, i + 1)) for i in range(n)))
    sample = msg(2, packed(1, [1]) + packed(2, [1] * n))
    data = (types + sample + loc + funcs +
            b''.join(msg(6, s.encode()) for s in strs))
    write('types-by-functions.pb.gz', gzip.compress(data, mtime=0))
    # a good one, gzip'd: read like any other
    write('good.pb.gz', gzip.compress(whole, mtime=0))
    # a good one whose function "work" is named with a newline, a tab
    # and a terminal's escape sequence: the listings write them as C
    # escapes (a name's row stays one line)
    evil = strings('', 'cpu', 'count', 'main', 'evil\nname\twith\x1b[31mred',
                   'prog.c')
    write('control-name.pb', HEAD + GOOD_SAMPLE + LOCS + FUNCS + evil)
    # a function named with a NUL byte, which every listing would cut
    # there: refused, with the string's offset
    nul = strings('', 'cpu', 'count', 'main', 'wo\0rk', 'prog.c')
    write('nul-name.pb', HEAD + GOOD_SAMPLE + LOCS + FUNCS + nul)


main()
