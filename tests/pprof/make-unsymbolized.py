"""Write tests/pprof/nosym.pb.gz: an unsymbolized profile (addresses and
a mapping, no functions or lines), as pprof -symbolize=none or a
profiling service's raw export leaves one, of the non-PIE program
tests/gmon/prog-nopie. Its mapping names a path that does not exist here
and no build id (go tool pprof 1.19 reads none from this binary and
then refuses it), so cganalyze finds the binary with -b and go tool
pprof with PPROF_BINARY_PATH=tests/gmon, both by its file name. The addresses are in the functions nm lists; a caller's is the
return address of its call to the frame below (objdump -d), as a real
profile's is, so that cganalyze's check of a -b binary by its calls
takes it (and refuses another build's). One frame is outside every
mapping.
Run from the top of the repository."""
import gzip
import re
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


def return_addresses():
    """{(caller, callee): the address after the caller's first call to
    the callee}, from objdump -d."""
    out = subprocess.run(['objdump', '-d', '--no-show-raw-insn', BINARY],
                         capture_output=True, text=True, check=True).stdout
    rets, fn, pending = {}, None, None
    for line in out.splitlines():
        head = re.match(r'^([0-9a-f]+) <(.+)>:$', line)
        if head:
            fn = head.group(2)
            continue
        insn = re.match(r'^ +([0-9a-f]+):\t(\S+)(.*)$', line)
        if not insn:
            continue
        addr = int(insn.group(1), 16)
        if pending:
            rets.setdefault(pending, addr)
            pending = None
        target = re.search(r'<([^>+]+)>$', insn.group(3))
        if insn.group(2) == 'call' and target:
            pending = (fn, target.group(1))
    return rets


def main():
    rets = return_addresses()
    syms = {}
    for line in subprocess.run(['nm', BINARY], capture_output=True,
                               text=True, check=True).stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in 'tT':
            syms[parts[2]] = int(parts[0], 16)
    strs = ['', 'samples', 'count', 'cpu', 'nanoseconds',
            '/nonexistent/prog-nopie']
    # leaf first: the leaf (function, offset), then its callers, each
    # at its return address from the call to the one below; samples
    stacks = [
        ([('spin', 8), 'work', 'main'], 50),
        ([('fib', 6), 'main'], 10),
        ([('helper.part.0', 4), 'work', 'main'], 5),
        ([('pong', 3), 'ping', 'main'], 7),
        ([(None, 0x7fff1234), ('main', rets[('main', 'printf@plt')] -
                                syms['main'])], 2),
    ]
    locs = {}
    body = msg(1, u(1, 1) + u(2, 2)) + msg(1, u(1, 3) + u(2, 4))
    for frames, n in stacks:
        ids = []
        below = None
        for frame in frames:
            if isinstance(frame, str):
                fn, off = frame, rets[(frame, below)] - syms[frame]
            else:
                fn, off = frame
            below = fn
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
