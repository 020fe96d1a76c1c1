# --call-graph dwarf stacks unwound on a second thread (perf_par.h)
# must give what one thread gives, byte for byte (stdout, stderr, exit
# status): the samples are added in file order whoever unwound them.
# CGANALYZE_UNWIND_THREAD=0 unwinds on the reading thread alone, 1 on
# both threads (which takes which varies from run to run), "alone" on
# the second thread alone, so that its unwinder, made apart from the
# first, unwinds every sample. Every committed recording, the
# --call-graph dwarf ones with their binaries and kallsyms too, each
# with the listings the tests of perf.data compare, the reading ahead
# and the symbol tables' thread off and on; and CGANALYZE_UNWIND=check
# on the second thread (its unwinder's rows against libdwfl, counted
# with the first's).
bin=$1
status=0
fail() { echo "perf-unwind-thread: $*"; status=1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run() {
	# shellcheck disable=SC2086
	env $1 "$bin" $2 >"$tmp/out" 2>"$tmp/err"
	echo "status $?" >>"$tmp/out"
	cat "$tmp/err" >>"$tmp/out"
	md5sum <"$tmp/out"
}

n=0
for args in tests/perf/*.data \
	"-b tests/perf/prog -b tests/perf/libwork.so --sysroot=tests/perf --kallsyms=tests/perf/kallsyms tests/perf/dwarf.data" \
	"-b tests/perf/cxx --sysroot=tests/perf --kallsyms=tests/perf/kallsyms tests/perf/cxx.data" \
	"--debug-dir=/debug -b tests/perf/dbgframe --sysroot=tests/perf tests/perf/dbgframe.data"; do
	for opt in "" --json --tree --output=folded --threshold=0; do
		for reader in 0 1; do
			one=$(run "CGANALYZE_READER_THREAD=$reader CGANALYZE_UNWIND_THREAD=0" "$opt $args")
			for way in 1 alone; do
				two=$(run "CGANALYZE_READER_THREAD=$reader CGANALYZE_UNWIND_THREAD=$way" "$opt $args")
				[ "$one" = "$two" ] ||
					fail "$opt $args: CGANALYZE_READER_THREAD=$reader, unwound on the second thread ($way) differs from one thread"
				n=$((n + 1))
			done
		done
	done
done
[ $n -ge 100 ] || fail "only $n comparisons"

# the second thread's unwinder checked against libdwfl, sample for
# sample, and its counts added to the first's
said=$(CGANALYZE_UNWIND=check CGANALYZE_UNWIND_THREAD=alone "$bin" -q \
	-b tests/perf/prog -b tests/perf/libwork.so --sysroot=tests/perf \
	tests/perf/dwarf.data 2>&1 >/dev/null | grep 'unwinding checked')
case $said in
*"checked: 0 samples"*) fail "no sample unwound by the second thread: $said" ;;
*" samples unwound by the cached CFI rows, 0 of them differently by libdwfl") ;;
*) fail "the second thread's check: ${said:-no word of it}" ;;
esac
exit $status
