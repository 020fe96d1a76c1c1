#!/bin/sh
# Makes the two-builds --diff test profiles: fib.c built -O0 into
# build-O0/fib and -O2 into build-O2/fib-O2 (two build directories of
# one checkout, compiled by its absolute path as CMake does: the source
# path is the same, the programs' paths and
# names differ), each run under callgrind and under perf record (frame
# pointers kept for perf's call graphs, as distributions now build). The
# small binaries are kept beside the profiles, for -b (matched by
# build-id: the tests run from any checkout); perf records user time
# alone (cpu-clock:u), so that no kernel symbols are needed. Run from the
# top:
#   sh tests/diff/builds/make.sh
set -e
out=$(pwd)/tests/diff/builds
d=/tmp/cganalyze-builds
rm -rf "$d" && mkdir -p "$d/src" "$d/build-O0" "$d/build-O2"
cp "$out/fib.c" "$d/src/fib.c"
rm -f "$out"/*.cg "$out"/*.data
(cd "$d/build-O0" && gcc -g -O0 -fno-omit-frame-pointer -o fib "$d/src/fib.c")
(cd "$d/build-O2" && gcc -g -O2 -fno-omit-frame-pointer -o fib-O2 "$d/src/fib.c")
for b in build-O0/fib build-O2/fib-O2; do
	name=$(basename "$b")
	(cd "$d" && valgrind --tool=callgrind \
		--callgrind-out-file="$out/$name.cg" "./$b" &&
	 perf record -q -e cpu-clock:u -F 999 -g -o "$out/$name.data" "./$b" 35 100000000)
	cp "$d/$b" "$out/$name"
done
