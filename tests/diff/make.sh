#!/bin/sh
# Makes the --diff test profiles: prog.c built in two checkouts (the
# second with -DSLOWER: checksum() makes three passes), each run under
# callgrind. Paths differ between the two, as between two machines or
# checkouts; --strip-path-prefix takes them off. Run from the top:
#   sh tests/diff/make.sh
set -e
out=$(pwd)/tests/diff
for v in base new; do
	d=/tmp/cganalyze-diff-$v
	rm -rf "$d" && mkdir -p "$d"
	cp "$out/prog.c" "$d/prog.c"
	flags=
	[ $v = new ] && flags=-DSLOWER
	(cd "$d" && gcc -g -O1 $flags -o prog "$d/prog.c" &&
	 valgrind --tool=callgrind --callgrind-out-file="$out/$v.cg" ./prog)
done
