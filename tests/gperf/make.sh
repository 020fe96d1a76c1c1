#!/bin/sh
# Make the gperftools test profiles and pprof's answers for them, as
# committed here. From the top of the tree: sh tests/gperf/make.sh
# Needs gcc, g++, libprofiler and tcmalloc (google-perftools,
# libgoogle-perftools-dev) and google-pprof; go tool pprof when there.
#
# The programs are built and run in /tmp/cganalyze-gperf, the path the
# profiles' mappings name (the tests give -b, matched by file name, so
# they run from any checkout). libprofiler and tcmalloc are preloaded,
# so the binaries do not depend on them.
#
#   prog.prof        CPUPROFILE of prog (prog.c, PIE, with libgwork.so)
#   prog-nopie.prof  the same program built -no-pie
#   cxx.prof         CPUPROFILE of cxx (cxx.cc, C++ -O1, PIE)
#   heap.NNNN.heap   HEAPPROFILE of heap (heap.c) with tcmalloc: the
#                    dumps it wrote, the last at exit
#
# Beside each: NAME.pprof, google-pprof --text (flat and cumulative
# for the heap, heap.inuse and heap.alloc (go tool pprof -top
# -nodecount=0 -unit=B, in bytes where google-pprof prints MB), the
# same for heap-v2.heap, and heap.inuse-objects (google-pprof --text
# --inuse_objects). go tool pprof (Go 1.19 here) is no peer for the CPU
# profiles: it leaves the main program's code unnamed ("[prog]", its
# flat the sum of the program's functions); it names the heap's.
set -e
top=$(pwd)
out=$top/tests/gperf
dir=/tmp/cganalyze-gperf
lib=/usr/lib/x86_64-linux-gnu
rm -rf "$dir"
mkdir -p "$dir"
cp "$out/prog.c" "$out/gwork.c" "$out/cxx.cc" "$out/heap.c" "$dir"
cd "$dir"
fp="-g -fno-omit-frame-pointer"
gcc -O0 $fp -fPIC -shared -o libgwork.so gwork.c
gcc -O0 $fp -fPIE -pie -o prog prog.c -L. -lgwork -Wl,-rpath,'$ORIGIN'
gcc -O0 $fp -fno-pie -no-pie -o prog-nopie prog.c -L. -lgwork \
	-Wl,-rpath,'$ORIGIN'
g++ -O1 $fp -fPIE -pie -o cxx cxx.cc
gcc -O0 $fp -o heap heap.c

# 1000 samples a second: enough samples in a short run
export CPUPROFILE_FREQUENCY=1000
CPUPROFILE=prog.prof LD_PRELOAD=$lib/libprofiler.so ./prog 100000000
CPUPROFILE=prog-nopie.prof LD_PRELOAD=$lib/libprofiler.so ./prog-nopie \
	100000000
CPUPROFILE=cxx.prof LD_PRELOAD=$lib/libprofiler.so ./cxx 60000000
HEAPPROFILE=$dir/heap HEAP_PROFILE_ALLOCATION_INTERVAL=8000000 \
	LD_PRELOAD=$lib/libtcmalloc.so ./heap

for p in prog prog-nopie cxx; do
	google-pprof --text "./$p" "$p.prof" > "$p.pprof" 2>/dev/null
done
last=$(ls heap.*.heap | tail -1)
# the same records as a sampled profile (tcmalloc's sampling writes
# "@ heap_v2/RATE"): pprof scales each record up by its chance of being
# sampled; heap.0003.heap's blocks of 100 kB at a rate of 1 MB are
# scaled by about 10.5, its 500 kB blocks by about 2.6
sed '1s|@ heapprofile|@ heap_v2/1048576|' "$last" > heap-v2.heap
export HOME=${HOME:-/tmp}
gotop() {
	go tool pprof -top -nodecount=0 -unit=B -sample_index="$1" ./heap \
		"$2" 2>/dev/null
}
if command -v go > /dev/null; then
	gotop inuse_space "$last" > heap.inuse
	gotop alloc_space "$last" > heap.alloc
	gotop inuse_space heap-v2.heap > heap-v2.inuse
	gotop alloc_space heap-v2.heap > heap-v2.alloc
fi
google-pprof --text --inuse_objects ./heap "$last" > heap.inuse-objects \
	2>/dev/null
rm -f "$out"/*.prof "$out"/*.heap
cp prog prog-nopie libgwork.so cxx heap ./*.prof ./*.heap ./*.pprof* heap*.inuse heap*.alloc \
	heap.inuse-objects "$out"
