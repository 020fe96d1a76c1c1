# -gsplit-dwarf (DWARF 5 and GCC's DWARF 4 form), built here with gcc:
# the binary keeps a skeleton unit and the line table; functions and
# inlined calls are in the .dwo, found by DW_AT_comp_dir and
# DW_AT_dwo_name. The frames must be those of the same code built
# without -gsplit-dwarf, and llvm-symbolizer's (which reads .dwo too).
# addr2line (binutils 2.40) reads no .dwo: it names the function from the
# symbols (work where mid is inlined) and answers ??:? for DWARF 5.
# Without its .dwo, a note says the unit's inlined frames are missing, and
# the lines are still addr2line's (DWARF 4) or the DWARF 4 build's (5).
# The same with clang when it is installed, and with g++'s
# -fdebug-types-section (type units in sections of their own).
# tests/sh/split-dwarf-files.sh has .dwp packages and hostile .dwo.
bin=$1
command -v gcc >/dev/null && command -v addr2line >/dev/null ||
	{ echo "needs gcc and addr2line"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "split-dwarf: $*"; status=1; }
cat >"$tmp/s.c" <<'SRC'
static unsigned long __attribute__((noinline)) leaf(unsigned long x)
{
	return x * 31 + (x >> 3);
}
static inline unsigned long mid(unsigned long x) { return leaf(x) + leaf(x + 1); }
unsigned long __attribute__((noinline)) work(int n)
{
	unsigned long s = 0;
	for (int i = 0; i < n; i++)
		s += mid(i);
	return s;
}
int main(int argc, char **argv) { (void)argv; return (int)work(argc * 1000); }
SRC
for v in 4 5; do	# 4 first: 5 is compared with it
	(cd "$tmp" && gcc -g -gdwarf-$v -gsplit-dwarf -O2 -o s$v s.c &&
	 gcc -g -gdwarf-$v -O2 -o w$v s.c) ||
		{ echo "gcc -gsplit-dwarf failed"; exit 77; }
	objdump -d "$tmp/s$v" | tail -n +3 >"$tmp/code.s"
	objdump -d "$tmp/w$v" | tail -n +3 >"$tmp/code.w"
	cmp -s "$tmp/code.s" "$tmp/code.w" ||
		{ echo "gcc: -gsplit-dwarf changed the code"; exit 77; }
	addrs=$(objdump -d "$tmp/s$v" | awk '/^[0-9a-f]+ <(work|main)>:/ { on = 1; next } /^$/ { on = 0 } on && /^ +[0-9a-f]+:/ { sub(":", "", $1); print "0x" $1 }')
	"$bin" --resolve --inlines -b "$tmp/s$v" $addrs >"$tmp/ours" 2>"$tmp/err" ||
		fail "DWARF $v: $(cat "$tmp/err")"
	[ -s "$tmp/err" ] && fail "DWARF $v: said: $(cat "$tmp/err")"
	grep -q "(inlined by) work at $tmp/s.c:10" "$tmp/ours" ||
		fail "DWARF $v: no inlined frame: $(cat "$tmp/ours")"
	"$bin" --resolve --inlines -b "$tmp/w$v" $addrs >"$tmp/whole"
	cmp -s "$tmp/ours" "$tmp/whole" ||
		fail "DWARF $v: not the unsplit build's: $(diff "$tmp/ours" "$tmp/whole")"
	if command -v llvm-symbolizer >/dev/null; then
		# the same frames; addresses printed short, no discriminators,
		# and past main's last byte it says ?? at ??:0
		llvm-symbolizer --output-style=GNU -f -i -p -a --obj="$tmp/s$v" \
			$addrs </dev/null | grep -v '?? at' >"$tmp/llvm"
		sed 's/^0x0*\([0-9a-f]\)/0x\1/; s/ (discriminator [0-9]*)//' \
			"$tmp/ours" | grep -v '??:?' >"$tmp/ours.n"
		sed 's/ (discriminator [0-9]*)//' "$tmp/llvm" >"$tmp/llvm.n"
		cmp -s "$tmp/ours.n" "$tmp/llvm.n" ||
			fail "DWARF $v: not llvm-symbolizer's: $(diff "$tmp/ours.n" "$tmp/llvm.n")"
	fi
	# its .dwo gone: the lines stay, and a note says what is missing
	mv "$tmp/s$v-s.dwo" "$tmp/away.dwo"
	"$bin" --resolve -b "$tmp/s$v" $addrs >"$tmp/ours" 2>"$tmp/err" ||
		fail "DWARF $v: $(cat "$tmp/err")"
	grep -q "^cganalyze: $tmp/s$v: 1 compilation unit is split off (-gsplit-dwarf) into .dwo or .dwp files not found or not read (the first looked for as $tmp/s$v-s.dwo, $tmp/s$v.dwp): its lines are known, its inlined frames are not$" "$tmp/err" ||
		fail "DWARF $v: not said: $(cat "$tmp/err")"
	if [ $v = 4 ]; then
		addr2line -f -p -a -e "$tmp/s$v" $addrs >"$tmp/peer"
		cmp -s "$tmp/ours" "$tmp/peer" ||
			fail "DWARF $v: not addr2line's lines: $(diff "$tmp/ours" "$tmp/peer")"
		mv "$tmp/ours" "$tmp/ours4"
	else	# the same code, the same lines
		cmp -s "$tmp/ours" "$tmp/ours4" ||
			fail "DWARF 5: not DWARF 4's lines: $(diff "$tmp/ours" "$tmp/ours4")"
	fi
	grep -q 's.c:[0-9]' "$tmp/ours"* || fail "DWARF $v: no lines"
done
# clang's split DWARF (DW_AT_rnglists_base, its own forms): the frames
# of the unsplit clang build, from the .dwo
if command -v clang >/dev/null; then
	for v in 4 5; do
		(cd "$tmp" && clang -g -gdwarf-$v -gsplit-dwarf -O2 -o c$v s.c &&
		 clang -g -gdwarf-$v -O2 -o cw$v s.c) ||
			{ fail "clang -gsplit-dwarf failed"; continue; }
		addrs=$(objdump -d "$tmp/cw$v" | awk '/^[0-9a-f]+ <(work|main)>:/ { on = 1; next } /^$/ { on = 0 } on && /^ +[0-9a-f]+:/ { sub(":", "", $1); print "0x" $1 }')
		"$bin" --resolve --inlines -b "$tmp/c$v" $addrs >"$tmp/ours" 2>"$tmp/err"
		[ -s "$tmp/err" ] && fail "clang DWARF $v: said: $(cat "$tmp/err")"
		"$bin" --resolve --inlines -b "$tmp/cw$v" $addrs >"$tmp/whole"
		grep -q 'inlined by' "$tmp/ours" ||
			fail "clang DWARF $v: no inlined frame"
		cmp -s "$tmp/ours" "$tmp/whole" ||
			fail "clang DWARF $v: not the unsplit build's: $(diff "$tmp/ours" "$tmp/whole")"
	done
fi
# g++ -fdebug-types-section: a .debug_info.dwo (DWARF 5) or
# .debug_types.dwo (4) section per type unit, which libdwarf refuses as
# duplicated; read through a copy without them (symtab/dwo_types.c)
if command -v g++ >/dev/null; then
	cp tests/split-dwarf/*.cc tests/split-dwarf/shapes.h "$tmp"
	for v in 4 5; do
		(cd "$tmp" && for u in area main; do
			g++ -O2 -g -gdwarf-$v -gsplit-dwarf -fdebug-types-section \
				-c -o t$v-$u.o $u.cc &&
			g++ -O2 -g -gdwarf-$v -c -o tw$v-$u.o $u.cc || exit 1
		 done &&
		 g++ -o t$v t$v-area.o t$v-main.o &&
		 g++ -o tw$v tw$v-area.o tw$v-main.o) ||
			{ fail "g++ -fdebug-types-section failed"; continue; }
		[ "$(readelf -S "$tmp/t$v-area.dwo" | grep -c '\.debug_\(info\|types\)\.dwo')" -gt 2 ] ||
			fail "g++ DWARF $v: no section per type unit"
		addrs=$(objdump -d --section=.text "$tmp/tw$v" | awk '/^ +[0-9a-f]+:/ { sub(":", "", $1); print "0x" $1 }')
		"$bin" --resolve --inlines -b "$tmp/t$v" $addrs >"$tmp/ours" 2>"$tmp/err"
		[ -s "$tmp/err" ] && fail "types DWARF $v: said: $(cat "$tmp/err")"
		"$bin" --resolve --inlines -b "$tmp/tw$v" $addrs >"$tmp/whole"
		[ "$(grep -c 'inlined by' "$tmp/ours")" -gt 200 ] ||
			fail "types DWARF $v: too few inlined frames"
		cmp -s "$tmp/ours" "$tmp/whole" ||
			fail "types DWARF $v: not the unsplit build's: $(diff "$tmp/ours" "$tmp/whole" | head)"
	done
fi
# without -gsplit-dwarf: nothing said
"$bin" --resolve -b "$tmp/w5" 0x0 >/dev/null 2>"$tmp/err"
grep -q 'split off' "$tmp/err" && fail "whole DWARF said to be split"
exit $status
