# gprof's "Index by function name" after the call graph of a gmon.out:
# ours must be gprof's, character for character (the gmon.out listings
# are a drop-in for gprof -b). A program with static and global
# functions, a cycle, and functions with calls but no time, built with
# -pg, run, and read by gprof and by us; then again with -Q, where the
# index shows the entries the graph leaves out as "(N)".
bin=$1
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
for tool in gcc gprof; do
	command -v $tool >/dev/null 2>&1 || { echo "$tool is not installed"; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "gmon-index: $*"; status=1; }

cat >"$tmp/prog.c" <<'EOF'
#include <stdio.h>

static unsigned sink;

__attribute__((noinline)) static unsigned spin(unsigned n)
{
	unsigned s = 0;

	for (unsigned i = 0; i < n; i++)
		s = s * 31u + i % 7;
	return s;
}

__attribute__((noinline)) unsigned ping(unsigned n);

__attribute__((noinline)) static unsigned pong(unsigned n)
{
	return n ? ping(n - 1) + spin(2000) : 0;
}

__attribute__((noinline)) unsigned ping(unsigned n)
{
	return n ? pong(n - 1) + spin(1000) : 0;
}

__attribute__((noinline)) void a_tiny_global_helper(void) { sink++; }
__attribute__((noinline)) static void zeta(void) { sink += 2; }
__attribute__((noinline)) static void alpha(void) { sink += 3; }
__attribute__((noinline)) void middle_of_the_alphabet(void) { sink += spin(100); }

int main(void)
{
	for (int r = 0; r < 3000; r++) {
		sink += ping(40);
		a_tiny_global_helper();
		zeta();
		alpha();
		middle_of_the_alphabet();
	}
	printf("%u\n", sink);
	return 0;
}
EOF
(cd "$tmp" && gcc -O1 -g -pg -o prog prog.c && ./prog >/dev/null) ||
	{ echo "gmon-index: could not build or run the -pg program"; exit 1; }
[ -s "$tmp/gmon.out" ] || { echo "gmon-index: the program wrote no gmon.out"; exit 1; }

index_of() { sed -n '/^Index by function name$/,$p' | grep -v "$(printf '\f')"; }
for sel in "" "-Qspin"; do
	(cd "$tmp" && gprof -b $sel prog gmon.out) | index_of >"$tmp/gprof"
	(cd "$tmp" && "$bin" --brief $sel -b prog gmon.out 2>/dev/null) | index_of >"$tmp/ours"
	[ "$(wc -l <"$tmp/gprof")" -ge 4 ] || fail "gprof $sel printed no index"
	diff "$tmp/gprof" "$tmp/ours" >"$tmp/diff" ||
		fail "the index${sel:+ with $sel} differs from gprof's: $(cat "$tmp/diff")"
done
grep -q ' (prog.c)' "$tmp/ours" || fail "no static function was marked with its file"
grep -q '<cycle 1>' "$tmp/ours" || fail "the cycle is not in the index"
exit $status
