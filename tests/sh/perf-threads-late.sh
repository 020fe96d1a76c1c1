# A perf.data's threads (the second unwinder, the symbol tables'
# loader; the reading ahead needs a file of 16 MiB) declined at the
# start for want of a free processor are asked for again while the
# records are read (perf_records.c's ask_again()), and start in the
# middle of the read: the listing must be what one thread makes, byte
# for byte (stdout, stderr, exit status). CGANALYZE_SPARE_CPU=N makes
# the first N answers no and the rest yes, whatever the machine, and
# then asks again at every batch of 4 samples, so that the 40 samples
# of a test recording see a late start.
bin=$1
status=0
fail() { echo "perf-threads-late: $*"; status=1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run() {
	# shellcheck disable=SC2086
	env $1 "$bin" $2 >"$tmp/out" 2>"$tmp/err"
	echo "status $?" >>"$tmp/out"
	cat "$tmp/err" >>"$tmp/out"
	md5sum <"$tmp/out"
}

dwarf_b="-b tests/perf/prog -b tests/perf/libwork.so --sysroot=tests/perf --kallsyms=tests/perf/kallsyms tests/perf/dwarf.data"
n=0
for args in tests/perf/dwarf.data tests/perf/cxx.data tests/perf/zdwarf.data \
	tests/perf/dbgframe.data tests/perf/fp.data tests/perf/procs.data \
	"$dwarf_b" \
	"-b tests/perf/cxx --sysroot=tests/perf --kallsyms=tests/perf/kallsyms tests/perf/cxx.data"; do
	for opt in "" --json --tree; do
		one=$(run "CGANALYZE_READER_THREAD=0" "$opt $args")
		for noes in 1 2 3 5; do
			two=$(run "-u CGANALYZE_READER_THREAD CGANALYZE_SPARE_CPU=$noes" "$opt $args")
			[ "$one" = "$two" ] ||
				fail "$opt $args: threads started late (CGANALYZE_SPARE_CPU=$noes) differ from one thread"
			n=$((n + 1))
		done
	done
done
[ $n -ge 90 ] || fail "only $n comparisons"

# the late start must happen: a thread made after a first no (strace
# sees it; skipped where strace is missing or not allowed)
if command -v strace >/dev/null 2>&1 &&
	strace -f -e trace=none true >/dev/null 2>&1; then
	threads() {
		# shellcheck disable=SC2086
		env -u CGANALYZE_READER_THREAD "$@" strace -f -e trace=clone,clone3 \
			"$bin" $dwarf_b 2>&1 >/dev/null | grep -c 'clone'
	}
	never=$(threads CGANALYZE_SPARE_CPU=1000)
	late=$(threads CGANALYZE_SPARE_CPU=1)
	[ "$never" -eq 0 ] || fail "$never threads with no processor ever free"
	[ "$late" -ge 1 ] || fail "no thread started after a first no"
fi
exit $status
