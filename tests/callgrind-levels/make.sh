#!/bin/sh
# Make the Callgrind profiles of recursion levels from levels.c, as
# committed here. Run from the top of the tree:
#   sh tests/callgrind-levels/make.sh
# (valgrind 3.19 and gcc 12 made the committed ones; valgrind's files as
# it wrote them but for their names):
#
#   recs2.out  --separate-recs=2 (valgrind's default): walk'2, even'2,
#              odd'2, ring_a'2 ... beside walk, even, odd, ring_a
#   recs4.out  --separate-recs=4: levels up to '4
#
# The program is built in /tmp/cganalyze-cglevels (made anew) at -O1
# with -fno-optimize-sibling-calls, so that every recursive call is a
# call (a tail call would not make a level).
set -e
top=$(pwd)
out=$top/tests/callgrind-levels
tmp=/tmp/cganalyze-cglevels
rm -rf "$tmp"
mkdir -p "$tmp"
cp "$out/levels.c" "$tmp/"
cd "$tmp"
gcc -g -O1 -fno-optimize-sibling-calls -fno-inline -o levels levels.c
for n in 2 4; do
	valgrind --tool=callgrind --separate-recs=$n \
		--callgrind-out-file="$tmp/recs$n.out" ./levels >/dev/null
	cp "recs$n.out" "$out/"
done
cp levels "$out/levels"
