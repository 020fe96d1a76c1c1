#!/bin/sh
# Make the recordings of the --threads and --time tests and perf's
# answers for them, as committed here. Run as root from the top of the
# tree, after make.sh or with its committed prog and libwork.so (copied,
# not rebuilt, so their build-ids are the ones the other recordings
# name):  sh tests/perf/make-threads.sh
#
#   procs.data   perf record -F 499 -g of two prog runs at once (two
#                processes of two threads each, prog and spinner)
#   notime.data  perf record -e cpu-clock/time=0/: samples without their
#                time, which --time refuses
#
# The answers, perf report --sort pid -n (perf 6.1's pid key is the
# thread: "tid:command") with -F overhead,period,sample,pid:
#   procs.threads          the whole recording
#   procs.time-A-B         --time A%-B% (0-50, 50-100)
#   procs.time-10-3        --time 10%/3
#   procs.time-abs         --time FIRST+0.15,FIRST+0.35 in recorded
#                          seconds, the same stretch as the tests'
#                          --time=+0.15,+0.35 (FIRST: the first
#                          sample's time, perf script's first line)
#   two.threads            two.data (make.sh), two events
set -e
top=$(pwd)
out=$top/tests/perf
dir=/tmp/cganalyze-perf
mkdir -p "$dir"
cp "$out/prog" "$out/libwork.so" "$out/two.data" "$dir"
cd "$dir"
perf record -q -F 499 -g -o procs.data -- \
	sh -c './prog 8000000 & ./prog 8000000; wait'
perf record -q -F 99 -e cpu-clock/time=0/ -o notime.data ./prog 2000000
chmod 644 procs.data notime.data
cp procs.data notime.data "$out"

threads() {
	f=$1
	shift
	perf report -i "$f" --sort pid -n --no-children -g none --stdio \
		-F overhead,period,sample,pid "$@" 2>/dev/null |
		sed '1,2d; /Tip:/d'
}
threads procs.data >"$out/procs.threads"
threads two.data >"$out/two.threads"
threads procs.data --time 0%-50% >"$out/procs.time-0-50"
threads procs.data --time 50%-100% >"$out/procs.time-50-100"
threads procs.data --time 10%/3 >"$out/procs.time-10-3"
first=$(perf script -i procs.data -F time 2>/dev/null | head -1 | tr -d ' :')
range=$(awk -v f="$first" 'BEGIN { printf "%.6f,%.6f", f + 0.15, f + 0.35 }')
echo "# --time $range" >"$out/procs.time-abs"
threads procs.data --time "$range" >>"$out/procs.time-abs"
