# --call-graph dwarf stacks unwound both ways (CGANALYZE_UNWIND, a switch
# for the tests): by the CFI rows kept per address (the default) and by
# libdwfl for every sample. On the committed recordings each sample the
# rows unwind must come out of libdwfl the same, frame for frame, and
# the listings and --json must be the same either way.
#
# dbgframe.data: a program built without unwind tables, its CFI in the
# .debug_frame of a separate debug file found by build-id under
# --debug-dir under --sysroot (tests/perf/make.sh): with it each
# function's caller is found (leaf <- middle <- outer <- main); without
# it the stacks stop at the sampled function.
bin=$1
status=0
fail() { echo "perf-unwind: $*"; status=1; }
dbg="-b tests/perf/dbgframe --sysroot=tests/perf tests/perf/dbgframe.data"
for args in "--debug-dir=/debug $dbg" \
	"-b tests/perf/prog -b tests/perf/libwork.so --sysroot=tests/perf --kallsyms=tests/perf/kallsyms tests/perf/dwarf.data" \
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

# The line above the function's own line in its call graph entry: its
# caller, or <spontaneous>.
caller_of() {
	awk -v f="$1" '$1 ~ /^\[[0-9]+\]$/ && $0 ~ (" " f " \\[") { print prev; exit }
		{ prev = $0 }'
}
# shellcheck disable=SC2086
with=$(HOME=/nonexistent "$bin" -q --brief --debug-dir=/debug $dbg 2>&1)
for pair in leaf:middle middle:outer outer:main; do
	f=${pair%%:*} want=${pair#*:}
	case $(printf '%s\n' "$with" | caller_of "$f") in
	*" $want ["*) ;;
	*) fail "dbgframe.data with its debug file: $f is not called by $want" ;;
	esac
done
# shellcheck disable=SC2086
without=$(HOME=/nonexistent "$bin" -q --brief --debug-dir=/nonexistent $dbg 2>&1)
case $(printf '%s\n' "$without" | caller_of leaf) in
*"<spontaneous>"*) ;;
*) fail "dbgframe.data without its debug file: leaf has a caller" ;;
esac

# --debug-dir=DIR adds a directory, as for the symbols (debug-dir.sh):
# the debug file under the default /usr/lib/debug (here under a
# --sysroot made now) is still found when DIR does not have it. The
# unwinder looked in DIR alone, and the stacks stopped at leaf.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/usr/lib/debug" "$tmp/other"
cp -R tests/perf/debug/.build-id "$tmp/usr/lib/debug/"
for dir in --debug-dir=/other ""; do
	# shellcheck disable=SC2086
	got=$(HOME=/nonexistent "$bin" -q --brief $dir -b tests/perf/dbgframe \
		--sysroot="$tmp" tests/perf/dbgframe.data 2>&1)
	case $(printf '%s\n' "$got" | caller_of leaf) in
	*" middle ["*) ;;
	*) fail "dbgframe.data, debug file under the default directory, ${dir:-no --debug-dir}: leaf is not called by middle" ;;
	esac
done

# The same with a program built, split and recorded now (where gcc,
# objcopy and perf record can run: perf needs root or a low
# (-N: nothing added to the user's ~/.debug, perf's build-id cache)
# perf_event_paranoid): its .debug_frame is in the debug file alone,
# under --debug-dir's DIR, and under the default /usr/lib/debug of a
# --sysroot with --debug-dir naming another directory.
made=$tmp/made
mkdir -p "$made"
if gcc -O2 -g -fno-asynchronous-unwind-tables -fno-unwind-tables \
	-o "$made/dbgframe" tests/perf/dbgframe.c 2>/dev/null &&
	objcopy --only-keep-debug "$made/dbgframe" "$made/dbgframe.debug" &&
	strip --strip-debug "$made/dbgframe" &&
	perf record -q -N -F 199 --call-graph dwarf,4096 -o "$made/x.data" \
		"$made/dbgframe" 6000 >/dev/null 2>&1; then
	id=$(readelf -n "$made/dbgframe" | awk '/Build ID/ { print $3 }')
	sub=.build-id/$(echo "$id" | cut -c1-2)
	leafname=$(echo "$id" | cut -c3-).debug
	readelf -S "$made/dbgframe" | grep -q debug_frame &&
		fail "the stripped program still has a .debug_frame"
	mkdir -p "$made/dir/$sub" "$made/root/usr/lib/debug/$sub"
	cp "$made/dbgframe.debug" "$made/dir/$sub/$leafname"
	cp "$made/dbgframe.debug" "$made/root/usr/lib/debug/$sub/$leafname"
	for args in "--debug-dir=$made/dir" \
		"--debug-dir=/other --sysroot=$made/root"; do
		# shellcheck disable=SC2086
		got=$(HOME=/nonexistent "$bin" -q --brief $args \
			-b "$made/dbgframe" "$made/x.data" 2>&1)
		case $(printf '%s\n' "$got" | caller_of leaf) in
		*" middle ["*) ;;
		*) fail "a recording made now, $args: leaf is not called by middle" ;;
		esac
	done
else
	echo "perf-unwind: no recording made here (gcc, objcopy or perf record failed): that part skipped"
fi
exit $status
