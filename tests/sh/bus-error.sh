#!/bin/sh
# A bus error (SIGBUS: a page of a mapped file past its end, as when a
# profile or a binary is truncated by another program while cganalyze
# reads it through a mapping) is said as that on stderr, with status 1,
# not left to the shell's "Bus error" (cli/main.c's handler). A real
# one needs the file cut at the right instant; the signal is sent here
# to a run waiting for its profile on a pipe. The file cut before it is
# mapped, or while a perf.data's records are read, is said by the
# readers themselves (tests/test_line_reader.c's test_map_shrunk).
bin=$1
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
tmp=$(mktemp -d)
status=0
fail() { echo "FAIL: $*"; status=1; }
mkfifo "$tmp/fifo"
# the writer holds the pipe open and writes nothing
sleep 30 >"$tmp/fifo" &
writer=$!
"$bin" --no-progress - <"$tmp/fifo" >"$tmp/out" 2>"$tmp/err" &
run=$!
sleep 1
kill -BUS $run
wait $run
rc=$?
kill $writer 2>/dev/null
wait $writer 2>/dev/null
[ "$rc" = 1 ] || fail "status $rc after SIGBUS, not 1"
grep -q '^cganalyze: .*cut short while it was read' "$tmp/err" ||
	fail "stderr: $(cat "$tmp/err")"
[ -s "$tmp/out" ] && fail "stdout not empty: $(cat "$tmp/out")"
rm -rf "$tmp"
exit $status
