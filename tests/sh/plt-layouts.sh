# The @plt stubs symtab/plt_elf.c reads from the ELF, on each PLT
# layout this system's ld makes: lazy .plt, -z now (.plt.got only),
# IBT (-fcf-protection -z ibtplt: .plt + .plt.sec, and with -z now),
# non-PIE, and a library calling a hidden ifunc (an IRELATIVE slot,
# named "*ABS*+0xADDR@plt" by bfd). Two peers: libbfd's
# bfd_get_synthetic_symtab() (tests/test_plt_elf compares address, end
# and name, and fails on any difference or a layout left to libbfd),
# and objdump -d's "<name@plt>:" labels in the .plt sections.
# (the binary, $1, is not run here)
here=$(cd "$(dirname "$0")/../.." && pwd)
t=$here/build/tests/test_plt_elf
command -v cc >/dev/null && command -v objdump >/dev/null ||
	{ echo "no cc or objdump"; exit 77; }
[ -x "$t" ] || { echo "no $t (make unit-tests)"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
status=0
cat > "$dir/main.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
extern int work(int);
int (*fp)(const char *) = puts;	/* a GLOB_DAT slot: .plt.got */
int main(int argc, char **argv)
{
	printf("%d\n", work(argc));
	fp(argv[0]);
	return abs(argc) > 5;
}
EOF
cat > "$dir/lib.c" <<'EOF'
#include <string.h>
static int fast(int x) { return x + 1; }
static int slow(int x) { return x + 2; }
static int (*pick(void))(int) { return strlen("a") ? fast : slow; }
__attribute__((visibility("hidden"))) int pick_it(int)
	__attribute__((ifunc("pick")));
int work(int x) { return pick_it(x) + (int)strlen("ab"); }
EOF
: > "$dir/list"
for v in lazy: now:-Wl,-z,now "ibt:-fcf-protection -Wl,-z,ibtplt" \
	"ibtnow:-fcf-protection -Wl,-z,ibtplt -Wl,-z,now" nopie:-no-pie \
	"ibtnopie:-no-pie -fcf-protection -Wl,-z,ibtplt"; do
	n=${v%%:*}
	f=${v#*:}
	# shellcheck disable=SC2086
	cc -O1 -fPIC -shared $(echo "$f" | sed 's/-no-pie//') \
		-o "$dir/lib$n.so" "$dir/lib.c" &&
	cc -O1 $f -o "$dir/prog$n" "$dir/main.c" "$dir/lib$n.so" ||
		{ echo "cannot build the $n variant"; exit 77; }
	echo "$dir/prog$n" >> "$dir/list"
	echo "$dir/lib$n.so" >> "$dir/list"
done
out=$(CGA_PLT_VERBOSE=1 CGA_PLT_DUMP=1 CGA_PLT_FILES="$dir/list" "$t" 2>&1) ||
	{ printf '%s\n' "$out"; echo "our stubs differ from libbfd's"; status=1; }
echo "$out" | grep -q "^libbfd's" &&
	{ echo "$out" | grep "^libbfd's"; echo "a layout left to libbfd"; status=1; }
echo "$out" | grep -q ' 12 read by plt_elf.c' ||
	{ printf '%s\n' "$out"; echo "not the 12 objects read"; status=1; }
echo "$out" | grep -q '<\*ABS\*+0x[0-9a-f]*@plt>' ||
	{ echo "no IRELATIVE stub in the ifunc library"; status=1; }
echo "$out" | grep -q '<work@plt>' || { echo "no work@plt"; status=1; }
# objdump's labels: the same (address, name) pairs
while read -r f; do
	objdump -d -j .plt -j .plt.sec -j .plt.got "$f" 2>/dev/null |
		sed -n 's/^0*\([0-9a-f][0-9a-f]*\) <\(.*@plt\)>:$/\1 <\2>/p' |
		sort > "$dir/objdump"
	echo "$out" | awk -v f="$f" '$1 == "dump" && $2 == f { print $3, $4 }' |
		sort > "$dir/ours"
	[ -s "$dir/ours" ] || { echo "$f: no stubs"; status=1; }
	cmp -s "$dir/objdump" "$dir/ours" ||
		{ echo "$f: objdump -d's labels differ:"; diff "$dir/objdump" "$dir/ours"; status=1; }
done < "$dir/list"
# the run's use of them: tests/sh/lazy-libraries.sh (--disasm's
# <printf@plt>) and the e2e cases
exit $status
