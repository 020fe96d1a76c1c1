# A binary stripped with strip -g (its symbol table kept, its STT_FILE
# symbols and DWARF gone) and its debug file found by .gnu_debuglink:
# --resolve answers as addr2line -f -C -i -a -p does for every address
# of .text. addr2line names the file of an address without a line row
# (a function's cold part, crtstuff.c's functions) from the debug
# file's STT_FILE symbols; we printed ??:? there. Made here; skipped
# without gcc, objcopy, strip or addr2line.
bin=$1
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for t in gcc objcopy strip addr2line objdump; do
	command -v $t >/dev/null 2>&1 || { echo "no $t"; exit 77; }
done
cat >"$tmp/p.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
static inline int sq(int x) { return x * x; }
__attribute__((noinline)) static int work(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += sq(i);
	if (s < 0) {
		fprintf(stderr, "overflow\n");
		abort();
	}
	return s;
}
int main(int argc, char **argv)
{
	printf("%d\n", work(argc > 1 ? atoi(argv[1]) : 100));
	return 0;
}
C
gcc -g -O2 -o "$tmp/p" "$tmp/p.c" &&
	objcopy --only-keep-debug "$tmp/p" "$tmp/p.debug" &&
	strip -g "$tmp/p" &&
	objcopy --add-gnu-debuglink="$tmp/p.debug" "$tmp/p" ||
	{ echo "cannot build the stripped binary"; exit 77; }
# every third byte of .text, as link-time addresses
set -- $(objdump -h "$tmp/p" | awk '$2 == ".text" { print $4, $3 }')
[ $# = 2 ] || { echo "no .text in the binary"; exit 77; }
a=$((0x$1))
end=$((0x$1 + 0x$2))
while [ $a -lt $end ]; do
	printf '0x%x\n' $a
	a=$((a + 3))
done >"$tmp/addrs"
[ -s "$tmp/addrs" ] || { echo "no .text in the binary"; exit 77; }
(cd "$tmp" && addr2line -f -C -i -a -p -e p <addrs >want)
(cd "$tmp" && "$bin" --resolve --inlines -b p <addrs >got 2>err) ||
	{ echo "strip-debug-files: --resolve failed:"; cat "$tmp/err"; exit 1; }
# addr2line repeats frame #0's discriminator on each "(inlined by)"
# line, where we print the frame's own (tests/test_resolve_peers.c):
# those are left out on both sides
for f in want got; do
	sed '/^ (inlined by) /s/ (discriminator [0-9]*)$//' "$tmp/$f" >"$tmp/$f.cmp"
done
if ! cmp -s "$tmp/want.cmp" "$tmp/got.cmp"; then
	echo "strip-debug-files: --resolve differs from addr2line:"
	diff "$tmp/want.cmp" "$tmp/got.cmp" | head -20
	exit 1
fi
exit 0
