"""Write tests/pprof/nosym.pb.gz: an unsymbolized profile (addresses and
a mapping, no functions or lines), as pprof -symbolize=none or a
profiling service's raw export leaves one, of the non-PIE program
tests/gmon/prog-nopie. Its mapping names a path that does not exist here
and no build id (go tool pprof 1.19 reads none from this binary and
then refuses it), so cganalyze finds the binary with -b and go tool
pprof with PPROF_BINARY_PATH=tests/gmon, both by its file name. The addresses are in the functions nm lists; a caller's is a
return address inside it. One frame is outside every mapping.
Run from the top of the repository."""
import gzip
import subprocess

BINARY = 'tests/gmon/prog-nopie'


def varint(v):
    out = bytearray()
    while v >= 0x80:
        out.append(v & 0x7f | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def u(num, v):
    return varint(num << 3) + varint(v) if v else b''


def msg(num, body):
    return varint(num << 3 | 2) + varint(len(body)) + body


def packed(num, vals):
    return msg(num, b''.join(varint(v) for v in vals))


def main():
    syms = {}
    for line in subprocess.run(['nm', BINARY], capture_output=True,
                               text=True, check=True).stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in 'tT':
            syms[parts[2]] = int(parts[0], 16)
    strs = ['', 'samples', 'count', 'cpu', 'nanoseconds',
            '/nonexistent/prog-nopie']
    # leaf first: (function, offset) frames, samples
    stacks = [
        ([('spin', 8), ('work', 0x20), ('main', 0x30)], 50),
        ([('fib', 6), ('main', 0x40)], 10),
        ([('helper.part.0', 4), ('work', 0x28), ('main', 0x30)], 5),
        ([('pong', 3), ('ping', 0x10), ('main', 0x50)], 7),
        ([(None, 0x7fff1234), ('main', 0x60)], 2),
    ]
    locs = {}
    body = msg(1, u(1, 1) + u(2, 2)) + msg(1, u(1, 3) + u(2, 4))
    for frames, n in stacks:
        ids = []
        for fn, off in frames:
            addr = syms[fn] + off if fn else off
            ids.append(locs.setdefault(addr, len(locs) + 1))
        body += msg(2, packed(1, ids) + packed(2, [n, n * 10000000]))
    body += msg(3, u(1, 1) + u(2, 0x401000) + u(3, 0x402000) +
                u(4, 0x1000) + u(5, 5))
    for addr, i in sorted(locs.items(), key=lambda x: x[1]):
        inside = 0x401000 <= addr < 0x402000
        body += msg(4, u(1, i) + u(2, 1 if inside else 0) + u(3, addr))
    body += msg(11, u(1, 3) + u(2, 4)) + u(12, 10000000)
    body += b''.join(msg(6, s.encode()) for s in strs)
    with open('tests/pprof/nosym.pb.gz', 'wb') as f:
        f.write(gzip.compress(body, mtime=0))


main()
