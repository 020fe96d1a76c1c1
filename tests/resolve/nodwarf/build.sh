#!/bin/sh
# nodwarf: the C source in ../src-c (shared with c-pie and c-nopie), -O2,
# PIE, without -g: ELF symbols only (the same code as c-pie). Run from
# this directory.
set -eu
cd "$(dirname "$0")"

# No DWARF to name the files; the STT_FILE symbols are the bare prog.c
# and ops.c wherever the source is.
gcc -O2 -o prog ../src-c/prog.c ../src-c/ops.c

log=${TMPDIR:-/tmp}/resolve-nodwarf.vglog
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
