# gmon.out of a program whose shared library was built with -pg too:
# glibc records the calls from the program into the library with the
# library's addresses, outside the binary. gprof leaves those arcs out
# and prints the rest; so do we, saying how many went elsewhere, where
# we used to refuse the binary. Built, run and read by gprof here.
bin=$1
for tool in gcc gprof; do
	command -v $tool >/dev/null 2>&1 || { echo "$tool is not installed"; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "gmon-shlib: $*"; status=1; }

cat >"$tmp/lib.c" <<'EOF'
__attribute__((noinline)) unsigned lib_work(unsigned n)
{
	unsigned s = 0;

	for (unsigned i = 0; i < n; i++)
		s = s * 31u + i;
	return s;
}

__attribute__((noinline)) unsigned lib_twice(unsigned n)
{
	return lib_work(n) + lib_work(n / 2);
}
EOF
cat >"$tmp/main.c" <<'EOF'
#include <stdio.h>

unsigned lib_twice(unsigned n);

__attribute__((noinline)) static unsigned spin(unsigned n)
{
	unsigned s = 0;

	for (unsigned i = 0; i < n; i++)
		s += i % 7;
	return s;
}

__attribute__((noinline)) static unsigned work(unsigned k)
{
	return spin(k * 20000) + lib_twice(k * 500);
}

int main(void)
{
	unsigned s = 0;

	for (unsigned k = 0; k < 3000; k++)
		s += work(k % 100);
	printf("%u\n", s);
	return 0;
}
EOF
(
	cd "$tmp" &&
	gcc -pg -O2 -g -fPIC -shared -o libw.so lib.c &&
	gcc -pg -O2 -g -o prog main.c -L. -lw -Wl,-rpath,"$tmp" &&
	./prog >/dev/null
) || { echo "could not build and run the -pg program"; exit 1; }
[ -s "$tmp/gmon.out" ] || { echo "the -pg program wrote no gmon.out"; exit 1; }

"$bin" -b "$tmp/prog" "$tmp/gmon.out" >"$tmp/out" 2>"$tmp/err" ||
	fail "refused: $(cat "$tmp/err")"
grep -q 'warning' "$tmp/err" && fail "warned: $(cat "$tmp/err")"
grep -q '^cganalyze: 1 call arc goes into other objects (shared libraries built with -pg too): left out, as gprof leaves them out$' "$tmp/err" ||
	fail "no note about the arc into the library: $(cat "$tmp/err")"

# The call graph is gprof's, entry for entry, and so is the index after
# it (gprof starts that with a form feed where we leave a blank line).
# spin runs long enough for ticks (about 20): with none at all, gprof
# leaves main out (no time, no calls: its ignore_zeros) and numbers it
# after every symbol of the binary, where we list it; a difference
# still to remove, which a run of 0.01 s made this test fail by chance.
"$bin" -q --brief -b "$tmp/prog" "$tmp/gmon.out" | sed -n '/^index/,$p' >"$tmp/ours"
gprof -q -b "$tmp/prog" "$tmp/gmon.out" | sed -n '/^index/,$p' |
	sed "s/$(printf '\f')//" >"$tmp/gprof"
[ -s "$tmp/gprof" ] || fail "gprof printed no call graph"
diff "$tmp/gprof" "$tmp/ours" >"$tmp/diff" ||
	fail "the call graph differs from gprof's: $(cat "$tmp/diff")"
exit $status
