#!/bin/sh
# Make renamer, renamer.data and pid-renamer.data, as committed here: a
# program that renames its main thread to srv-main, recorded as a command
# (perf record ./renamer) and running (perf record -p PID -- sleep 0.5,
# after the rename): the e2e case perf-pid-renamed adds them up, one
# program by its executable mapping whatever the command names. Run as
# root from the top of the tree:
#   sh tests/perf/make-renamer.sh
# -z and -F 99 keep them small.
set -e
top=$(pwd)
out=$top/tests/perf
dir=/tmp/cganalyze-renamer
rm -rf "$dir"
mkdir -p "$dir"
cd "$dir"
cp "$out/renamer.c" .
gcc -O2 -g -fno-omit-frame-pointer -o renamer renamer.c
perf record -q -z -F 99 -g -o renamer.data ./renamer 300000000 >/dev/null
./renamer 3000000000 >/dev/null &
pid=$!
sleep 0.3
perf record -q -z -F 99 -g -o pid-renamer.data -p "$pid" -- sleep 0.5
kill "$pid" 2>/dev/null || true
wait "$pid" || true
chmod 644 renamer.data pid-renamer.data
cp renamer renamer.data pid-renamer.data "$out"
