# --diff with --pid, --tid, --comm and --time: the samples of both
# profiles are selected, as the listings select one's (they were
# silently ignored before). On the committed recordings of one program
# run twice (tests/perf/fp.data, pipe.data: a "prog" thread and a
# "spinner" thread each):
# - --comm=spinner: each side's total is its spinner thread's, as
#   --threads (perf report --sort pid's numbers) gives it;
# - --tid of each side's spinner thread: the same totals;
# - --time=0%-50% and 50%-100%: each side's two halves add up to its
#   whole, sample for sample;
# - a selection a side cannot honour is refused or said, as for one
#   profile (task_check.c): --comm on a Callgrind file (status 2, naming
#   it); --pid on Callgrind files whose parts are of no such process
#   (status 1).
bin=$1
status=0
perf="-b tests/perf/libwork.so --sysroot=tests/perf --kallsyms=tests/perf/kallsyms"
a=tests/perf/fp.data
b=tests/perf/pipe.data
fail() { echo "diff-select: $*"; status=1; }

# "BASE NEW" totals of a --diff --json run
totals() {
	# shellcheck disable=SC2086
	"$bin" --diff --json $perf "$@" $a $b 2>/dev/null |
		sed -n 's/.*"\(base\|new\)": {"path": "[^"]*", "total": \([0-9]*\)}.*/\2/p' |
		tr '\n' ' '
}
# a thread's cost in --threads' listing of one recording
thread_cost() {
	# shellcheck disable=SC2086
	"$bin" --threads $perf "$1" 2>/dev/null |
		awk -v c="$2" '$3 == c && NF == 6 { gsub(",", "", $5); print $5; exit }'
}

want="$(thread_cost $a spinner) $(thread_cost $b spinner) "
got=$(totals --comm=spinner)
[ "$got" = "$want" ] || fail "--comm=spinner: totals '$got', --threads says '$want'"
case $want in " "*|*"  "*) fail "--threads lists no spinner thread" ;; esac

tids=$(for f in $a $b; do
	# shellcheck disable=SC2086
	"$bin" --threads $perf "$f" 2>/dev/null |
		awk '$3 == "spinner" && NF == 6 { print $2; exit }'
done | paste -sd, -)
got=$(totals --tid="$tids")
[ "$got" = "$want" ] || fail "--tid=$tids: totals '$got', --threads says '$want'"

set -- $(totals)
whole_a=$1 whole_b=$2
set -- $(totals --time=0%-50%)
first_a=$1 first_b=$2
set -- $(totals --time=50%-100%)
[ $((${first_a:-0} + ${1:-0})) = "$whole_a" ] && [ $((${first_b:-0} + ${2:-0})) = "$whole_b" ] ||
	fail "--time halves: $first_a + $1, $first_b + $2; wholes $whole_a, $whole_b"
[ "$first_a" != "$whole_a" ] || fail "--time=0%-50% kept every sample of $a"

"$bin" --diff --pid=1 tests/diff/base.cg tests/diff/new.cg >/dev/null 2>&1
[ $? = 1 ] || fail "--pid=1 with two Callgrind files of other processes: not said with status 1"
err=$("$bin" --diff --comm=prog $a tests/diff/builds/fib.cg 2>&1 >/dev/null)
case $err in *"fib.cg: --comm is for perf.data"*) ;;
	*) fail "--comm with a Callgrind NEW: '$err'" ;; esac
[ $status = 0 ] && echo "diff-select: ok"
exit $status
