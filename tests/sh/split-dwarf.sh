# -gsplit-dwarf (DWARF 5 and GCC's DWARF 4 form): the binary keeps a
# skeleton unit and the line table; functions and inlined calls are in
# the .dwo, which we do not read. The lines are addr2line's (binutils
# 2.40) for DWARF 4 and the same for DWARF 5, where addr2line answers
# ??:? (it reads no .dwo and no split skeleton's lines); the inlined
# frames, which llvm-symbolizer gives from the .dwo, are missing, and a
# note says so:
# before, --resolve --inlines, --inlined=callee and --inline-calls
# silently had none.
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
	(cd "$tmp" && gcc -g -gdwarf-$v -gsplit-dwarf -O2 -o s$v s.c) ||
		{ echo "gcc -gsplit-dwarf failed"; exit 77; }
	addrs=$(objdump -d "$tmp/s$v" | awk '/^[0-9a-f]+ <work>:/ { on = 1; next } /^$/ { on = 0 } on && /^ +[0-9a-f]+:/ { sub(":", "", $1); print "0x" $1 }')
	"$bin" --resolve -b "$tmp/s$v" $addrs >"$tmp/ours" 2>"$tmp/err" ||
		fail "DWARF $v: $(cat "$tmp/err")"
	grep -q "^cganalyze: $tmp/s$v: 1 compilation unit is split off (-gsplit-dwarf) into .dwo or .dwp files, which are not read: its lines are known, its inlined frames are not" "$tmp/err" ||
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
# without -gsplit-dwarf: nothing said
(cd "$tmp" && gcc -g -O2 -o whole s.c) || exit 77
"$bin" --resolve -b "$tmp/whole" 0x0 >/dev/null 2>"$tmp/err"
grep -q 'split off' "$tmp/err" && fail "whole DWARF said to be split"
exit $status
