#!/bin/sh
# Make nofp and nofp.data, as committed here. Run as root from the top
# of the tree:
#   sh tests/perf/make-nofp.sh
#
#   nofp       nofp.c built -O2: no frame pointers (gcc's default there)
#   nofp.data  perf record -z -F 499 -g: frame-pointer call chains through
#              code that keeps none, so most end at an address in no
#              mapping (the e2e case perf-nofp: the warning that says so);
#              -z, so that it records no build-ids (perf turns their
#              collection off when compressing), and with most stacks a
#              sampled function alone, no return address tells another
#              build of nofp from this one (tests/sh/perf-rebuilt.sh)
set -e
top=$(pwd)
out=$top/tests/perf
dir=/tmp/cganalyze-nofp
mkdir -p "$dir"
cd "$dir"
cp "$out/nofp.c" .
gcc -O2 -g -o nofp nofp.c
perf record -q -z -F 499 -g -o nofp.data ./nofp 2000 >/dev/null
chmod 644 nofp.data
cp nofp nofp.data "$out"
