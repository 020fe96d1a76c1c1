# -o FILE: never a listing over the profile it reads, never anything
# over a -b binary; --output=callgrind may rewrite its input (it is that
# profile again); a missing directory is named as such. On copies in a
# scratch directory, so that a regression cannot touch the samples.
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "output-file: $*"; status=1; }
cp samples/hello/callgrind.out "$tmp/prof.out"
cp samples/hello/prog "$tmp/prog"

for args in "-p --brief" "--json" "--annotate"; do
	# shellcheck disable=SC2086
	"$bin" $args -o "$tmp/prof.out" "$tmp/prof.out" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 2 ] || fail "$args -o INPUT INPUT: exit $rc, not 2"
	cmp -s "$tmp/prof.out" samples/hello/callgrind.out ||
		fail "$args -o INPUT INPUT changed the profile"
	grep -q "^cganalyze: -o '$tmp/prof.out' is the input '$tmp/prof.out': the listing would replace the profile; write it elsewhere" "$tmp/err" ||
		fail "$args -o INPUT INPUT: $(cat "$tmp/err")"
done

# the same file by another name is the same file
ln "$tmp/prof.out" "$tmp/link.out"
"$bin" -p --brief -o "$tmp/link.out" "$tmp/prof.out" >/dev/null 2>&1
[ $? -eq 2 ] || fail "-o a hard link of the input was not refused"

"$bin" -p --brief -b "$tmp/prog" -o "$tmp/prog" "$tmp/prof.out" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] || fail "-o the -b binary was not refused"
cmp -s "$tmp/prog" samples/hello/prog || fail "-o the -b binary changed it"
grep -q "is the binary given with -b" "$tmp/err" || fail "-o BINARY: $(cat "$tmp/err")"

# a Callgrind file may replace the profile it was read from
"$bin" --output=callgrind -o "$tmp/prof.out" "$tmp/prof.out" 2>"$tmp/err" ||
	fail "--output=callgrind -o INPUT INPUT failed: $(cat "$tmp/err")"
head -n 1 "$tmp/prof.out" | grep -q '^# callgrind format' ||
	fail "--output=callgrind -o INPUT INPUT wrote no Callgrind file"

"$bin" -p --brief -o "$tmp/no-such-dir/x" samples/hello/callgrind.out 2>"$tmp/err"
[ $? -eq 1 ] || fail "-o into a missing directory: not exit 1"
grep -q "^cganalyze: cannot create '$tmp/no-such-dir/x': the directory '$tmp/no-such-dir' does not exist$" "$tmp/err" ||
	fail "-o into a missing directory: $(cat "$tmp/err")"
# -o - is standard output, as an input - is standard input (it wrote a
# file named '-' in the working directory)
abs_bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
(cd "$tmp" && "$abs_bin" --json -o - prof.out >stdout.json 2>/dev/null) ||
	fail "-o -: failed"
[ -e "$tmp/-" ] && fail "-o - wrote a file named '-'"
head -c 1 "$tmp/stdout.json" | grep -q '{' || fail "-o -: no JSON on stdout"

# a full device: every output format fails with exit 1 and says so, to
# -o and to standard output (pprof's gzip'd data is written in blocks
# of 64 KiB, the first of which failed with nothing said: exit 0)
if [ -w /dev/full ]; then
	for out in text json callgrind folded pprof html; do
		"$bin" --output=$out -o /dev/full samples/cxx/callgrind.out \
			>/dev/null 2>"$tmp/err"
		rc=$?
		[ "$rc" -eq 1 ] || fail "--output=$out -o /dev/full: exit $rc, not 1"
		grep -q "No space left on device" "$tmp/err" ||
			fail "--output=$out -o /dev/full: $(cat "$tmp/err")"
		[ "$out" = html ] && continue	# -o only
		"$bin" --output=$out samples/cxx/callgrind.out >/dev/full \
			2>"$tmp/err"
		rc=$?
		[ "$rc" -eq 1 ] || fail "--output=$out >/dev/full: exit $rc, not 1"
	done
fi

# --output=html and pprof to a terminal: refused before reading, with
# the -o to give; through a pipe the page is written (script(1) gives a
# pseudo-terminal); "-" read from a terminal is refused too
if command -v script >/dev/null 2>&1; then
	for out in html pprof; do
		script -qec "'$bin' --output=$out samples/hello/callgrind.out" \
			/dev/null </dev/null >"$tmp/tty"
		rc=$?
		[ "$rc" -eq 2 ] || fail "--output=$out to a terminal: exit $rc, not 2"
		grep -q "^cganalyze: --output=$out writes .*, not for a terminal: give -o FILE" "$tmp/tty" ||
			fail "--output=$out to a terminal: $(head -c 300 "$tmp/tty")"
		grep -q "DOCTYPE" "$tmp/tty" && fail "--output=$out: a page on the terminal"
	done
	script -qec "'$bin' --output=html samples/hello/callgrind.out | head -c 15" \
		/dev/null </dev/null >"$tmp/tty"
	grep -q "<!DOCTYPE html>" "$tmp/tty" ||
		fail "--output=html through a pipe on a terminal: $(head -c 300 "$tmp/tty")"
	# "-" with standard input a terminal: refused, not a wait for input
	script -qec "'$bin' -p -" /dev/null </dev/null >"$tmp/tty"
	rc=$?
	[ "$rc" -eq 2 ] || fail "- on a terminal: exit $rc, not 2"
	grep -q "^cganalyze: '-' reads the profile from standard input, which is a terminal" "$tmp/tty" ||
		fail "- on a terminal: $(head -c 300 "$tmp/tty")"
fi
exit $status
