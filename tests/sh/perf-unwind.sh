# --call-graph dwarf stacks unwound both ways (CGANALYZE_UNWIND, a switch
# for the tests): by the CFI rows kept per address (the default) and by
# libdwfl for every sample. On the committed recordings each sample the
# rows unwind must come out of libdwfl the same, frame for frame, and
# the listings and --json must be the same either way.
bin=$1
status=0
fail() { echo "perf-unwind: $*"; status=1; }
for args in "-b tests/perf/prog -b tests/perf/libwork.so --sysroot=tests/perf --kallsyms=tests/perf/kallsyms tests/perf/dwarf.data" \
	"-b tests/perf/cxx --sysroot=tests/perf --kallsyms=tests/perf/kallsyms tests/perf/cxx.data"; do
	# shellcheck disable=SC2086
	said=$(CGANALYZE_UNWIND=check "$bin" -q $args 2>&1 >/dev/null |
		grep 'unwinding checked')
	case $said in
	*"checked: 0 samples"*) fail "no sample unwound by the rows: $said" ;;
	*" samples unwound by the cached CFI rows, 0 of them differently by libdwfl") ;;
	*) fail "$args: ${said:-no word of the check}" ;;
	esac
	for opt in --threshold=0 --json; do
		# shellcheck disable=SC2086
		rows=$("$bin" -q $opt $args 2>&1)
		# shellcheck disable=SC2086
		dwfl=$(CGANALYZE_UNWIND=libdwfl "$bin" -q $opt $args 2>&1)
		[ -n "$rows" ] && [ "$rows" = "$dwfl" ] ||
			fail "$opt differs by the rows and by libdwfl: $args"
	done
done
exit $status
