#!/bin/sh
# Make deep, deep.prof and deep.heap, as committed here: stacks past
# gperftools' depth limits (deep.c). From the top of the tree, with gcc,
# libprofiler and tcmalloc: sh tests/gperf/make-deep.sh
#
#   deep.prof  CPUPROFILE of deep: stacks of 400-odd frames, cut to 253
#   deep.heap  HEAPPROFILE of deep heap, its last dump: stacks of 60-odd
#              frames, cut to 32
#
# The e2e cases gperf-deep-cpu and gperf-deep-heap: the warnings that
# say the stacks are at the limit.
set -e
top=$(pwd)
out=$top/tests/gperf
dir=/tmp/cganalyze-gperf-deep
lib=/usr/lib/x86_64-linux-gnu
rm -rf "$dir"
mkdir -p "$dir"
cp "$out/deep.c" "$dir"
cd "$dir"
gcc -O1 -g -fno-omit-frame-pointer -o deep deep.c
LD_PRELOAD=$lib/libprofiler.so.0 CPUPROFILE=deep.prof \
	CPUPROFILE_FREQUENCY=200 ./deep >/dev/null
LD_PRELOAD=$lib/libtcmalloc.so.4 HEAPPROFILE=$dir/deep \
	HEAP_PROFILE_ALLOCATION_INTERVAL=100000000 ./deep heap >/dev/null 2>&1
cp "$(ls deep.*.heap | tail -n 1)" deep.heap
cp deep deep.prof deep.heap "$out"
