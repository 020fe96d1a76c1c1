#!/bin/sh
# Make jit.data, jit2.data and jit as committed here, and the map it wrote under
# tests/perf/sysroot (tmp/perf-PID.map; tmp/cganalyze-jit/jit a link): a
# program running code it made in anonymous memory and named in
# /tmp/perf-PID.map, as a JIT does (jit.c). User samples only
# (cpu-clock:u), -F 499: no kernel frames, a small file. Run as root
# from the top of the tree:
#   sh tests/perf/make-jit.sh
set -e
top=$(pwd)
out=$top/tests/perf
dir=/tmp/cganalyze-jit
rm -rf "$dir"
mkdir -p "$dir"
cd "$dir"
cp "$out/jit.c" .
gcc -O2 -g -fno-omit-frame-pointer -o jit jit.c
rm -f "$out"/sysroot/tmp/perf-*.map
mkdir -p "$out/sysroot/tmp/cganalyze-jit"
cp jit "$out/"
ln -sf ../../../jit "$out/sysroot/tmp/cganalyze-jit/jit"
# two runs, two pids: jit2.data is the other side of e2e perf-jit-diff
for f in jit.data jit2.data; do
	perf record -q -e cpu-clock:u -F 499 -g -o $f ./jit
	chmod 644 $f
	pid=$(perf script -i $f -F pid 2>/dev/null | head -1 | tr -d ' ')
	cp "/tmp/perf-$pid.map" "$out/sysroot/tmp/"
	rm -f "/tmp/perf-$pid.map"
	cp $f "$out"
done
