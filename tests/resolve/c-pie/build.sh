#!/bin/sh
# c-pie: the C source in ../src-c (shared with c-nopie and nodwarf), -O2,
# PIE (the default here). Run from this directory.
set -eu
cd "$(dirname "$0")"

# -fdebug-prefix-map: the DWARF names the files as if they were in this
# directory (comp_dir this directory, then prog.c, ops.c, util.h, ops.h),
# as when each case had a copy of the source, so the binary did not change
# when the copies became one. No source is at those paths: an annotated
# listing wants -I ../src-c (README.md).
gcc -g -O2 -fdebug-prefix-map=../src-c/= -o prog ../src-c/prog.c ../src-c/ops.c

# The profile; --trace-redir=yes only adds the load addresses to the log
# (addrs.py needs them for code valgrind files under ob=???).
log=${TMPDIR:-/tmp}/resolve-c-pie.vglog
env -i PATH=/usr/bin:/bin valgrind --tool=callgrind --dump-instr=yes \
	--collect-jumps=yes --callgrind-out-file=callgrind.out \
	--trace-redir=yes --log-file="$log" ./prog >/dev/null
python3 ../addrs.py --profile callgrind.out --log "$log" --object prog prog
rm -f "$log"

addr2line -f -C -i -a -p -e prog < prog.addrs > prog.addr2line
addr2line -f -C -a -p -e prog < prog.addrs > prog.addr2line-noinline
llvm-symbolizer --obj=prog --output-style=GNU -f -C -i -a -p < prog.addrs > prog.llvm-symbolizer

# Where the two peers disagree: prog.peers-diff.
python3 ../compare.py prog
