# A pipe-mode perf.data (no build-ids) read with the program rebuilt
# since at its recorded path (tests/perf/rebuilt/make.sh): leaf's code
# moved 0x10, and with it cmp, work and sorter, but not main. Return
# addresses are what tells builds apart there, and the stacks have two
# in prog, both main's, which follow a call in either build: the check
# took the rebuilt file for the build that ran, and cmp's samples were
# named leaf without a word (perf report 6.1 names them so too). A file
# newer than the recording with fewer than 8 return addresses to check
# (or some following no call) is now said to be maybe another build,
# the build that ran too when newer (the two cannot be told apart
# here); the build that ran, older than the recording, is not.
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "perf-rebuilt-pipe: $*"; status=1; }
d=tests/perf/rebuilt
mkdir -p "$tmp/root/tmp/cganalyze-rebuilt"
cp "$d/pipe.data" "$tmp/"
touch -d @1700000000 "$tmp/pipe.data"
at=$tmp/root/tmp/cganalyze-rebuilt/prog
want="^cganalyze: warning: $at: changed after the recording, which holds no build-id of '/tmp/cganalyze-rebuilt/prog' and only 2 return addresses in it to check (each follows a call)"

run() {
	"$bin" -p --brief --threshold=0 --sysroot="$tmp/root" "$tmp/pipe.data" \
		>"$tmp/out" 2>"$tmp/err" || fail "$1: failed: $(cat "$tmp/err")"
}
cp "$d/prog-rebuilt" "$at"
touch -d @1800000000 "$at"
run rebuilt
grep -q "$want" "$tmp/err" || fail "rebuilt: not said: $(cat "$tmp/err")"


cp "$d/prog" "$at"
touch -d @1600000000 "$at"
run "the build that ran"
grep -q 'changed after the recording' "$tmp/err" &&
	fail "the build that ran was said to be another: $(cat "$tmp/err")"
grep -q '  cmp$' "$tmp/out" || fail "the build that ran: no cmp: $(cat "$tmp/out")"
exit $status
