#!/bin/sh
# cxx-O2: C++ (templates, lambdas, std::sort, std::map, classes), -O2, PIE.
# Run from this directory.
set -eu
cd "$(dirname "$0")"

g++ -g -O2 -o prog prog.cc

log=${TMPDIR:-/tmp}/resolve-cxx-O2.vglog
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

# addr2line's answer for an address can depend on the addresses asked
# before it in the same run (README.md, "history"): ask for each address
# in a process of its own too, and keep what differs.
while read -r a; do addr2line -f -C -i -a -p -e prog "$a"; done < prog.addrs > prog.addr2line-solo
while read -r a; do addr2line -f -C -a -p -e prog "$a"; done < prog.addrs > prog.addr2line-noinline-solo
diff prog.addr2line prog.addr2line-solo > prog.addr2line-solo.diff || true
diff prog.addr2line-noinline prog.addr2line-noinline-solo > prog.addr2line-noinline-solo.diff || true
rm prog.addr2line-solo prog.addr2line-noinline-solo
