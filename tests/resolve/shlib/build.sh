#!/bin/sh
# shlib: a shared library libwork.so and a program linked to it.
# Run from this directory.
set -eu
cd "$(dirname "$0")"

gcc -g -O2 -fPIC -shared -o libwork.so work.c
gcc -g -O2 -o prog main.c -L. -lwork -Wl,-rpath,'$ORIGIN'

# One profile of the program covers both objects.
log=${TMPDIR:-/tmp}/resolve-shlib.vglog
env -i PATH=/usr/bin:/bin valgrind --tool=callgrind --dump-instr=yes \
	--collect-jumps=yes --callgrind-out-file=callgrind.out \
	--trace-redir=yes --log-file="$log" ./prog >/dev/null
python3 ../addrs.py --profile callgrind.out --log "$log" --object prog prog
python3 ../addrs.py --profile callgrind.out --log "$log" --object libwork.so libwork.so
rm -f "$log"

for b in prog libwork.so; do
	addr2line -f -C -i -a -p -e $b < $b.addrs > $b.addr2line
	addr2line -f -C -a -p -e $b < $b.addrs > $b.addr2line-noinline
	llvm-symbolizer --obj=$b --output-style=GNU -f -C -i -a -p < $b.addrs > $b.llvm-symbolizer
done

# Where the two peers disagree: prog.peers-diff, libwork.so.peers-diff.
python3 ../compare.py prog
python3 ../compare.py libwork.so
