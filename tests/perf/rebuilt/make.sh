#!/bin/sh
# As root, with perf and gcc: prog.c built -O2 -fno-omit-frame-pointer in
# /tmp/cganalyze-rebuilt and recorded in pipe mode (perf record -g -o -:
# no build-ids), then rebuilt with one more statement in leaf (REBUILT:
# a printf that never runs), which moves leaf's code 0x10 and cmp, work
# and sorter after it, but not main (.text.startup). prog is the build
# that ran, prog-rebuilt the other; tests/sh/perf-rebuilt-pipe.sh.
set -e
here=$(cd "$(dirname "$0")" && pwd)
dir=/tmp/cganalyze-rebuilt
rm -rf "$dir"
mkdir -p "$dir"
cp "$here/prog.c" "$dir/"
cd "$dir"
gcc -O2 -g -fno-omit-frame-pointer -o prog prog.c
perf record -q -g -o - ./prog 30000 2>/dev/null >pipe.data
gcc -O2 -g -fno-omit-frame-pointer -DREBUILT -o prog-rebuilt prog.c
cp prog prog-rebuilt pipe.data "$here/"
