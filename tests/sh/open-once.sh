#!/bin/sh
# The report and --disasm open the binary they list once (session 22):
# the one the first read opens (the program the header's cmd: names,
# with DWARF lines) is kept for the resolution after it, and with -b
# and lines there is no first read. A second opening of the same file
# coming back shows in CGANALYZE_SHOW_OPENS's count (every open_binary()
# of the run); what each prints must stay what every position's read
# (CGANALYZE_ALL_POSITIONS=1, which opens it once, after reading) prints.
# The header's cmd: names the sample's program three ways: its absolute
# path, ./prog from its directory (the recorded object's path is the
# absolute one: another name, the same file), and a copy without DWARF
# lines (the recorded object the copy too; from its directory, ./prog).
bin=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
rec=$top/samples/recursion
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
mkdir "$tmp/nd"
objcopy --strip-debug "$rec/prog" "$tmp/nd/prog"
# cmd: program, recorded object; heavy: the costliest function in the
# program's code (the sample's is libc's, then the report's and
# --disasm's object)
header() {
	{
		sed "s|^cmd: .*|cmd:  $1 7|; s|^ob=(5) .*|ob=(5) $2|" \
			"$rec/callgrind.instr.out" | grep -v '^totals:'
		[ -z "$3" ] ||
			printf 'ob=(5)\nfl=(146)\nfn=(9999) heavy\n0x1340 1 1000000\n+5 1 1000000\n'
	} >"$tmp/p.out"
	touch -r "$rec/callgrind.instr.out" "$tmp/p.out"
}
# opens: what CGANALYZE_SHOW_OPENS must say; the rest: the arguments
check() {
	want=$1
	shift
	CGANALYZE_ALL_POSITIONS=1 "$bin" "$@" "$tmp/p.out" >"$tmp/all" 2>"$tmp/all.err"
	echo "status $?" >>"$tmp/all"
	[ ! -f "$tmp/r.html" ] || mv "$tmp/r.html" "$tmp/all.html"
	CGANALYZE_SHOW_OPENS=1 "$bin" "$@" "$tmp/p.out" >"$tmp/plain" 2>"$tmp/plain.err"
	echo "status $?" >>"$tmp/plain"
	grep -v '^cganalyze: binaries opened:' "$tmp/plain.err" >"$tmp/plain.e"
	if ! cmp -s "$tmp/all" "$tmp/plain" ||
	   ! cmp -s "$tmp/all.err" "$tmp/plain.e"; then
		fail "$* ($cmd): differs from every position's"
	fi
	if [ -f "$tmp/r.html" ]; then
		sed 's/<title>[^<]*</<title></' "$tmp/r.html" >"$tmp/plain.x"
		sed 's/<title>[^<]*</<title></' "$tmp/all.html" >"$tmp/all.x"
		cmp -s "$tmp/all.x" "$tmp/plain.x" ||
			fail "$* ($cmd): another page than every position's"
		rm -f "$tmp/r.html"
	fi
	got=$(sed -n 's/^cganalyze: binaries opened: //p' "$tmp/plain.err")
	[ "$got" = "$want" ] ||
		fail "$* ($cmd): binaries opened ${got:-?} times, not $want"
}
cd "$rec" || exit 1
for cmd in "$rec/prog" ./prog; do
	header "$cmd" "$rec/prog" heavy
	check 1 --output=html -o "$tmp/r.html"
	check 1 --output=html --threshold=0 -o "$tmp/r.html"
	check 1 -b "$rec/prog" --output=html -o "$tmp/r.html"
	check 1 --disasm
	# -b's table lent to the first read (renamed into its names and
	# back), not opened a second time: session 23
	check 1 -b "$rec/prog" --disasm
	check 1 -b "$rec/prog" --disasm --json
	check 1 -b "$rec/prog" --disasm --threshold=0
	check 1 --disasm --json
	# the one read's guess takes the program it opened for the
	# resolution: once (main: 2)
	check 1 --disasm=fib
	# libc's the object listed: the program and libc once each
	header "$cmd" "$rec/prog"
	check 2 --output=html -o "$tmp/r.html"
	check 2 --disasm
done
# without DWARF its opening warns "no DWARF debug info" naming the path
# it was opened by: said when it is taken for the resolution, under the
# same path (./prog is made whole from the current directory, so it is
# the same); under another (a hard link's), opened again to say it by
# that one
cmd=$tmp/nd/prog
header "$cmd" "$tmp/nd/prog" heavy
check 1 --output=html -o "$tmp/r.html"
check 1 --disasm
check 1 -b "$tmp/nd/prog" --disasm
cd "$tmp/nd" || exit 1
cmd=./prog
header "$cmd" "$tmp/nd/prog" heavy
check 1 --output=html -o "$tmp/r.html"
check 1 --disasm
ln prog linked
cmd=./linked
header "$cmd" "$tmp/nd/prog" heavy
check 2 --output=html -o "$tmp/r.html"
check 2 --disasm
# valgrind's cmd: is relative to where it ran, which is most often the
# profile's own directory: from another, where ./prog is no file, the
# program is found beside the profile (main: not found, so no one read
# and no first read by region), and read as from that directory
cp "$rec/prog" "$tmp/nd/beside"
cmd=./beside
header "$cmd" "$tmp/nd/beside" heavy
mv "$tmp/p.out" "$tmp/nd/p.out"
cd "$tmp" || exit 1
way() {
	want=$1
	shift
	CGANALYZE_SHOW_POSITIONS=1 "$bin" "$@" "$tmp/nd/p.out" 2>&1 >/dev/null |
		grep -q "^cganalyze: positions: $want (" ||
		fail "$* from another directory: not '$want'"
	CGANALYZE_ALL_POSITIONS=1 "$bin" "$@" "$tmp/nd/p.out" >"$tmp/all" 2>&1
	"$bin" "$@" "$tmp/nd/p.out" >"$tmp/plain" 2>&1
	cmp -s "$tmp/all" "$tmp/plain" ||
		fail "$* from another directory: differs from every position's"
}
way "selected in one read" --disasm=fib
way "selected by region" --disasm
# a wrong guess: another file of that name in the current directory
# (the recorded object is the one beside the profile): caught after
# reading, the same output
objcopy --strip-debug "$rec/prog" "$tmp/beside"
way "selected" --disasm=fib
exit $status
