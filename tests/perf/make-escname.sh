#!/bin/sh
# Make escname.data, as committed here: a recording (-F 99, small) of a
# process whose comm holds a terminal's escape sequence and a tab
# (escname.c). Run as root from the top of the tree:
#   sh tests/perf/make-escname.sh
# The e2e case perf-threads-escaped lists its threads.
set -e
out=$(pwd)/tests/perf
dir=/tmp/cganalyze-escname
rm -rf "$dir"
mkdir -p "$dir"
cd "$dir"
gcc -O1 -g -o escname "$out/escname.c"
perf record -q -F 99 -o escname.data ./escname
chmod 644 escname.data
cp escname.data "$out"
