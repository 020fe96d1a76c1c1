# --resolve on a binary whose DWARF sections are compressed (gcc -gz, as
# Debian's -dbg packages ship them), against addr2line. The checks of
# range lists before libdwarf reads them (symtab/dwarf_check.c) asked
# libelf for .debug_rnglists first; asked again, libelf said it was no
# longer compressed, and the file's compressed bytes were taken for the
# list: every compilation unit with DW_AT_ranges was skipped as
# corrupt (148 of 300 libc functions lost their lines with libc6-dbg).
bin=$1
command -v gcc >/dev/null && command -v addr2line >/dev/null ||
	{ echo "needs gcc and addr2line"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
# main in .text.startup and the rest in .text: the unit has DW_AT_ranges
cat >"$tmp/gz.c" <<'SRC'
#include <stdio.h>
#include <stdlib.h>
static int __attribute__((noinline)) twice(int x) { return 2 * x + rand() % 3; }
int __attribute__((noinline)) total(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += twice(i);
	return s;
}
void __attribute__((noinline, cold)) fail(const char *why)
{
	fprintf(stderr, "%s\n", why);
	exit(1);
}
int main(int argc, char **argv)
{
	if (argc > 2)
		fail("too many");
	printf("%d\n", total(argc > 1 ? atoi(argv[1]) : 10));
	return 0;
}
SRC
gcc -g -O2 -gz -o "$tmp/gz" "$tmp/gz.c" || { echo "gcc -gz failed"; exit 77; }
readelf -S -W "$tmp/gz" | grep -q 'debug_rnglists.* C ' ||
	{ echo "no compressed .debug_rnglists: not the case tested"; exit 77; }
addrs=$(nm "$tmp/gz" | awk '$2 ~ /^[Tt]$/ && $3 ~ /^(main|total|fail|twice)/ { print "0x" $1 }')
[ "$(echo "$addrs" | wc -l)" -ge 4 ] || { echo "functions missing: $addrs"; exit 1; }
"$bin" --resolve -b "$tmp/gz" $addrs >"$tmp/ours" 2>"$tmp/err" ||
	{ echo "resolve failed: $(cat "$tmp/err")"; exit 1; }
grep -q corrupt "$tmp/err" && { echo "warned: $(cat "$tmp/err")"; status=1; }
addr2line -f -p -a -e "$tmp/gz" $addrs >"$tmp/peer"
if ! cmp -s "$tmp/ours" "$tmp/peer"; then
	echo "resolve-compressed: not addr2line's answer:"
	diff "$tmp/ours" "$tmp/peer"
	status=1
fi
grep -q 'gz.c:[0-9]' "$tmp/ours" || { echo "no line numbers: $(cat "$tmp/ours")"; status=1; }
exit $status
