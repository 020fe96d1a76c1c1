# The file of the line rows a DWARF 5 sequence emits before its first
# DW_LNS_set_file: the file register starts at 1 (DWARF 5, 6.2.2, Table
# 6.4). GCC 12 with gas sets no file where a sequence's first .loc is
# file 1, which in C++ is often a header (a template instantiation comes
# first; in C, a header's static function emitted first) while entry 0
# is the .cc; libdwarf 20210528 says file 0 for
# those rows, and binutils 2.40's addr2line makes the same mistake
# (main.cc:367 in a 22-line main.cc). symtab/line_files.c counts those
# rows. llvm-symbolizer, gdb and llvm-dwarfdump --debug-line agree on file
# 1; here every instruction of .text must have llvm-symbolizer's file and
# line (where it knows one), for g++ and clang++ (whose programs set file
# 0 first: those rows stay file 0), and for zlib and zstd compressed
# DWARF, whose .debug_line the scan reads decompressed.
bin=$1
command -v llvm-symbolizer >/dev/null && command -v g++ >/dev/null ||
	{ echo "needs llvm-symbolizer and g++"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "line-default-file: $*"; status=1; }
# file:line of every .text instruction, ours and llvm-symbolizer's, where
# llvm-symbolizer knows a line; "same" or the differences
compare() {	# binary
	addrs=$(objdump -d --section=.text "$1" | awk '/^ +[0-9a-f]+:/ { sub(":", "", $1); print "0x" $1 }')
	"$bin" --resolve -b "$1" $addrs 2>"$tmp/err" |
		sed 's/.* at //; s/ (discriminator [0-9]*)//' >"$tmp/ours"
	[ -s "$tmp/err" ] && fail "$1: said: $(cat "$tmp/err")"
	llvm-symbolizer --output-style=GNU --no-inlines --obj="$1" $addrs |
		awk 'NR % 2 == 0' | sed 's/ (discriminator [0-9]*)//' >"$tmp/llvm"
	n=$(paste -d'|' "$tmp/ours" "$tmp/llvm" | awk -F'|' '$2 !~ /:0$/' | wc -l)
	[ "$n" -gt 100 ] || fail "$1: $n instructions with lines only"
	paste -d'|' "$tmp/ours" "$tmp/llvm" |
		awk -F'|' '$2 !~ /:0$/ && $1 != $2 { print "ours " $1 ", llvm-symbolizer " $2 }' |
		head -5 >"$tmp/diff"
	[ -n "$VERBOSE" ] && echo "$1: $n instructions compared"
	[ -s "$tmp/diff" ] && fail "$1: not llvm-symbolizer's lines: $(cat "$tmp/diff")"
}
# the committed builds (tests/split-dwarf/make.sh): 0x1340 starts a
# sequence of ~_Vector_base with no set_file; the split builds read the
# skeleton's line table in the binary
for b in whole v5 v5p; do
	out=$("$bin" --resolve -b tests/split-dwarf/$b 0x1340 2>&1)
	case $out in
	*"at /usr/include/c++/12/bits/stl_vector.h:367") ;;
	*) fail "$b: 0x1340: $out" ;;
	esac
done
compare tests/split-dwarf/whole
compare tests/split-dwarf/v5
# tests/resolve's g++ build, which test_resolve_peers.c compares with
# addr2line: no sequence there starts without set_file, so the three agree
compare tests/resolve/cxx-O2/prog
cp tests/split-dwarf/*.cc tests/split-dwarf/shapes.h "$tmp"
build() {	# compiler, name, flags...
	c=$1 n=$2
	shift 2
	(cd "$tmp" && $c -O2 -g -gdwarf-5 "$@" -o "$n" area.cc main.cc)
}
build g++ g || fail "g++ failed"
[ -f "$tmp/g" ] && compare "$tmp/g"
if build g++ gz -gz=zlib 2>/dev/null; then
	compare "$tmp/gz"
fi
# zstd, read from symtab/elf_zstd.c's decompressed copy (llvm-symbolizer
# 14 reads no zstd): the lines of the uncompressed build, just compared
if [ -f "$tmp/g" ] &&
	objcopy --compress-debug-sections=zstd "$tmp/g" "$tmp/gzstd" 2>/dev/null &&
	readelf -S -W "$tmp/gzstd" | grep -q 'debug_line.* C '; then
	addrs=$(objdump -d --section=.text "$tmp/g" | awk '/^ +[0-9a-f]+:/ { sub(":", "", $1); print "0x" $1 }')
	"$bin" --resolve -b "$tmp/g" $addrs >"$tmp/plain"
	"$bin" --resolve -b "$tmp/gzstd" $addrs >"$tmp/zstd" 2>"$tmp/err"
	[ -s "$tmp/err" ] && fail "zstd: said: $(cat "$tmp/err")"
	cmp -s "$tmp/plain" "$tmp/zstd" ||
		fail "zstd: not the uncompressed build's lines: $(diff "$tmp/plain" "$tmp/zstd" | head -5)"
fi
# C: a header's static function, not inlined, the first of .text; its
# sequence sets no file (addr2line 2.40 says m.c:3 of hd.h's line 3)
if command -v gcc >/dev/null; then
	printf 'static __attribute__((noinline)) int hd(int x)\n{\n\treturn x * 3 + 1;\n}\n' >"$tmp/hd.h"
	printf '#include "hd.h"\nint main(int argc, char **argv)\n{\n\t(void)argv;\n\treturn hd(argc);\n}\n' >"$tmp/m.c"
	(cd "$tmp" && gcc -O2 -g -gdwarf-5 -o m m.c) || fail "gcc failed"
	a=$(nm "$tmp/m" | awk '$3 == "hd" { print "0x" $1 }')
	out=$("$bin" --resolve -b "$tmp/m" $a 2>&1)
	[ "$out" = "$(printf '0x%016x' "$a"): hd at $tmp/hd.h:3" ] ||
		fail "C header function: $out"
fi
if command -v clang++ >/dev/null; then
	build clang++ c || fail "clang++ failed"
	[ -f "$tmp/c" ] && compare "$tmp/c"
fi
exit $status
