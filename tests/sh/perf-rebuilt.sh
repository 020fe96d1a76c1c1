# A perf.data that records no build-id (perf record -z), of a program
# whose stacks hold no return address to check (frame-pointer chains
# through -O2 code: tests/perf/nofp.data): a binary at the recorded
# path, or given with -b, that was changed after the recording is said
# to be maybe another build, whose names would be wrong; one older than
# the recording is taken without a word. Before, a rebuilt binary's
# symbols named the samples silently (__GNU_EH_FRAME_HDR among them).
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "perf-rebuilt: $*"; status=1; }
want="changed after the recording, which holds no build-id of '/tmp/cganalyze-nofp/nofp'"

cp tests/perf/nofp tests/perf/nofp.data "$tmp/"
touch -d @1700000000 "$tmp/nofp.data"

touch -d @1600000000 "$tmp/nofp"
"$bin" --brief -b "$tmp/nofp" "$tmp/nofp.data" >/dev/null 2>"$tmp/err" ||
	fail "an older binary: failed: $(cat "$tmp/err")"
grep -q "changed after the recording" "$tmp/err" &&
	fail "an older binary was said to be changed: $(cat "$tmp/err")"

touch -d @1800000000 "$tmp/nofp"
"$bin" --brief -b "$tmp/nofp" "$tmp/nofp.data" >/dev/null 2>"$tmp/err" ||
	fail "a newer binary: failed: $(cat "$tmp/err")"
grep -q "^cganalyze: warning: $tmp/nofp: $want and no return address in it to check" "$tmp/err" ||
	fail "a newer binary given with -b: not said: $(cat "$tmp/err")"

# found at the recorded path, under --sysroot
mkdir -p "$tmp/root/tmp/cganalyze-nofp"
cp -p "$tmp/nofp" "$tmp/root/tmp/cganalyze-nofp/nofp"
"$bin" --brief --sysroot="$tmp/root" "$tmp/nofp.data" >/dev/null 2>"$tmp/err" ||
	fail "--sysroot: failed: $(cat "$tmp/err")"
grep -q "^cganalyze: warning: $tmp/root/tmp/cganalyze-nofp/nofp: $want" "$tmp/err" ||
	fail "a newer binary at the recorded path: not said: $(cat "$tmp/err")"
exit $status
