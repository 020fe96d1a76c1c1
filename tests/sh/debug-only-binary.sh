# -b given a separate debug file (objcopy --only-keep-debug: every
# section but the debug ones kept as a header alone, SHT_NOBITS) instead
# of the program: --disasm said "[a, b) is not all in the file's loaded
# segments (0 of N bytes are)" for each function and no more. It is an
# error that says what the file is and what to give; where symbols
# alone are needed the listing goes on with a note. The debug file is
# made here from the committed samples/recursion/prog.
bin=$1
command -v objcopy >/dev/null 2>&1 || { echo "objcopy is not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "debug-only-binary: $*"; status=1; }
prof=samples/recursion/callgrind.instr.out
objcopy --only-keep-debug samples/recursion/prog "$tmp/prog.debug"
said="is a separate debug file (its code sections hold no bytes)"

"$bin" -b "$tmp/prog.debug" --disasm=fib "$prof" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -ne 0 ] || fail "--disasm with a debug file: exit status 0"
[ -s "$tmp/out" ] && fail "--disasm with a debug file: a listing on stdout"
grep -q "$tmp/prog.debug $said: --disasm needs the program" "$tmp/err" ||
	fail "--disasm with a debug file: $(head -n 3 "$tmp/err")"
grep -q "loaded segments" "$tmp/err" &&
	fail "--disasm with a debug file: still the bytes' error"

# the flat profile takes its symbols, with a note
"$bin" -p --brief -b "$tmp/prog.debug" "$prof" >"$tmp/out" 2>"$tmp/err" ||
	fail "-p with a debug file: exit status $?: $(head -n 3 "$tmp/err")"
grep -Eq " fib('[0-9]+)?$" "$tmp/out" || fail "-p with a debug file: fib not named"
grep -q "$said: its symbols are read" "$tmp/err" ||
	fail "-p with a debug file: no note: $(head -n 3 "$tmp/err")"

# the way the note says: the program with -b, the debug file under
# --debug-dir by build-id, and --disasm lists fib's code
id=$(readelf -n samples/recursion/prog | awk '/Build ID/ { print $3 }')
if [ -n "$id" ]; then
	d=$tmp/debug/.build-id/$(echo "$id" | cut -c1-2)
	mkdir -p "$d"
	cp "$tmp/prog.debug" "$d/$(echo "$id" | cut -c3-).debug"
	"$bin" -b samples/recursion/prog --debug-dir="$tmp/debug" --disasm=fib \
		"$prof" >"$tmp/out" 2>"$tmp/err" ||
		fail "--disasm with the program: exit status $?"
	grep -q "^Disassembly of fib " "$tmp/out" ||
		fail "--disasm with the program: no code of fib"
	grep -q "$said" "$tmp/err" && fail "the program taken for a debug file"
fi
exit $status
