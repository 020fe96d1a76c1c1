# The progress line on a terminal (a pseudo-terminal from script(1)), and
# its absence everywhere else. The drawing itself, its rate and the
# shortened paths are unit-tested (tests/test_progress.c); this checks
# that the real binary draws and erases it on a terminal only.
bin=$1
command -v script >/dev/null 2>&1 || { echo "script (util-linux) is not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "progress-tty: $*"; status=1; }
plain=samples/recursion/callgrind.instr.out
gz=samples/recursion/callgrind.instr.out.gz

# Run "$@" on a pseudo-terminal; stdout to $tmp/out, the terminal's
# output (standard error) to $tmp/tty, as it came ("\n" is "\r\n").
on_tty() {
	cmd="$bin"
	for a in "$@"; do cmd="$cmd '$a'"; done
	script -qec "$cmd >'$tmp/out'" /dev/null </dev/null >"$tmp/tty"
	echo $? >"$tmp/status"
}

"$bin" --brief "$plain" >"$tmp/want" 2>"$tmp/err" || fail "plain run failed"
[ -s "$tmp/err" ] && fail "plain run wrote to stderr: $(cat "$tmp/err")"

# delay 0: the first block read draws the line, the end erases it
size=$(($(wc -c <"$plain") / 1000))
line="cganalyze: reading $plain: 100% ($size of $size kB)"
blanks=$(printf '%*s' ${#line} '')
CGANALYZE_PROGRESS_DELAY=0 on_tty --brief "$plain"
[ "$(cat "$tmp/status")" = 0 ] || fail "exit status $(cat "$tmp/status") on a tty"
printf '\r%s\r%s\r' "$line" "$blanks" >"$tmp/expect"
cmp -s "$tmp/tty" "$tmp/expect" ||
	fail "on a tty, expected the line drawn and erased:
$(od -c "$tmp/expect" | head -8)
got:
$(od -c "$tmp/tty" | head -8)"
cmp -s "$tmp/out" "$tmp/want" || fail "standard output differs on a tty"

# compressed: the compressed bytes are counted
size=$(($(wc -c <"$gz") / 1000))
CGANALYZE_PROGRESS_DELAY=0 on_tty --brief "$gz"
grep -q "reading $gz: 100% ($size of $size kB)" "$tmp/tty" ||
	fail "gzip input: no progress in compressed bytes: $(od -c "$tmp/tty" | head -4)"

# not a terminal: nothing, whatever the delay
CGANALYZE_PROGRESS_DELAY=0 "$bin" --brief "$plain" >"$tmp/out" 2>"$tmp/err"
[ -s "$tmp/err" ] && fail "stderr not a tty, yet: $(od -c "$tmp/err" | head -4)"

# --no-progress on a terminal: nothing
CGANALYZE_PROGRESS_DELAY=0 on_tty --no-progress --brief "$plain"
[ -s "$tmp/tty" ] && fail "--no-progress on a tty, yet: $(od -c "$tmp/tty" | head -4)"

# the default delay (1 s): a quick load shows nothing
unset CGANALYZE_PROGRESS_DELAY
on_tty --brief "$plain"
[ -s "$tmp/tty" ] && fail "a quick load drew a line: $(od -c "$tmp/tty" | head -4)"

# a pipe has no known size: nothing
CGANALYZE_PROGRESS_DELAY=0 script -qec "cat '$plain' | $bin --brief - >'$tmp/out'" /dev/null </dev/null >"$tmp/tty"
[ -s "$tmp/tty" ] && fail "a pipe drew a line: $(od -c "$tmp/tty" | head -4)"

# a bad delay is said once, and the default is used
CGANALYZE_PROGRESS_DELAY=soon on_tty --brief "$plain"
grep -q "^cganalyze: warning: CGANALYZE_PROGRESS_DELAY wants seconds from 0 to 3600, not 'soon'; using 1" "$tmp/tty" ||
	fail "CGANALYZE_PROGRESS_DELAY=soon: $(cat "$tmp/tty")"
exit $status
