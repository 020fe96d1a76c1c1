#!/bin/sh
# --disasm with its binary keeps whole only the positions of the
# functions it may list (issue 33, src/cli/code_positions.c): a first
# read chooses them, the second keeps theirs and counts the others'.
# Whatever the input, it must print what reading every position prints
# (CGANALYZE_ALL_POSITIONS=1, as before): the plain file and a gzip'd
# one (decompressed twice) choose; a pipe cannot be read again and keeps
# every position; CGANALYZE_ALL_POSITIONS=again keeps none whole, so
# that the check after resolution fails and everything is read again.
# Each on every reading thread (the stretches read ahead log positions
# whole and the main thread counts them), and a profile of two parts,
# whose functions come twice (each kept whole: their second block
# cannot be counted apart from the first).
bin=$1
command -v gzip >/dev/null || { echo "needs gzip"; exit 77; }
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }
rec=$top/samples/recursion
# A pipe has no time, a file has: its sources (the recorded paths, in
# the checkout of /work/main) newer than it are stale, which the
# listings say and a pipe's do not. The profiles are read from copies
# newer than any source, whatever git or a merge did to the checkouts'
# times (two builds once failed "pipe differs" so).
instr=$tmp/instr.out cxx=$tmp/cxx.out
cp "$rec/callgrind.instr.out" "$instr"
cp "$top/samples/cxx/callgrind.instr.out" "$cxx"
touch -d @4102444800 "$instr" "$cxx"
# two parts: the profile again as part 2
{ cat "$instr"; echo; echo "part: 2"
  sed -n '/^positions/,$p' "$instr"; } >"$tmp/two.out"
touch -r "$instr" "$tmp/two.out"
# the JSON and the notes name the input: the rest must agree
strip() { sed 's/"path": "[^"]*", "format"/"path": P, "format"/' "$1"; }
check() {	# profile binary args...
	prof=$1 b=$2
	shift 2
	gzip -c "$prof" >"$tmp/p.gz"
	touch -r "$prof" "$tmp/p.gz"
	for thread in 0 1 ahead; do
		export CGANALYZE_READER_THREAD=$thread
		CGANALYZE_ALL_POSITIONS=1 "$bin" -b "$b" "$@" "$prof" >"$tmp/all" 2>"$tmp/all.err"
		[ -s "$tmp/all" ] || fail "$prof $*: nothing printed"
		"$bin" -b "$b" "$@" "$prof" >"$tmp/plain" 2>"$tmp/plain.err"
		"$bin" -b "$b" "$@" "$tmp/p.gz" >"$tmp/gz" 2>"$tmp/gz.err"
		"$bin" -b "$b" "$@" - <"$prof" >"$tmp/pipe" 2>"$tmp/pipe.err"
		CGANALYZE_ALL_POSITIONS=again "$bin" -b "$b" "$@" "$prof" \
			>"$tmp/again" 2>"$tmp/again.err"
		strip "$tmp/all" >"$tmp/all.x"
		for f in plain gz pipe again; do
			strip "$tmp/$f" >"$tmp/$f.x"
			cmp -s "$tmp/all.x" "$tmp/$f.x" ||
				fail "$prof $* (thread $thread): $f differs from every position's"
		done
		cmp -s "$tmp/all.err" "$tmp/plain.err" ||
			fail "$prof $* (thread $thread): other messages"
		cmp -s "$tmp/all.err" "$tmp/again.err" ||
			fail "$prof $* (thread $thread): other messages when read again"
		[ "$(wc -l <"$tmp/all.err")" = "$(wc -l <"$tmp/pipe.err")" ] ||
			fail "$prof $*: other messages through a pipe"
	done
	unset CGANALYZE_READER_THREAD
	# which way each went
	CGANALYZE_SHOW_POSITIONS=1 "$bin" -b "$b" "$@" "$tmp/p.gz" 2>&1 >/dev/null |
		grep -q '^cganalyze: positions: selected' ||
		fail "$prof $*: the gzip'd file was not read selectively"
	CGANALYZE_SHOW_POSITIONS=1 "$bin" -b "$b" "$@" - <"$prof" 2>&1 >/dev/null |
		grep -q '^cganalyze: positions:' &&
		fail "$prof $*: a pipe cannot be read twice"
	CGANALYZE_SHOW_POSITIONS=1 CGANALYZE_ALL_POSITIONS=again "$bin" -b "$b" "$@" "$prof" 2>&1 >/dev/null |
		grep -q '^cganalyze: positions: read again' ||
		fail "$prof $*: keeping none whole was not read again"
}
for args in "--disasm" "--disasm --json" "--disasm=main" "--disasm=fib*" \
	    "--disasm --threshold=0" "--disasm --threshold=0 --json"; do
	# shellcheck disable=SC2086
	check "$instr" "$rec/prog" $args
	# shellcheck disable=SC2086
	check "$tmp/two.out" "$rec/prog" $args
done
for args in "--disasm" "--disasm --threshold=0.01 --json"; do
	# shellcheck disable=SC2086
	check "$cxx" "$top/samples/cxx/prog" $args
done
# the report with its binary: its Disassembly and the resolution's note
# in its messages (the annotated source as hot_files.c keeps it). A
# binary with DWARF lines gives them to positions without one, which
# the annotated source shows: that report keeps every position; the
# binary without its debug sections is read selectively
command -v objcopy >/dev/null || { echo "needs objcopy"; exit 77; }
mkdir "$tmp/nd"
objcopy --strip-debug "$rec/prog" "$tmp/nd/prog"
for prof in "$instr" "$tmp/two.out"; do
    for b in "$tmp/nd/prog" "$rec/prog"; do
	gzip -c "$prof" >"$tmp/p.gz"
	touch -r "$prof" "$tmp/p.gz"
	for args in "" "--threshold=0" "--threshold=20"; do
		# shellcheck disable=SC2086
		CGANALYZE_ALL_POSITIONS=1 "$bin" -b "$b" --output=html -o "$tmp/all.html" $args "$prof" 2>/dev/null
		# shellcheck disable=SC2086
		CGANALYZE_SHOW_POSITIONS=1 "$bin" -b "$b" --output=html -o "$tmp/plain.html" $args "$prof" 2>"$tmp/plain.err"
		# shellcheck disable=SC2086
		"$bin" -b "$b" --output=html -o "$tmp/gz.html" $args "$tmp/p.gz" 2>/dev/null
		# shellcheck disable=SC2086
		"$bin" -b "$b" --output=html -o "$tmp/pipe.html" $args - <"$prof" 2>/dev/null
		# shellcheck disable=SC2086
		CGANALYZE_ALL_POSITIONS=again "$bin" -b "$b" --output=html -o "$tmp/again.html" $args "$prof" 2>/dev/null
		[ "$b" = "$rec/prog" ] ||
			grep -q '^cganalyze: positions: selected' "$tmp/plain.err" ||
			fail "$prof report $args: not read selectively"
		for f in all plain gz pipe again; do
			sed 's/"path": "[^"]*", "format"/"path": P, "format"/; s/<title>[^<]*</<title></' \
				"$tmp/$f.html" >"$tmp/$f.x"
		done
		grep -q '"disasm": \[$' "$tmp/all.x" || grep -q '"disasm": \[.' "$tmp/all.x" ||
			fail "$prof report $args: no Disassembly"
		for f in plain gz again; do
			cmp -s "$tmp/all.x" "$tmp/$f.x" ||
				fail "$prof report $args ($b): $f differs from every position's"
		done
		# a pipe cannot be read again for a part alone: no parts'
		# panel (html_parts.c), which the page says; the rest agrees
		for f in all pipe; do
			awk '/id="cga-samples"/ { skip = 1 } !skip { print }
			     skip && /<\/script>/ { skip = 0 }' "$tmp/$f.x" >"$tmp/$f.y"
		done
		cmp -s "$tmp/all.y" "$tmp/pipe.y" ||
			fail "$prof report $args ($b): pipe differs from every position's"
		if [ "$prof" = "$tmp/two.out" ]; then
			grep -q 'id="cga-samples".*standard input' "$tmp/pipe.x" ||
				fail "$prof report $args ($b): the pipe's page does not say why it has no parts"
		fi
	done
    done
done
# a function kept whole for its second block, not for being listed;
# --disasm=WHAT tries one read first, whose counts cannot take the
# second block (the same addresses again): the two reads follow
CGANALYZE_SHOW_POSITIONS=1 "$bin" -b "$rec/prog" --disasm=main "$tmp/two.out" 2>&1 >/dev/null |
	grep -q 'selected \(by region \)\?([1-9][0-9]* of' || fail "two parts: no function kept whole"
# --disasm=WHAT with its binary: one read, its object and load offset
# guessed. Where the guess is wrong the two reads follow, and where
# those cannot, every position: the binary under another name (the
# object is found by its symbols), another load offset given
# (resolution refuses it, as with every position), an object named
# with -b OBJECT=FILE
CGANALYZE_SHOW_POSITIONS=1 "$bin" -b "$rec/prog" --disasm=main "$instr" 2>&1 >/dev/null |
	grep -q '^cganalyze: positions: selected in one read' ||
	fail "--disasm=main: not read once"
cp "$rec/prog" "$tmp/renamed"
for args in "-b $tmp/renamed --disasm=main" "-b $tmp/renamed --disasm=fib*" \
	    "-b $rec/prog --load-offset=0x1000 --disasm=main" \
	    "-b $rec/prog --load-offset=0x200000 --force-binary --disasm=main" \
	    "-b prog=$rec/prog --disasm=main" "-b nosuch=$rec/prog --disasm=main"; do
	for thread in 0 ahead; do
		# shellcheck disable=SC2086
		CGANALYZE_READER_THREAD=$thread CGANALYZE_ALL_POSITIONS=1 "$bin" $args \
			"$instr" >"$tmp/all" 2>"$tmp/all.err"
		echo "status $?" >>"$tmp/all"
		# shellcheck disable=SC2086
		CGANALYZE_READER_THREAD=$thread "$bin" $args "$instr" \
			>"$tmp/plain" 2>"$tmp/plain.err"
		echo "status $?" >>"$tmp/plain"
		cmp -s "$tmp/all" "$tmp/plain" && cmp -s "$tmp/all.err" "$tmp/plain.err" ||
			fail "$args (thread $thread): differs from every position's"
	done
	# shellcheck disable=SC2086
	CGANALYZE_SHOW_POSITIONS=1 "$bin" $args "$instr" 2>&1 >/dev/null |
		grep '^cganalyze: positions:' >"$tmp/way"
	case $args in
	*renamed*) grep -q 'selected \(by region \)\?(' "$tmp/way" ||
		fail "$args: the object under another name did not take the two reads" ;;
	*prog=*) grep -q 'selected in one read' "$tmp/way" ||
		fail "$args: not read once" ;;
	esac
done
# A function's second block (odd's, function 676, after the last
# block): at addresses apart from its first, the one read counts both
# (resolution's note: 281 of 283 addresses inside the binary); at one
# of its first block's (0x11b6, again), it cannot tell them apart and
# the two reads follow (281 of 282). A file cut in a line: the reader's error, whichever read.
# Each prints what every position prints.
for tail in "0x1f000 12 3|+2 13 4=283" "0x1f000 12 3|0x11b6 30 1=282"; do
	n=${tail#*=} tail=${tail%=*}
	{ grep -v '^totals:' "$instr"
	  printf 'ob=(5)\nfl=(146)\nfn=(676)\n'
	  echo "$tail" | tr '|' '\n'; } >"$tmp/again.out"
	touch -r "$instr" "$tmp/again.out"
	for w in main odd; do
		CGANALYZE_ALL_POSITIONS=1 "$bin" -b "$rec/prog" --disasm=$w "$tmp/again.out" \
			>"$tmp/all" 2>"$tmp/all.err"
		CGANALYZE_SHOW_POSITIONS=1 "$bin" -b "$rec/prog" --disasm=$w "$tmp/again.out" \
			>"$tmp/plain" 2>"$tmp/plain.err"
		grep -v '^cganalyze: positions:' "$tmp/plain.err" >"$tmp/plain.e"
		cmp -s "$tmp/all" "$tmp/plain" && cmp -s "$tmp/all.err" "$tmp/plain.e" ||
			fail "a second block ($tail), --disasm=$w: differs from every position's"
		grep -q "281 of $n addresses inside it" "$tmp/plain.err" ||
			fail "a second block ($tail), --disasm=$w: not every address counted"
		case $w/$tail in
		main/*+2*) grep -q 'selected in one read' "$tmp/plain.err" ||
			fail "a second block apart: not read once" ;;
		main/*11b6*) grep -q 'selected \(by region \)\?(' "$tmp/plain.err" ||
			fail "a second block within the first's: not the two reads" ;;
		esac
	done
done
# Without -b, the one read opens the program the header's cmd: names
# (the sample's, made absolute, and its object with it); where the
# object found after reading is another (a library function's), the
# two reads follow
sed "s|^cmd: .*|cmd:  $rec/prog 7|; s|^ob=(5) .*|ob=(5) $rec/prog|" \
	"$instr" >"$tmp/cmd.out"
touch -r "$instr" "$tmp/cmd.out"
for w in main "fib*" "_dl_*"; do
	CGANALYZE_ALL_POSITIONS=1 "$bin" --disasm="$w" "$tmp/cmd.out" >"$tmp/all" 2>"$tmp/all.err"
	echo "status $?" >>"$tmp/all"
	CGANALYZE_SHOW_POSITIONS=1 "$bin" --disasm="$w" "$tmp/cmd.out" >"$tmp/plain" 2>"$tmp/plain.err"
	echo "status $?" >>"$tmp/plain"
	grep -v '^cganalyze: positions:' "$tmp/plain.err" >"$tmp/plain.e"
	cmp -s "$tmp/all" "$tmp/plain" && cmp -s "$tmp/all.err" "$tmp/plain.e" ||
		fail "no -b, --disasm=$w: differs from every position's"
	case $w in
	_dl_*) grep -q 'selected \(by region \)\?(' "$tmp/plain.err" ||
		fail "no -b, --disasm=$w: another object, not the two reads" ;;
	*) grep -q 'selected in one read' "$tmp/plain.err" ||
		fail "no -b, --disasm=$w: not read once" ;;
	esac
done
# cmd: as valgrind writes the command typed ("./prog"): the name made
# whole from the current directory (links followed, as the kernel maps
# it and ob= names it), so that the one read guesses the object
absbin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
sed "s|^cmd: .*|cmd:  ./prog 7|; s|^ob=(5) .*|ob=(5) $(cd "$rec" && pwd -P)/prog|" \
	"$instr" >"$tmp/rel.out"
touch -r "$instr" "$tmp/rel.out"
for w in main "fib*"; do
	(cd "$rec" && CGANALYZE_ALL_POSITIONS=1 "$absbin" --disasm="$w" "$tmp/rel.out") >"$tmp/all" 2>"$tmp/all.err"
	echo "status $?" >>"$tmp/all"
	(cd "$rec" && CGANALYZE_SHOW_POSITIONS=1 "$absbin" --disasm="$w" "$tmp/rel.out") >"$tmp/plain" 2>"$tmp/plain.err"
	echo "status $?" >>"$tmp/plain"
	grep -v '^cganalyze: positions:' "$tmp/plain.err" >"$tmp/plain.e"
	cmp -s "$tmp/all" "$tmp/plain" && cmp -s "$tmp/all.err" "$tmp/plain.e" ||
		fail "cmd: ./prog, --disasm=$w: differs from every position's"
	grep -q 'selected in one read' "$tmp/plain.err" ||
		fail "cmd: ./prog, --disasm=$w: not read once"
done
# The two reads' first by the binary's regions, where the binary is
# known before it (-b; without it the program the header's cmd: names,
# when that is the recorded object): each symbol's cost exact, only the
# functions with code in a symbol listed kept whole. Where the guess is
# wrong (cmd: names another program, the object is under another name,
# another load offset) the first read is made again by 32 bytes of
# code (other objects' rows are so already: where the binary's object
# is another, that read is used), or every position is read. Each
# prints what every position prints: the report without -b (of the
# binary without DWARF lines, which would keep every position; its
# recorded object the program's, made so by a costly function "heavy"
# in main's code, kept whole for its position there), --disasm by
# threshold with -b.
heavy() {	# program named by cmd:
	sed "s|^cmd: .*|cmd:  $1 7|; s|^ob=(5) .*|ob=(5) $tmp/nd/prog|" \
		"$instr" | grep -v '^totals:'
	printf 'ob=(5)\nfl=(146)\nfn=(9999) heavy\n0x1340 1 1000000\n+5 1 1000000\n'
}
cp "$tmp/nd/prog" "$tmp/nd/renamed"
heavy "$tmp/nd/prog" >"$tmp/nd.out"
heavy "$rec/prog" >"$tmp/other.out"
heavy "$tmp/nd/renamed" >"$tmp/renamed.out"
# no heavy: the recorded object is libc's, the program's guessed (here
# libc's lines, where its debug info is installed, keep every position)
sed "s|^cmd: .*|cmd:  $tmp/nd/prog 7|; s|^ob=(5) .*|ob=(5) $tmp/nd/prog|" \
	"$instr" >"$tmp/libc.out"
# no objects named: functions of none taken for the binary's, whose
# object is then none: the first read made again (and then the
# binary does not match: libc's addresses are outside it, an error
# whichever way)
sed '/^c\{0,1\}ob=/d' "$tmp/nd.out" >"$tmp/noob.out"
touch -r "$instr" "$tmp/nd.out" "$tmp/other.out" \
	"$tmp/renamed.out" "$tmp/libc.out" "$tmp/noob.out"
# the input's name, also in the warnings the page embeds
strip_page() {
	sed 's/"path": "[^"]*", "format"/"path": P, "format"/; s/<title>[^<]*</<title></
	     s/[a-z]*\.out:\([0-9]\)/IN:\1/g; s/p\.gz:\([0-9]\)/IN:\1/g' "$1"
}
for case in "nd.out|by region|--output=html" "other.out|(|--output=html" \
	    "renamed.out|(|--output=html" "libc.out|-|--output=html" \
	    "nd.out|by region|--output=html --threshold=20" \
	    "nd.out|by region|-b $tmp/nd/prog --disasm" \
	    "nd.out|by region|-b $tmp/nd/prog --disasm --json --threshold=5" \
	    "nd.out|(|-b $tmp/nd/renamed --disasm" \
	    "noob.out|(|-b $tmp/nd/prog --disasm" \
	    "nd.out|by region|-b $tmp/nd/prog --load-offset=0x1000 --disasm"; do
	prof=$tmp/${case%%|*} rest=${case#*|}
	way=${rest%%|*} args=${rest#*|}
	gzip -c "$prof" >"$tmp/p.gz"
	touch -r "$prof" "$tmp/p.gz"
	for thread in 0 ahead; do
		export CGANALYZE_READER_THREAD=$thread
		for f in all plain gz again; do
			in=$prof
			[ $f = gz ] && in=$tmp/p.gz
			env=CGANALYZE_SHOW=1
			[ $f = all ] && env=CGANALYZE_ALL_POSITIONS=1
			[ $f = again ] && env=CGANALYZE_ALL_POSITIONS=again
			rm -f "$tmp/$f.out"
			# shellcheck disable=SC2086
			case $args in
			*html*) env $env "$bin" $args -o "$tmp/$f.out" "$in" 2>"$tmp/$f.err" ;;
			*) env $env "$bin" $args "$in" >"$tmp/$f.out" 2>"$tmp/$f.err" ;;
			esac
			echo "status $?" >>"$tmp/$f.err"
			strip_page "$tmp/$f.out" >"$tmp/$f.x"
		done
		# a pipe is read once, every position (the page's parts
		# panel says why it has none: the text alone)
		# shellcheck disable=SC2086
		case $args in
		*html*) ;;
		*) "$bin" $args - <"$prof" >"$tmp/pipe.out" 2>/dev/null
		   strip_page "$tmp/pipe.out" >"$tmp/pipe.x"
		   cmp -s "$tmp/all.x" "$tmp/pipe.x" ||
			fail "${case%%|*} $args (thread $thread): pipe differs from every position's" ;;
		esac
		[ -s "$tmp/all.x" ] || [ "${case%%|*}" = noob.out ] ||
			fail "${case%%|*} $args: nothing printed"
		case ${case%%|*}/$args in
		libc.out/*) ;;
		*/--output=html*) grep -q '"heavy"' "$tmp/all.x" ||
			fail "${case%%|*} $args: the page has no function heavy" ;;
		esac
		for f in plain gz again; do
			cmp -s "$tmp/all.x" "$tmp/$f.x" ||
				fail "${case%%|*} $args (thread $thread): $f differs from every position's"
		done
		cmp -s "$tmp/all.err" "$tmp/plain.err" && cmp -s "$tmp/all.err" "$tmp/again.err" ||
			fail "${case%%|*} $args (thread $thread): other messages"
	done
	unset CGANALYZE_READER_THREAD
	# shellcheck disable=SC2086
	CGANALYZE_SHOW_POSITIONS=1 "$bin" $args -o /dev/null "$prof" 2>&1 |
		grep '^cganalyze: positions:' >"$tmp/way"
	case $way in
	-) ;;	# as it may be
	*) grep -q "^cganalyze: positions: selected $way" "$tmp/way" ||
		fail "${case%%|*} $args: not $way: $(cat "$tmp/way")" ;;
	esac
	# read by region, the binary's object another: that read used
	case ${case%%|*}/$args in
	renamed.out/--output=html|libc.out/*|*renamed\ --disasm)
		grep -q 'made again' "$tmp/way" &&
			fail "${case%%|*} $args: the first read made again" ;;
	noob.out/*) grep -q 'made again' "$tmp/way" ||
			fail "${case%%|*} $args: the first read not made again" ;;
	esac
done
head -c 20000 "$instr" >"$tmp/cut.out"
touch -r "$instr" "$tmp/cut.out"
CGANALYZE_ALL_POSITIONS=1 "$bin" -b "$rec/prog" --disasm=main "$tmp/cut.out" >"$tmp/all" 2>"$tmp/all.err"
echo "status $?" >>"$tmp/all"
"$bin" -b "$rec/prog" --disasm=main "$tmp/cut.out" >"$tmp/plain" 2>"$tmp/plain.err"
echo "status $?" >>"$tmp/plain"
cmp -s "$tmp/all" "$tmp/plain" && cmp -s "$tmp/all.err" "$tmp/plain.err" ||
	fail "a file cut in a line: differs from every position's"
[ $status -eq 0 ] && echo "disasm-positions: ok"
exit $status
