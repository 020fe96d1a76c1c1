# A perf.data's listings of code read the sampled objects' DWARF; a
# recording of a build maps 25 objects, 22 of them without DWARF on a
# system with no debug packages, and a line each for those and for the
# files read at their recorded paths was 50 lines on standard error,
# burying the warnings that matter. The objects without DWARF are said
# in one warning, the files at their recorded paths in one note; a file
# found elsewhere (--sysroot) keeps its own note.
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "perf-notes: $*"; status=1; }

# the recording's two objects (build-ids kept), stripped of their DWARF,
# under a --sysroot
root=$tmp/root/tmp/cganalyze-perf
mkdir -p "$root"
strip --strip-debug -o "$root/prog" tests/perf/prog &&
	strip --strip-debug -o "$root/libwork.so" tests/perf/libwork.so ||
	{ echo "perf-notes: strip failed"; exit 1; }
"$bin" --annotate=leaf --sysroot="$tmp/root" --kallsyms=tests/perf/kallsyms \
	tests/perf/fp.data >/dev/null 2>"$tmp/err" ||
	fail "--annotate under a stripped sysroot failed: $(cat "$tmp/err")"
[ "$(grep -c 'no DWARF' "$tmp/err")" -eq 1 ] ||
	fail "not one warning of the objects without DWARF: $(cat "$tmp/err")"
grep -q '^cganalyze: warning: 2 of the 2 sampled objects have no DWARF debug info, .*: prog, libwork.so ' "$tmp/err" ||
	fail "the warning does not name both objects: $(cat "$tmp/err")"
# found under --sysroot, not at the recorded path: a note each
for f in prog libwork.so; do
	grep -q "^cganalyze: symbols from $root/$f for /tmp/cganalyze-perf/$f (the recorded file)\$" "$tmp/err" ||
		fail "no note of $f read under --sysroot: $(cat "$tmp/err")"
done

# one object without DWARF: its path, as before
cp tests/perf/libwork.so "$root/libwork.so"
"$bin" --annotate=leaf --sysroot="$tmp/root" --kallsyms=tests/perf/kallsyms \
	tests/perf/fp.data >/dev/null 2>"$tmp/err"
grep -q "^cganalyze: warning: $root/prog: no DWARF debug info: functions from the symbol table only, no files or lines (build with -g, or install its debug file; --debug-dir=DIR looks elsewhere)$" "$tmp/err" ||
	fail "one object without DWARF: $(cat "$tmp/err")"
[ "$(grep -c 'no DWARF' "$tmp/err")" -eq 1 ] ||
	fail "one object without DWARF, more than one warning: $(cat "$tmp/err")"

# a program recorded now (where gcc and perf record can run): its
# objects (the program, libc, the loader) at their recorded paths, in
# one note that names them
made=$tmp/made
mkdir -p "$made"
# half its time in libc's memset: samples in two objects
cat >"$made/spin.c" <<'EOF'
#include <string.h>
char buf[1 << 16];
void *(*volatile ms)(void *, int, size_t) = memset;
int main(void)
{
	for (int i = 0; i < 8000; i++) {
		ms(buf, i, sizeof buf);
		for (volatile int j = 0; j < 30000; j++)
			;
	}
	return 0;
}
EOF
if gcc -O1 -o "$made/spin" "$made/spin.c" 2>/dev/null &&
	perf record -q -N -F 499 -g -o "$made/x.data" "$made/spin" >/dev/null 2>&1; then
	"$bin" --output=html -o "$made/r.html" "$made/x.data" 2>"$tmp/err" ||
		fail "the report of a recording made now failed: $(cat "$tmp/err")"
	n=$(grep -c '^cganalyze: symbols from ' "$tmp/err")
	if grep -q '^cganalyze: symbols from the recorded files, at the paths recorded, for [0-9]* objects: ' "$tmp/err"; then
		grep '^cganalyze: symbols from the recorded files' "$tmp/err" | grep -q '[:,] spin[,.]' ||
			fail "the note of the recorded files does not name spin: $(cat "$tmp/err")"
		[ "$n" -eq 1 ] || fail "the recorded files at their paths: $n notes, not one: $(cat "$tmp/err")"
	else
		# a single object sampled keeps its own note
		[ "$n" -eq 1 ] && grep -q "^cganalyze: symbols from $made/spin for $made/spin (the recorded file)\$" "$tmp/err" ||
			fail "no note of the recorded files: $(cat "$tmp/err")"
	fi
	[ "$(grep -c 'no DWARF' "$tmp/err")" -le 1 ] ||
		fail "more than one warning of objects without DWARF: $(cat "$tmp/err")"
else
	echo "perf-notes: no recording made here (gcc or perf record failed): that part skipped"
fi
exit $status
