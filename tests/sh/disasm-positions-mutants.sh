#!/bin/sh
# The first read by the binary's regions (code_positions.c's
# region_read(), pos_select.c) against every position's read
# (CGANALYZE_ALL_POSITIONS=1) on profiles whose function blocks are
# changed (tests/fuzz/callgrind_mutate.py: addresses shifted, blocks
# split, copied, given another object, renamed, reversed; the objects
# renamed): the report with and without -b, --disasm by threshold, at
# --threshold=0 in --json and --disasm=WHAT (one read) must print the
# same, plain and gzip'd, with the same messages (the gzip'd file's
# name aside) and exit status.
# The recorded program and cmd: name a copy without its debug sections,
# so that the report reads by region too (a binary with DWARF lines
# keeps every position for the annotated source).
# tests/sh/disasm-positions.sh runs each way on the profiles as made.
bin=$1
command -v python3 >/dev/null || { echo "needs python3"; exit 77; }
command -v gzip >/dev/null || { echo "needs gzip"; exit 77; }
command -v objcopy >/dev/null || { echo "needs objcopy"; exit 77; }
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "disasm-positions-mutants: $*"; status=1; }
rec=$top/samples/recursion
prog=$tmp/prog
objcopy --strip-debug "$rec/prog" "$prog"
sed "s#^ob=(5) .*#ob=(5) $prog#; s#^cmd: .*#cmd: $prog#" \
	"$rec/callgrind.instr.out" >"$tmp/base.out"
# the JSON and the title name the input: the rest must agree
strip() { sed 's/"path": "[^"]*", "format"/"path": P, "format"/; s/<title>[^<]*</<title></' "$1"; }
n=0 region=0
for seed in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
	python3 "$top/tests/fuzz/callgrind_mutate.py" "$tmp/base.out" "$tmp/m.out" $seed ||
		{ fail "callgrind_mutate.py $seed failed"; continue; }
	gzip -c "$tmp/m.out" >"$tmp/m.gz"
	touch -r "$tmp/m.out" "$tmp/m.gz"
	for args in "--output=html" "-b $prog --output=html" "-b $prog --disasm" \
		    "-b $prog --disasm --threshold=0 --json" "-b $prog --disasm=fib*"; do
		for way in all plain gz; do
			in=$tmp/m.out
			[ $way = gz ] && in=$tmp/m.gz
			case $way in all) e=CGANALYZE_ALL_POSITIONS=1 ;; *) e=CGANALYZE_SHOW_POSITIONS=1 ;; esac
			# shellcheck disable=SC2086
			env $e "$bin" $args -o "$tmp/$way.o" "$in" >"$tmp/$way.stdout" 2>"$tmp/$way.err"
			echo "status $?" >>"$tmp/$way.stdout"
			[ -f "$tmp/$way.o" ] || : >"$tmp/$way.o"
			{ strip "$tmp/$way.o"; cat "$tmp/$way.stdout"
			  grep -v '^cganalyze: positions:' "$tmp/$way.err"; } |
				sed "s#$tmp/m.gz#$tmp/m.out#g" >"$tmp/$way.x"
			rm -f "$tmp/$way.o"
		done
		grep -q 'positions: selected by region' "$tmp/plain.err" && region=$((region + 1))
		for way in plain gz; do
			n=$((n + 1))
			cmp -s "$tmp/all.x" "$tmp/$way.x" ||
				fail "seed $seed, $args: $way differs from every position's (the input again: callgrind_mutate.py with the seed)"
		done
	done
done
[ $n -ge 100 ] || fail "only $n comparisons"
[ $region -ge 20 ] || fail "only $region runs read by region"
exit $status
