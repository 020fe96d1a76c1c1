"""Write tests/gperf/astray.prof: a gperftools CPU profile of
tests/perf/prog (mapped at 0x555555554000 from a path that is not here,
so -b gives the binary) whose frame-pointer stacks partly went astray,
as they do through code built without frame pointers (perf record -p
of a C++ program through libstdc++, in pipe mode, did): past a return
"address" 6, in no mapping, come function entries, which follow no
call. Two whole stacks give five return addresses that follow calls,
the astray one seven that do not: judged by all twelve, the binary was
taken for another build (5 of 12 follow a call); the frames past the
one in no mapping are not judged (the e2e case gperf-astray). Run from
the top of the tree; the file is committed."""
import struct

BASE = 0x555555554000


def at(vaddr):
    return BASE + vaddr


# tests/perf/prog (objdump -d): leaf 0x1199, fib 0x11e4 (calls leaf at
# 0x11fd, itself at 0x120f), hot 0x1230 (calls leaf at 0x1244), worker
# 0x1264, main 0x12b3 (calls hot at 0x131f, fib at 0x1336); a call is 5
# bytes, so its return address is 5 after it
STACKS = [
    (5, [0x11b7, 0x1249, 0x1324]),                  # leaf < hot < main
    (5, [0x11c8, 0x1202, 0x1214, 0x133b]),          # leaf < fib < fib < main
    (3, [0x11ba, 0x1249, None, 0x11e4, 0x1230, 0x1264, 0x12b3, 0x1199,
         0x11a9, 0x12c0]),                          # astray past "6"
]
words = [0, 3, 0, 10000, 0]
for count, pcs in STACKS:
    words += [count, len(pcs)] + [6 if pc is None else at(pc) for pc in pcs]
words += [0, 1, 0]
maps = ('%x-%x r-xp 00001000 00:00 1 /nonexistent/astray/prog\n'
        % (at(0x1000), at(0x2000)))
with open('tests/gperf/astray.prof', 'wb') as f:
    f.write(b''.join(struct.pack('<Q', w) for w in words))
    f.write(maps.encode())
