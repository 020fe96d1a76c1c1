#!/bin/sh
# stripped: the c-pie binary with no symbols at all and its DWARF and
# symbols in prog.debug beside it, found through .gnu_debuglink.
# Build c-pie first. The DWARF names the sources as in ../c-pie (they
# are in ../src-c).
# Run from this directory.
set -eu
cd "$(dirname "$0")"

cp ../c-pie/prog prog.full
objcopy --only-keep-debug prog.full prog.debug
strip --strip-all -o prog prog.full
objcopy --add-gnu-debuglink=prog.debug prog
rm prog.full

log=${TMPDIR:-/tmp}/resolve-stripped.vglog
env -i PATH=/usr/bin:/bin valgrind --tool=callgrind --dump-instr=yes \
	--collect-jumps=yes --callgrind-out-file=callgrind.out \
	--trace-redir=yes --log-file="$log" ./prog >/dev/null
# prog has no symbols left: the edge addresses come from the unstripped
# ../c-pie/prog, so that prog.addrs is the same as c-pie's.
python3 ../addrs.py --profile callgrind.out --log "$log" --object prog \
	--symbols ../c-pie/prog prog
rm -f "$log"

# Both follow .gnu_debuglink from prog: addr2line for DWARF and symbols,
# llvm-symbolizer for DWARF only (README.md).
addr2line -f -C -i -a -p -e prog < prog.addrs > prog.addr2line
addr2line -f -C -a -p -e prog < prog.addrs > prog.addr2line-noinline
llvm-symbolizer --obj=prog --output-style=GNU -f -C -i -a -p < prog.addrs > prog.llvm-symbolizer

# Where the two peers disagree: prog.peers-diff.
python3 ../compare.py prog
