# A binary from another build of the same program, same file name, one
# function added above the others (every function after it moves): -b
# with it is an error that says what differs and what to do, for every
# listing that takes -b; --force-binary goes on with a warning; the
# binary that was profiled is taken without a word; the report, which
# takes the recorded object itself, goes on without it. Built and
# profiled here, with gcc and valgrind, so the pair is real.
bin=$1
for tool in gcc valgrind; do
	command -v $tool >/dev/null 2>&1 || { echo "$tool is not installed"; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "wrong-binary: $*"; status=1; }

cat >"$tmp/prog.c" <<'EOF'
#include <stdlib.h>

#define N 2000
#define NOINLINE __attribute__((noinline, noclone))

#ifdef EXTRA
NOINLINE static unsigned checksum(const unsigned *v, unsigned n)
{
	unsigned sum = 0;

	for (unsigned i = 0; i < n; i++)
		sum = sum * 31u + v[i];
	return sum;
}
#endif

NOINLINE static void fill(unsigned *v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		v[i] = (i * 2654435761u) >> 7;
}

NOINLINE static unsigned count_odd(const unsigned *v, unsigned n)
{
	unsigned c = 0;

	for (unsigned i = 0; i < n; i++)
		c += v[i] & 1;
	return c;
}

NOINLINE static unsigned long fib(unsigned n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

int main(int argc, char **argv)
{
	static unsigned v[N];

	(void)argv;
#ifdef EXTRA
	if (argc > 5)
		return (int)checksum(v, N);
#endif
	fill(v, N);
	return (int)((count_odd(v, N) + fib(16) + (unsigned)argc) & 1);
}
EOF
mkdir "$tmp/built" "$tmp/other"
gcc -g -O2 -o "$tmp/built/prog" "$tmp/prog.c" || { echo "gcc failed"; exit 1; }
gcc -g -O2 -DEXTRA -o "$tmp/other/prog" "$tmp/prog.c" || { echo "gcc failed"; exit 1; }
valgrind -q --tool=callgrind --dump-instr=yes --collect-jumps=yes \
	--callgrind-out-file="$tmp/cg.out" "$tmp/built/prog" >/dev/null 2>&1
[ -s "$tmp/cg.out" ] || { echo "valgrind wrote no profile"; exit 1; }

# The right binary: no message.
for args in "-p --brief" "--disasm=fill" "--annotate=fill"; do
	# shellcheck disable=SC2086
	"$bin" $args -b "$tmp/built/prog" "$tmp/cg.out" >"$tmp/out" 2>"$tmp/err" ||
		fail "$args with the profiled binary failed: $(cat "$tmp/err")"
	grep -q 'warning\|not the binary' "$tmp/err" &&
		fail "$args with the profiled binary: $(cat "$tmp/err")"
done

# The other build: refused, nothing on standard output.
for args in "-p --brief" "--disasm=fill" "--annotate=fill" "--json" "--output=callgrind"; do
	# shellcheck disable=SC2086
	"$bin" $args -b "$tmp/other/prog" "$tmp/cg.out" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 1 ] || fail "$args with another build: exit $rc, not 1"
	[ -s "$tmp/out" ] && fail "$args with another build printed a listing"
	grep -q "other/prog: not the binary the profile's '$tmp/built/prog' was taken from" "$tmp/err" ||
		fail "$args with another build: no mismatch error, got: $(cat "$tmp/err")"
	grep -q "give the binary that was profiled, or profile this one again (--force-binary uses it anyway)" "$tmp/err" ||
		fail "$args with another build: the error does not say what to do: $(cat "$tmp/err")"
done

# --force-binary: the listing, and a warning.
"$bin" --force-binary --disasm=fill -b "$tmp/other/prog" "$tmp/cg.out" >"$tmp/out" 2>"$tmp/err" ||
	fail "--force-binary failed: $(cat "$tmp/err")"
[ -s "$tmp/out" ] || fail "--force-binary printed no listing"
grep -q "warning: .*other/prog: not the binary .*used anyway (--force-binary)" "$tmp/err" ||
	fail "--force-binary: no warning, got: $(cat "$tmp/err")"
# The report without -b takes the recorded object for its Disassembly;
# when the file at that path is now another build, the report is still
# written, without that view, and says why.
"$bin" --output=html -o "$tmp/right.html" "$tmp/cg.out" 2>"$tmp/err" ||
	fail "--output=html of the profiled build failed: $(cat "$tmp/err")"
grep -q '"disasm": \[$' "$tmp/right.html" ||
	fail "--output=html of the profiled build has no Disassembly"
cp "$tmp/built/prog" "$tmp/built.keep"
cp "$tmp/other/prog" "$tmp/built/prog"
"$bin" --output=html -o "$tmp/wrong.html" "$tmp/cg.out" 2>"$tmp/err" ||
	fail "--output=html with another build at the recorded path failed: $(cat "$tmp/err")"
grep -q "warning: the report has no Disassembly: '$tmp/built/prog', the object the profile records, is not the build that was profiled" "$tmp/err" ||
	fail "--output=html with another build: no warning, got: $(cat "$tmp/err")"
grep -q '"disasm": \[\]' "$tmp/wrong.html" ||
	fail "--output=html with another build listed its code"
cp "$tmp/built.keep" "$tmp/built/prog"
exit $status
