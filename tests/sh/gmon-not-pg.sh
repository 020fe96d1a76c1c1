# A gmon.out read with a binary built without -pg: the same program's
# PIE, which cannot have written it (it never calls mcount). With a
# gmon.out of few arcs (three: main calls three functions once a round)
# the arcs' check let it through at a guessed load offset (0x400000: two
# of the three arcs then reach an entry) and the listing gave the
# program's time to the wrong function (slow_math 93%, where gprof
# with the right binary says cmp 85%; gprof -b with the wrong one lists
# no function). Now refused, saying why; --force-binary still uses it,
# with a warning; the right binary is read as before.
bin=$1
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
for tool in gcc gprof; do
	command -v $tool >/dev/null 2>&1 || { echo "$tool is not installed"; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "gmon-not-pg: $*"; status=1; }

cat >"$tmp/work.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline unsigned mix(unsigned x)
{
	x ^= x >> 13;
	x *= 0x5bd1e995u;
	return x ^ (x >> 15);
}

__attribute__((noinline)) unsigned hash_block(const unsigned char *p, size_t n)
{
	unsigned h = 0;
	for (size_t i = 0; i < n; i++)
		h = mix(h + p[i]);
	return h;
}

__attribute__((noinline)) double slow_math(int n)
{
	double s = 0;
	for (int i = 1; i < n; i++)
		s += 1.0 / ((double)i * i);
	return s;
}

static int cmp(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return x < y ? -1 : x > y;
}

__attribute__((noinline)) void sort_some(unsigned *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		v[i] = mix((unsigned)i * 2654435761u);
	qsort(v, n, sizeof(*v), cmp);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 200;
	static unsigned char buf[1 << 16];
	static unsigned v[1 << 15];
	unsigned h = 0;
	double s = 0;

	memset(buf, 7, sizeof(buf));
	for (int r = 0; r < rounds; r++) {
		h += hash_block(buf, sizeof(buf));
		s += slow_math(20000);
		sort_some(v, sizeof(v) / sizeof(v[0]));
	}
	printf("%u %f %u\n", h, s, v[7]);
	return 0;
}
C
cd "$tmp" || exit 1
gcc -O2 -g -pg -no-pie -fno-pie -o pg work.c &&
	gcc -O2 -g -pie -fPIE -o nopg work.c || { echo "gmon-not-pg: cannot build"; exit 77; }
./pg 100 >/dev/null || fail "the -pg program failed"
[ -s gmon.out ] || { fail "no gmon.out"; exit $status; }

"$bin" -b nopg gmon.out >out 2>err
rc=$?
[ $rc -eq 1 ] || fail "the binary built without -pg: exit $rc, expected 1: $(head -5 out)"
[ -s out ] && fail "the binary built without -pg: a listing on stdout: $(head -5 out)"
grep -q "^cganalyze: nopg: was not built with -pg (it never calls mcount), so it did not write the gmon.out: give the binary that did (--force-binary uses this one anyway)$" err ||
	fail "the binary built without -pg: not said: $(cat err)"

"$bin" -b nopg --force-binary gmon.out >out 2>err ||
	fail "--force-binary: $(cat err)"
grep -q "nopg: was not built with -pg .*used as --force-binary asks" err ||
	fail "--force-binary: no warning: $(cat err)"

# the binary that wrote it: no word of -pg, every function with time
# at gprof's share. Not "cmp first": in a run of a tenth of a second
# (ten ticks) _init and frame_dummy, which gprof charges too, can come
# before it (CI saw cmp [4] at 20.03%, as gprof said)
"$bin" -b pg gmon.out >out 2>err || fail "the -pg binary: $(cat err)"
grep -q "mcount" err && fail "the -pg binary: $(cat err)"
want=$(gprof -b -p pg gmon.out | awk 'NR > 5 && NF >= 4 && $1 > 0 { print $1, $NF }' | sort)
"$bin" -b pg -p gmon.out >out.p 2>/dev/null
got=$(awk '$1 ~ /^[0-9]+\.[0-9]+$/ && NF >= 4 && $1 > 0 { print $1, $NF }' out.p | sort)
[ -n "$want" ] && [ "$want" = "$got" ] ||
	fail "gprof's shares: $want; ours: ${got:-nothing}: $(head -8 out.p)"
# Linked with -pg, compiled without (gcc -c, then gcc -pg at the link):
# gcrt1.o starts the histogram (__monstartup), no code calls mcount, and
# the gmon.out has ticks and no arcs, which gprof lists. It was refused
# as "not built with -pg"; now listed as gprof lists it.
gcc -O2 -g -c -o plain.o work.c && gcc -pg -no-pie -o pglink plain.o ||
	{ fail "cannot link with -pg"; exit $status; }
rm -f gmon.out
./pglink 100 >/dev/null || fail "the program linked with -pg failed"
[ -s gmon.out ] || { fail "no gmon.out from the program linked with -pg"; exit $status; }
"$bin" -b pglink gmon.out >out 2>err || fail "linked with -pg: $(cat err)"
grep -q "mcount" err && fail "linked with -pg: $(cat err)"
want=$(gprof -b -p pglink gmon.out | awk 'NR > 5 && NF >= 4 { print $1, $NF; exit }')
got=$(awk '$NF ~ /^\[[0-9]+\]$/ && NF >= 5 { print $1, $(NF-1); exit }' out)
[ -n "$want" ] && [ "$want" = "$got" ] ||
	fail "linked with -pg: gprof's first line: $want; ours: ${got:-nothing}: $(head -8 out)"
[ $status -eq 0 ] && echo "gmon-not-pg: ok"
exit $status
