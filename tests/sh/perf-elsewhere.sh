# A perf.data read on another machine than the one it was recorded on
# (tests/perf/fp.data: recorded on kernel 6.18.44-fc-v769, its objects
# in /tmp/cganalyze-perf), with a HOME of our own so that this
# machine's build-id cache plays no part.
#
# 1. perf archive's tarball unpacked into ~/.debug: the objects by their
#    build-id (.build-id/ab/cdef... -> ../../PATH/ID, PATH/ID/elf) and
#    the kernel's symbols ([kernel.kallsyms]/ID/kallsyms). perf report
#    names the kernel's functions from there; we said "its kernel code
#    is one function" before.
# 2. An object found nowhere: its samples are offsets (prog+0x11cb), as
#    perf report prints them, and a warning says which objects, their
#    share and where to put their files; before, nothing was said.
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "perf-elsewhere: $*"; status=1; }
kid=abf9ec0ec5946600c90641cf5db998472fac410b	# perf buildid-list -i fp.data
pid=ba5cf15979552375f1cfe25f7aa4e76d0c69f3b9
lid=664c69bae31c2c0464c937264a33c6ee33d60093
# On the kernel that made the recording, /proc/kallsyms names its code
# (resolve_perf.c's recorded_here()) and the cache is not looked at: the
# cases below would fail for a machine's kernel, not for our code.
[ "$(uname -r)" = 6.18.44-fc-v769 ] && {
	echo "perf-elsewhere: running the recording's kernel"; exit 77; }

# perf archive's layout, as tar tjf fp.data.tar.bz2 lists it
d=$tmp/home/.debug
mkdir -p "$d/[kernel.kallsyms]/$kid" "$d/tmp/cganalyze-perf/prog/$pid" \
	"$d/tmp/cganalyze-perf/libwork.so/$lid" "$d/.build-id/ba" "$d/.build-id/66"
cp tests/perf/kallsyms "$d/[kernel.kallsyms]/$kid/kallsyms"
cp tests/perf/prog "$d/tmp/cganalyze-perf/prog/$pid/elf"
cp tests/perf/libwork.so "$d/tmp/cganalyze-perf/libwork.so/$lid/elf"
ln -s "../../tmp/cganalyze-perf/prog/$pid" "$d/.build-id/ba/${pid#ba}"
ln -s "../../tmp/cganalyze-perf/libwork.so/$lid" "$d/.build-id/66/${lid#66}"
mkdir "$tmp/empty"

# what the files given by hand make: the answer
"$bin" -p --brief --threshold=0 -b tests/perf/prog -b tests/perf/libwork.so \
	--sysroot="$tmp/empty" --kallsyms=tests/perf/kallsyms tests/perf/fp.data \
	>"$tmp/want" 2>"$tmp/err" || fail "by hand: $(cat "$tmp/err")"
grep -q '  pvm_irq_enable$' "$tmp/want" || fail "by hand: no kernel names"
grep -q '  leaf$' "$tmp/want" || fail "by hand: no leaf"

# the unpacked archive, as the cache of the user's HOME and under --sysroot
HOME=$tmp/home "$bin" -p --brief --threshold=0 tests/perf/fp.data \
	>"$tmp/out" 2>"$tmp/err" || fail "archive: $(cat "$tmp/err")"
cmp -s "$tmp/want" "$tmp/out" ||
	fail "archive in HOME: $(diff "$tmp/want" "$tmp/out")"
grep -q "^cganalyze: symbols from $d/\[kernel.kallsyms\]/$kid/kallsyms for \[kernel.kallsyms\] (found by its build-id)$" "$tmp/err" ||
	fail "archive in HOME: the kernel's symbols not said: $(cat "$tmp/err")"
mkdir -p "$tmp/root$tmp"
mv "$tmp/home" "$tmp/root$tmp/home"
HOME=$tmp/home "$bin" -p --brief --threshold=0 --sysroot="$tmp/root" \
	tests/perf/fp.data >"$tmp/out" 2>"$tmp/err" ||
	fail "archive under --sysroot: $(cat "$tmp/err")"
cmp -s "$tmp/want" "$tmp/out" ||
	fail "archive under --sysroot: $(diff "$tmp/want" "$tmp/out")"

# --sysroot=DIR: perf report --symfs=DIR takes DIR/.debug as its cache
# (perf 6.1: symbol__config_symfs() sets the build-id directory there)
# and does not look at ~/.debug; we did not look at DIR/.debug (only
# DIR/$HOME/.debug). Now both as perf: DIR/.debug names the functions,
# this machine's ~/.debug does not (--sysroot says where the recording
# machine's files are; a listing must not change with what other
# recordings left here). The caches are made by perf buildid-cache -a,
# into HOMEs of our own.
if command -v perf >/dev/null 2>&1; then
	for o in prog libwork.so; do
		HOME=$tmp/cache perf buildid-cache -a "$PWD/tests/perf/$o" \
			>/dev/null 2>&1 || fail "perf buildid-cache -a $o failed"
	done
	HOME=$tmp/cache "$bin" -p --brief --threshold=0 --sysroot="$tmp/empty" \
		--kallsyms=tests/perf/kallsyms tests/perf/fp.data \
		>"$tmp/out" 2>"$tmp/err" || fail "~/.debug: $(cat "$tmp/err")"
	grep -q '  prog+0x11cb$' "$tmp/out" ||
		fail "--sysroot and this machine's ~/.debug: used: $(cat "$tmp/out")"
	mkdir -p "$tmp/symfs"
	mv "$tmp/cache/.debug" "$tmp/symfs/.debug"
	HOME=$tmp/empty "$bin" -p --brief --threshold=0 --sysroot="$tmp/symfs" \
		--kallsyms=tests/perf/kallsyms tests/perf/fp.data \
		>"$tmp/out" 2>"$tmp/err" || fail "symfs: $(cat "$tmp/err")"
	cmp -s "$tmp/want" "$tmp/out" ||
		fail "--sysroot=DIR and DIR/.debug: $(diff "$tmp/want" "$tmp/out")"
	# and the kernel's symbols there too, as perf archive keeps them
	mkdir -p "$tmp/symfs/.debug/[kernel.kallsyms]/$kid"
	cp tests/perf/kallsyms "$tmp/symfs/.debug/[kernel.kallsyms]/$kid/kallsyms"
	HOME=$tmp/empty "$bin" -p --brief --threshold=0 --sysroot="$tmp/symfs" \
		tests/perf/fp.data >"$tmp/out" 2>"$tmp/err" ||
		fail "symfs kernel: $(cat "$tmp/err")"
	cmp -s "$tmp/want" "$tmp/out" ||
		fail "--sysroot=DIR and DIR/.debug's kernel: $(diff "$tmp/want" "$tmp/out")"
fi

# nothing anywhere: offsets, and said
HOME=$tmp/empty "$bin" -p --brief --sysroot="$tmp/empty" \
	--kallsyms=tests/perf/kallsyms tests/perf/fp.data \
	>"$tmp/out" 2>"$tmp/err" || fail "nothing: $(cat "$tmp/err")"
grep -q '  prog+0x11cb$' "$tmp/out" || fail "nothing: no offsets: $(cat "$tmp/out")"
grep -q "^cganalyze: warning: tests/perf/fp.data: 196 of the 204 samples (96.1%) are in objects with no symbols here, shown as offsets: /tmp/cganalyze-perf/prog (126 samples, build-id $pid), /tmp/cganalyze-perf/libwork.so (70 samples, build-id $lid); looked for at their recorded paths under $tmp/empty and by build-id" "$tmp/err" ||
	fail "nothing: not said: $(cat "$tmp/err")"
# the kernel's copy in the archive is not used for another kernel build
mkdir -p "$tmp/other/.debug/[kernel.kallsyms]/0123456789abcdef0123456789abcdef01234567"
cp tests/perf/kallsyms "$tmp/other/.debug/[kernel.kallsyms]/0123456789abcdef0123456789abcdef01234567/kallsyms"
HOME=$tmp/other "$bin" -p --brief --threshold=0 --sysroot="$tmp/empty" \
	-b tests/perf/prog -b tests/perf/libwork.so tests/perf/fp.data \
	>"$tmp/out" 2>"$tmp/err" || fail "another kernel: $(cat "$tmp/err")"
grep -q '  pvm_irq_enable$' "$tmp/out" &&
	fail "another kernel build's symbols were used"
grep -q 'its kernel code is one function' "$tmp/err" ||
	fail "another kernel: not said: $(cat "$tmp/err")"
# the cache's copy of a recording made without the right to see kernel
# addresses (all 0): not said to name the kernel's code, which it does
# not; the note of the kernel unnamed instead
mkdir -p "$tmp/zeros/.debug/[kernel.kallsyms]/$kid"
sed 's/^[0-9a-f]* /0000000000000000 /' tests/perf/kallsyms \
	>"$tmp/zeros/.debug/[kernel.kallsyms]/$kid/kallsyms"
HOME=$tmp/zeros "$bin" -p --brief --threshold=0 \
	-b tests/perf/prog -b tests/perf/libwork.so tests/perf/fp.data \
	>"$tmp/out" 2>"$tmp/err" || fail "cached zeros: $(cat "$tmp/err")"
grep -q 'symbols from .* for \[kernel.kallsyms\]' "$tmp/err" &&
	fail "cached zeros: said to name the kernel: $(cat "$tmp/err")"
grep -q 'its kernel code is one function' "$tmp/err" ||
	fail "cached zeros: not said: $(cat "$tmp/err")"
exit $status
