#!/usr/bin/env python3
"""Write the IgProf test profiles of this directory.

IgProf itself is not packaged for Debian 12, so these are written the way
igprof 5.9 writes its dump (src/profile.cc, walk-syms.cc), for the program
samples/recursion/prog as if it ran under igprof linked with -rdynamic:

- one FN per call address: a definition's F offset is the address's
  offset in its object (address - dladdr's dli_fbase), its "+N" the
  address's offset into the function (address - dli_saddr);
- functions dladdr has no symbol for (static ones: cmp_uint, worker) are
  named "@?0x<runtime address>" with offset 0; prog is a PIE loaded at
  0x555555554000, libc at 0x7ffff7d8a000;
- each thread's buffer is dumped as its own tree, and counter ids start
  again for it (V0 in the first, V1 in the second for the same counter);
- a frame's counters are the stack ending there; lines with no counter
  are frames on the way.

The prog addresses are those of `objdump -d samples/recursion/prog`
(return addresses: the instruction after each call). The libc offsets
are made up but consistent.

cxx-mem.txt is a memory profile of samples/cxx/prog (offsets from `nm`),
whose C++ functions igprof names mangled, as dladdr() gives them, with
17 leaks from one stack and 3 from another, and a second thread's 2
from the first stack.

    python3 tests/inputs/igprof/make-inputs.py    (from the top directory)
"""
import bz2
import gzip
import os

HERE = os.path.dirname(os.path.abspath(__file__))
PROG = "./prog"
LIBC = "/lib/x86_64-linux-gnu/libc.so.6"
PROG_BASE = 0x555555554000
LIBC_BASE = 0x7FFFF7D8A000

# name -> (object, start offset, named by dladdr?)
FUNCS = {
    "__libc_start_call_main": (LIBC, 0x271C0, True),
    "start_thread": (LIBC, 0x88E80, True),
    "qsort": (LIBC, 0x3F2A0, True),
    "msort_with_tmp": (LIBC, 0x3EB30, False),   # static in libc
    "malloc": (LIBC, 0x9B6E0, True),
    "main": (PROG, 0x1333, True),
    "work": (PROG, 0x1243, True),
    "fib": (PROG, 0x118B, True),
    "even": (PROG, 0x11CE, True),
    "odd": (PROG, 0x11B6, True),
    "ring_a": (PROG, 0x1225, True),
    "ring_b": (PROG, 0x1207, True),
    "ring_c": (PROG, 0x11E9, True),
    "cmp_uint": (PROG, 0x1179, False),
    "worker": (PROG, 0x1302, False),
}


CXX = "./cxx"
LIBSTDCXX = "/lib/x86_64-linux-gnu/libstdc++.so.6"
CXX_FUNCS = {
    "__libc_start_call_main": (LIBC, 0x271C0, True),
    "malloc": (LIBC, 0x9B6E0, True),
    "_Znwm": (LIBSTDCXX, 0xAD0E0, True),     # operator new(unsigned long)
    "main": (CXX, 0x11D0, True),
    "_ZN6sample11make_pointsEi": (CXX, 0x1F00, True),
    "_ZNSt6vectorIN6sample5PointESaIS1_EE17_M_realloc_insertIJS1_EEEvN9__gnu_cxx17"
    "__normal_iteratorIPS1_S3_EEDpOT_": (CXX, 0x27D0, True),
}


def base_of(obj):
    return PROG_BASE if obj == PROG else LIBC_BASE


class Writer:
    def __init__(self, hexmode, funcs=None, prog=PROG):
        self.hex = hexmode
        self.funcs = funcs or FUNCS
        self.prog = prog
        self.fn_ids = {}      # (name, address offset) -> id
        self.file_ids = {}
        self.ctr_ids = {}     # per thread buffer
        self.lines = []

    def num(self, v):
        if self.hex:
            return ("-" if v < 0 else "") + format(abs(v), "x")
        return str(v)

    def frame(self, depth, name, at, counters=(), leaks=()):
        """at: offset of the frame's address into the function."""
        obj, start, named = self.funcs[name]
        objoff = start + at
        key = (name, objoff)
        out = "C%s " % self.num(depth)
        if key in self.fn_ids:
            out += "FN%s+%s" % (self.num(self.fn_ids[key]), self.num(at if named else 0))
        else:
            fid = self.fn_ids[key] = len(self.fn_ids)
            if obj in self.file_ids:
                f = "F%s" % self.num(self.file_ids[obj])
            else:
                self.file_ids[obj] = len(self.file_ids)
                f = "F%s=(%s)" % (self.num(self.file_ids[obj]), obj)
            sym = name if named else "@?0x%x" % (base_of(obj) + objoff)
            symoff = at if named else 0
            out += "FN%s=(%s+%s N=(%s))+%s" % (self.num(fid), f, self.num(objoff),
                                               sym, self.num(symoff))
        for i, (ctr, vals) in enumerate(counters):
            if ctr in self.ctr_ids:
                out += " V%s:" % self.num(self.ctr_ids[ctr])
            else:
                self.ctr_ids[ctr] = self.next_ctr
                self.next_ctr += 1
                out += " V%s=(%s):" % (self.num(self.ctr_ids[ctr]), ctr)
            out += "(%s)" % ",".join(self.num(v) for v in vals)
            if ctr == "MEM_LIVE":
                for addr, size in leaks:
                    out += ";LK=(0x%x,%s)" % (addr, self.num(size))
        self.lines.append(out)

    def thread(self):
        self.ctr_ids = {}

    def text(self, pid, tick):
        head = "P=(%sID=%s N=(%s) T=%f)" % ("HEX " if self.hex else "",
                                            self.num(pid), self.prog, tick)
        return "\n".join([head] + self.lines) + "\n"


def ticks(n):
    return [("PERF_TICKS", (n, n, n))]


def perf(w):
    """PERF_TICKS: recursion (fib), a 2-cycle (even/odd), a 3-cycle
    (ring_a/b/c), a callback through libc (qsort -> cmp_uint), and a
    second thread. The ticks per stack are in the comments' last column."""
    w.next_ctr = 0
    w.thread()
    F = w.frame
    F(1, "__libc_start_call_main", 0x8A)
    F(2, "main", 0x5D)                       # return from work()
    F(3, "work", 0x66, ticks(3))             # 3
    F(4, "qsort", 0x1C1)
    F(5, "msort_with_tmp", 0x2D1, ticks(4))  # 4
    F(6, "cmp_uint", 0x0, ticks(2))          # 2
    F(6, "msort_with_tmp", 0x2D1)            # libc's own recursion
    F(7, "msort_with_tmp", 0x2D1, ticks(5))  # 5
    F(8, "cmp_uint", 0x0, ticks(1))          # 1
    F(4, "fib", 0x12, ticks(1))              # 1   work -> fib
    F(5, "fib", 0x17, ticks(2))              # 2   fib -> fib (119d)
    F(6, "fib", 0x17, ticks(3))              # 3
    F(7, "fib", 0x21, ticks(4))              # 4   fib -> fib (11a7)
    F(5, "fib", 0x21, ticks(1))              # 1
    F(4, "even", 0x16)                       #     work -> even
    F(5, "odd", 0x0E, ticks(1))              # 1   even -> odd
    F(6, "even", 0x16)
    F(7, "odd", 0x0E, ticks(2))              # 2
    F(4, "odd", 0x0E)                        #     work -> odd
    F(5, "even", 0x16, ticks(1))             # 1
    F(4, "ring_a", 0x15)                     #     work -> ring_a
    F(5, "ring_b", 0x15)
    F(6, "ring_c", 0x15, ticks(1))           # 1
    F(7, "ring_a", 0x15)
    F(8, "ring_b", 0x15, ticks(2))           # 2
    F(3, "fib", 0x64, ticks(2))              # 2   main -> fib (1397)
    # the second thread: counters are numbered again
    w.thread()
    F(1, "start_thread", 0xD7)
    F(2, "worker", 0x13)                     # return from work()
    F(3, "work", 0x66, ticks(2))             # 2
    F(4, "fib", 0x12)
    F(5, "fib", 0x17, ticks(3))              # 3
    F(3, "fib", 0x1B, ticks(1))              # 1   worker -> fib (131d)


def mem(w):
    """MEM_TOTAL, MEM_LIVE, MEM_MAX: (allocations, bytes, largest) for
    TOTAL and MAX, (live allocations, live bytes, peak live bytes) for
    LIVE, whose live allocations at exit are the LK leak records."""
    w.next_ctr = 0
    w.thread()
    F = w.frame

    def m(n, total, largest, live_n, live, peak):
        return [("MEM_TOTAL", (n, total, 0)), ("MEM_LIVE", (live_n, live, peak)),
                ("MEM_MAX", (n, largest, largest))]

    F(1, "__libc_start_call_main", 0x8A)
    F(2, "main", 0x5D)
    F(3, "work", 0x66)
    F(4, "malloc", 0x4C, m(10, 4000, 800, 2, 1000, 2400),
      [(0x5555555592A0, 800), (0x555555559600, 200)])
    F(4, "fib", 0x12)
    F(5, "fib", 0x17)
    F(6, "malloc", 0x4C, m(3, 96, 32, 1, 32, 64), [(0x55555555A010, 32)])
    F(6, "fib", 0x17)
    F(7, "malloc", 0x4C, m(2, 64, 32, 0, 0, 32))
    F(4, "even", 0x16)
    F(5, "odd", 0x0E)
    F(6, "malloc", 0x4C, m(1, 16, 16, 1, 16, 16), [(0x55555555A100, 16)])
    F(3, "malloc", 0x4C, m(1, 1024, 1024, 1, 1024, 1024), [(0x55555555B000, 1024)])


def cxx_mem(w):
    """A C++ program's memory profile: the vector's growth leaks 17
    blocks from one stack, make_points 3 from another; a second thread
    leaks 2 more from the first stack (the same functions, written again
    in its own tree)."""
    w.next_ctr = 0
    w.thread()
    F = w.frame
    realloc = ("_ZNSt6vectorIN6sample5PointESaIS1_EE17_M_realloc_insertIJS1_EEEvN9"
               "__gnu_cxx17__normal_iteratorIPS1_S3_EEDpOT_")

    def m(n, total, live_n, live, peak):
        return [("MEM_TOTAL", (n, total, 0)), ("MEM_LIVE", (live_n, live, peak))]

    # the reader learns that the counters are memory counters from the
    # first definition (on malloc's line), before which an allocator
    # frame (operator new above malloc) would not be folded
    F(1, "__libc_start_call_main", 0x8A)
    F(2, "main", 0x4B)
    F(3, "_ZN6sample11make_pointsEi", 0x61)
    F(4, "malloc", 0x4C, m(3, 96, 3, 96, 96),
      [(0x55555556C000 + 0x20 * i, 32) for i in range(3)])
    F(4, realloc, 0x8F)
    F(5, "_Znwm", 0x1C)
    F(6, "malloc", 0x4C, m(20, 2560, 17, 1088, 1088),
      [(0x55555556B000 + 0x40 * i, 64) for i in range(17)])
    w.thread()
    F(1, "__libc_start_call_main", 0x8A)
    F(2, "main", 0x4B)
    F(3, "_ZN6sample11make_pointsEi", 0x61)
    F(4, realloc, 0x8F)
    F(5, "_Znwm", 0x1C)
    F(6, "malloc", 0x4C, m(2, 256, 2, 128, 128),
      [(0x55555556D000 + 0x40 * i, 64) for i in range(2)])


def main():
    files = {}
    for name, fn, hexmode, pid, tick in (("perf.txt", perf, False, 4242, 0.01),
                                         ("mem.txt", mem, False, 4243, 0.0),
                                         ("hex.txt", perf, True, 4244, 0.01)):
        w = Writer(hexmode)
        fn(w)
        files[name] = w.text(pid, tick)
    w = Writer(False, CXX_FUNCS, CXX)
    cxx_mem(w)
    files["cxx-mem.txt"] = w.text(4245, 0.0)
    for name, text in files.items():
        with open(os.path.join(HERE, name), "w") as f:
            f.write(text)
    data = files["perf.txt"].encode()
    with open(os.path.join(HERE, "perf.txt.gz"), "wb") as f:
        f.write(gzip.compress(data, mtime=0))
    with open(os.path.join(HERE, "perf.txt.bz2"), "wb") as f:
        f.write(bz2.compress(data))
    data = files["mem.txt"].encode()
    with open(os.path.join(HERE, "mem.txt.gz"), "wb") as f:
        f.write(gzip.compress(data, mtime=0))


main()
