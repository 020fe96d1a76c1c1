# --disasm without -b takes the object the profile records, when that
# file is there (as perf annotate does), says so, and lists what -b with
# that file lists; when it is not there, the error says to give -b. The
# recorded path is made to point into a scratch directory.
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "disasm-recorded: $*"; status=1; }
prof=samples/recursion/callgrind.instr.out
cp samples/recursion/prog "$tmp/prog"
sed "s|^ob=(\([0-9]*\)) .*/recursion/prog\$|ob=(\1) $tmp/prog|" "$prof" >"$tmp/prof.out"
grep -q "^ob=([0-9]*) $tmp/prog\$" "$tmp/prof.out" || { echo "could not point the profile at $tmp/prog"; exit 1; }

"$bin" --disasm=fib -b "$tmp/prog" "$tmp/prof.out" >"$tmp/want" 2>/dev/null ||
	{ echo "--disasm=fib -b failed"; exit 1; }
"$bin" --disasm=fib "$tmp/prof.out" >"$tmp/out" 2>"$tmp/err" ||
	fail "--disasm=fib without -b failed: $(cat "$tmp/err")"
cmp -s "$tmp/want" "$tmp/out" || fail "--disasm=fib without -b: another listing than with -b"
grep -q "^cganalyze: no -b: '$tmp/prog', the object the profile records, is the binary (-b FILE gives another)\$" "$tmp/err" ||
	fail "--disasm=fib without -b: no note: $(cat "$tmp/err")"

rm "$tmp/prog"
"$bin" --disasm=fib "$tmp/prof.out" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] || fail "--disasm without -b, the object gone: not exit 1"
[ -s "$tmp/out" ] && fail "--disasm without -b, the object gone: a listing"
grep -q "^cganalyze: --disasm needs the binary: -b FILE (the profile's '$tmp/prog' is not here)\$" "$tmp/err" ||
	fail "--disasm without -b, the object gone: $(cat "$tmp/err")"
exit $status
