#!/bin/sh
# make.sh - make the README walkthrough's binaries and profiles again,
# with the README's commands, in /tmp/walkthrough (the directory the
# profiles and the binaries' DWARF name), then copy them here. For
# humans, not CI: the numbers depend on the toolchain (gcc 12.2.0,
# valgrind 3.19.0, glibc 2.36 on Debian 12 when last run).
#
# Usage: sh samples/walkthrough/make.sh
set -eu
S=$(cd "$(dirname "$0")" && pwd)
W=/tmp/walkthrough
rm -rf "$W"
mkdir -p "$W"
cp "$S/prog.c" "$W/"
cd "$W"
# the same small environment for every run: instruction counts depend
# on its size (the stack's layout)
run() { env -i PATH=/usr/bin:/bin "$@"; }

gcc -g -O2 -o prog prog.c
run valgrind --tool=callgrind --dump-instr=yes --collect-jumps=yes ./prog \
	>prog.stdout 2>valgrind.log
mv callgrind.out.* callgrind.out

# gprof's way: a clock sample every 10 ms, so more rounds
gcc -g -O2 -pg -o prog-pg prog.c
run ./prog-pg 1000 >prog-pg.stdout

cp prog callgrind.out prog-pg gmon.out "$S/"
echo "made in $W and copied to $S"
