#!/bin/sh
# Make pid-prog.data and pid-nofp.data, as committed here: recordings of
# running processes (perf record -p PID -- sleep 0.5), whose command
# lines name no program but sleep; perf's comm of the processes says
# which (prog, whose second thread is named spinner, and nofp). Run as
# root from the top of the tree, after make.sh and make-nofp.sh:
#   sh tests/perf/make-pid.sh
# -z and -F 99 keep them small. The e2e cases perf-pid-* add them up.
set -e
top=$(pwd)
out=$top/tests/perf
dir=/tmp/cganalyze-pid
rm -rf "$dir"
mkdir -p "$dir"
cp "$out/prog" "$out/libwork.so" "$out/nofp" "$dir"
cd "$dir"
record() {		# record NAME PROGRAM ARGS...
	name=$1
	shift
	"$@" >/dev/null &
	pid=$!
	sleep 0.3
	perf record -q -z -F 99 -g -o "$name.data" -p "$pid" -- sleep 0.5
	kill "$pid" 2>/dev/null || true
	wait "$pid" || true
	chmod 644 "$name.data"
	cp "$name.data" "$out"
}
record pid-prog ./prog 300000000
record pid-nofp ./nofp 50000
