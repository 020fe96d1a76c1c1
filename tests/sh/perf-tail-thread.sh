# The work after a perf.data's last record on a second thread (the
# charging's preparation and the frames' symbols beside the lines and
# the kernel's symbols: resolve_perf.c's tail_beside()) must give what
# one thread gives, byte for byte (stdout, stderr, exit status).
# CGANALYZE_READER_THREAD=1 forces every thread on, the tail's too; 0
# keeps the run to one. Every committed recording, with its objects
# found at their recorded paths under --sysroot (the symbol tables
# loaded ahead, as the tail's thread wants them) and without, with the
# listings the tests of perf.data compare.
bin=$1
status=0
fail() { echo "perf-tail-thread: $*"; status=1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run() {
	# shellcheck disable=SC2086
	env CGANALYZE_READER_THREAD=$1 "$bin" $2 >"$tmp/out" 2>"$tmp/err"
	echo "status $?" >>"$tmp/out"
	cat "$tmp/err" >>"$tmp/out"
	md5sum <"$tmp/out"
}

n=0
for data in tests/perf/*.data; do
	for where in "" "--sysroot=tests/perf --kallsyms=tests/perf/kallsyms" \
		"--sysroot=tests/perf/sysroot"; do
		for opt in "" --json --tree --output=callgrind --output=folded \
			--inlined=callee; do
			one=$(run 0 "$where $opt $data")
			two=$(run 1 "$where $opt $data")
			[ "$one" = "$two" ] ||
				fail "$where $opt $data: every thread on differs from one thread"
			n=$((n + 1))
		done
	done
done
[ $n -ge 300 ] || fail "only $n comparisons"
exit $status
