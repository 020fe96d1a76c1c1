#!/bin/sh
# The seek design (issue 33, src/cli/code_seek.c): where the disassembly
# would read a Callgrind file twice, it reads it once and reads the kept
# functions' blocks again by offset. Each way it cannot (a block whose
# first cost line is relative, a compressed id defined twice, a wrong
# offset, a pipe) must read twice as before (a gzip'd file is not read
# once at all: its offsets are not the text's), and every
# way must print exactly what the two reads print (CGANALYZE_SEEK=0),
# on every reading thread: the stretches read ahead carry the blocks'
# starts too.
bin=$1
command -v gzip >/dev/null || { echo "needs gzip"; exit 77; }
command -v python3 >/dev/null || { echo "needs python3"; exit 77; }
top=$(cd "$(dirname "$0")/../.." && pwd)
rec=$top/samples/recursion
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }

# Every block's first cost line after the first made relative to the
# position before it, as a writer may (valgrind writes it absolute).
python3 - "$rec/callgrind.instr.out" "$tmp/rel.out" <<'PY'
import sys
src, dst = sys.argv[1], sys.argv[2]
out, last, after_fn, seen = [], None, False, 0
def sub(tok, prev):
    if tok == '*':
        return prev
    if tok[0] in '+-':
        return prev + int(tok, 0)
    return int(tok, 0)
for line in open(src):
    c = line[:1]
    if line.startswith('fn='):
        after_fn = True
        seen += 1
    elif c.isdigit() or c in '+-*':
        toks = line.split()
        pos = [sub(toks[0], last[0] if last else 0),
               sub(toks[1], last[1] if last else 0)]
        if after_fn and seen > 1 and last:
            d = [pos[0] - last[0], pos[1] - last[1]]
            line = ' '.join(['%+d' % d[0], '%+d' % d[1]] + toks[2:]) + '\n'
        last = pos
        after_fn = False
    out.append(line)
open(dst, 'w').writelines(out)
PY
# A function's compressed id given a second name further on (both reads
# warn of it): the ids as the read ends them cannot stand for the
# blocks before.
awk '/^fn=\([0-9]+\)$/ && !done { print $0 " renamed"; done = 1; next } { print }' \
	"$rec/callgrind.instr.out" >"$tmp/twice.out"
grep -q '^fn=([0-9]*) renamed' "$tmp/twice.out" || fail "no id to define twice"
gzip -c "$rec/callgrind.instr.out" >"$tmp/p.gz"
# the report chooses by region only with a binary without lines (the
# binary's lines go to every position otherwise)
command -v objcopy >/dev/null || { echo "needs objcopy"; exit 77; }
objcopy --strip-debug "$rec/prog" "$tmp/prog"
cp "$rec/callgrind.instr.out" "$tmp/plain.out"
# a header line inside every block (a reader of the block alone stops at
# it: the lines after it must not be lost), and the file's closing
# totals: and summary: lines after its last block (allowed)
awk '/^fn=/ { infn = 1 } { print } infn && /^[0-9+-]/ { print "summary: 5"; infn = 0 }' \
	"$rec/callgrind.instr.out" >"$tmp/header.out"
grep -q '^summary: 5' "$tmp/header.out" || fail "no header put in a block"
grep -v '^totals:\|^summary:' "$rec/callgrind.instr.out" >"$tmp/end.out"
printf '# the end\n\ntotals: 1\nsummary: 1\n\n' >>"$tmp/end.out"
# tiny blocks of two kept functions (cmp_uint's and work's, one cost
# line each) after cmp_uint's block, the totals: line gone: N pairs.
# Many (8,000 blocks of 22 bytes): reading them one by one would cost
# more than the two reads (code_seek.c, many_tiny_blocks()); fewer
# (1,000): read once, the blocks' profile and reader made once for all
tiny() {
	awk -v n="$1" '/^totals:/ { next } { print }
		/^fn=\(662\) cmp_uint$/ { inb = 1 }
		inb && /^$/ { inb = 0
			for (i = 0; i < n; i++)
				printf "fn=(662)\n0x1179 64 1\nfn=(648)\n0x1243 72 1\n" }' \
		"$rec/callgrind.instr.out"
}
tiny 4000 >"$tmp/tiny.out"
tiny 500 >"$tmp/few.out"
[ "$(grep -c '^fn=(662)$' "$tmp/tiny.out")" = 4000 ] || fail "no tiny blocks made"
touch -r "$rec/callgrind.instr.out" "$tmp/p.gz" "$tmp/plain.out" \
	"$tmp/rel.out" "$tmp/twice.out" "$tmp/header.out" "$tmp/end.out" \
	"$tmp/tiny.out" "$tmp/few.out"

# way: the show line expected ("read once" or "not read once"), then
# the input; SHIFT moves the first block read again that many bytes on;
# change_by (set around a call) adds to its first cost, as a file
# changed between the reads
change_by=
check() {
	name=$1 want=$2 prof=$3 shift_by=$4
	shift 4
	for thread in 0 1 ahead; do
		export CGANALYZE_READER_THREAD=$thread
		# the splitting thread's lines are not at their offsets
		w=$want
		[ "$thread" = 1 ] && [ "$w" = once ] && w=twice
		CGANALYZE_SEEK=0 "$bin" "$@" "$prof" >"$tmp/two" 2>"$tmp/two.err" <"$prof"
		CGANALYZE_SEEK=1 CGANALYZE_SEEK_SHIFT=$shift_by \
			CGANALYZE_SEEK_CHANGE=$change_by \
			CGANALYZE_SHOW_POSITIONS=1 "$bin" "$@" "$prof" \
			>"$tmp/one" 2>"$tmp/one.all" <"$prof"
		grep -v '^cganalyze: positions:' "$tmp/one.all" >"$tmp/one.err"
		grep -v '^cganalyze: positions:' "$tmp/two.err" >"$tmp/two.e"
		cmp -s "$tmp/one" "$tmp/two" ||
			fail "$name $* (thread $thread): differs from the two reads'"
		cmp -s "$tmp/one.err" "$tmp/two.e" ||
			fail "$name $* (thread $thread): other messages"
		case $w in
		once) grep -q '^cganalyze: positions: read once' "$tmp/one.all" ||
			fail "$name $* (thread $thread): not read once" ;;
		twice) grep -q '^cganalyze: positions: not read once' "$tmp/one.all" ||
			fail "$name $* (thread $thread): read once" ;;
		none) ! grep -q 'read once' "$tmp/one.all" ||
			fail "$name $* (thread $thread): tried to read once" ;;
		esac
	done
}
unset CGANALYZE_SEEK_SHIFT
for args in "-b $rec/prog --disasm" "-b $rec/prog --disasm --json" \
	    "-b $rec/prog --disasm --threshold=0" \
	    "-b $tmp/prog --output=html -o /dev/stdout --threshold=5" \
	    "-b $tmp/prog --output=html -o /dev/stdout --threshold=0"; do
	# shellcheck disable=SC2086
	check plain once "$tmp/plain.out" "" $args
	# shellcheck disable=SC2086
	check shifted twice "$tmp/plain.out" 7 $args
	# shellcheck disable=SC2086
	check relative twice "$tmp/rel.out" "" $args
	# shellcheck disable=SC2086
	check "id twice" twice "$tmp/twice.out" "" $args
	# shellcheck disable=SC2086
	check gzip none "$tmp/p.gz" "" $args
	# shellcheck disable=SC2086
	change_by=5 check changed twice "$tmp/plain.out" "" $args
	# shellcheck disable=SC2086
	check "header in a block" twice "$tmp/header.out" "" $args
	# shellcheck disable=SC2086
	check "totals at the end" once "$tmp/end.out" "" $args
	# shellcheck disable=SC2086
	check "tiny blocks" twice "$tmp/tiny.out" "" $args
	# shellcheck disable=SC2086
	check "fewer tiny blocks" once "$tmp/few.out" "" $args
	# the blocks by the line reader, not the window (the samples' are
	# all small), and the blocks' profile made again for each
	export CGANALYZE_SEEK_SMALL=0 CGANALYZE_SEEK_QMAX=0
	# shellcheck disable=SC2086
	check "line reader, profile made again" once "$tmp/plain.out" "" $args
	# shellcheck disable=SC2086
	check "line reader, profile made again" once "$tmp/few.out" "" $args
	unset CGANALYZE_SEEK_SMALL
	export CGANALYZE_SEEK_QMAX=3
	# shellcheck disable=SC2086
	check "profile made again past 3" once "$tmp/few.out" "" $args
	unset CGANALYZE_SEEK_QMAX
done
# Where the blocks cannot be read again but the one read is whole (an
# id defined twice, many tiny blocks, the splitting thread), with -b it
# is the first of the two reads: two reads in all, not three, printing
# what the three print (CGANALYZE_SEEK_REUSE=0); where a block read
# again was not what the read read (shifted, changed, a relative first
# line), or for the report, the two reads follow
reuse() {	# name, "yes" or "no", profile, shift, args...
	name=$1 want=$2 prof=$3 shift_by=$4
	shift 4
	for thread in 0 1 ahead; do
		export CGANALYZE_READER_THREAD=$thread
		CGANALYZE_SEEK_REUSE=0 CGANALYZE_SEEK_SHIFT=$shift_by \
			CGANALYZE_SEEK_CHANGE=$change_by \
			"$bin" "$@" "$prof" >"$tmp/three" 2>"$tmp/three.err"
		CGANALYZE_SHOW_POSITIONS=1 CGANALYZE_SEEK_SHIFT=$shift_by \
			CGANALYZE_SEEK_CHANGE=$change_by \
			"$bin" "$@" "$prof" >"$tmp/one" 2>"$tmp/one.all"
		grep -v '^cganalyze: positions:' "$tmp/one.all" >"$tmp/one.err"
		cmp -s "$tmp/one" "$tmp/three" && cmp -s "$tmp/one.err" "$tmp/three.err" ||
			fail "$name $* (thread $thread): differs from the three reads'"
		if grep -q '^cganalyze: positions: the one read was the first' "$tmp/one.all"; then
			got=yes
		else
			got=no
		fi
		# the splitting thread's read is whole, and its blocks are
		# not read again: the first of the two
		w=$want
		case $thread:$name in
		1:*report) ;;
		1:*) w=yes ;;
		esac
		[ "$got" = "$w" ] ||
			fail "$name $* (thread $thread): the one read the first of the two: $got, not $w"
	done
	unset CGANALYZE_READER_THREAD
}
for args in "-b $rec/prog --disasm" "-b $rec/prog --disasm --threshold=0 --json"; do
	# shellcheck disable=SC2086
	reuse plain no "$tmp/plain.out" "" $args
	# shellcheck disable=SC2086
	reuse relative no "$tmp/rel.out" "" $args
	# shellcheck disable=SC2086
	reuse "id twice" yes "$tmp/twice.out" "" $args
	# shellcheck disable=SC2086
	reuse "tiny blocks" yes "$tmp/tiny.out" "" $args
	# shellcheck disable=SC2086
	reuse shifted no "$tmp/plain.out" 7 $args
	# shellcheck disable=SC2086
	change_by=5 reuse changed no "$tmp/plain.out" "" $args
done
# shellcheck disable=SC2086
reuse "id twice, the report" no "$tmp/twice.out" "" -b "$tmp/prog" --output=html -o /dev/stdout
# a pipe: read once keeping every position, as before (hot_files.c)
for thread in 0 1; do
	export CGANALYZE_READER_THREAD=$thread
	CGANALYZE_SEEK=0 "$bin" -b "$rec/prog" --disasm - <"$tmp/plain.out" >"$tmp/two" 2>"$tmp/two.err"
	CGANALYZE_SEEK=1 "$bin" -b "$rec/prog" --disasm - <"$tmp/plain.out" >"$tmp/one" 2>"$tmp/one.err"
	cmp -s "$tmp/one" "$tmp/two" && cmp -s "$tmp/one.err" "$tmp/two.err" ||
		fail "pipe (thread $thread): differs from the two reads'"
done
[ $status = 0 ] && echo "seek: ok"
exit $status
