#!/bin/sh
# The second unwinder (perf_par.h) against one thread on recordings
# changed as hostile or unlucky files have them (tests/fuzz/
# perf_mutate.py): records reordered inside and across FINISHED_ROUNDs,
# rounds dropped, doubled or reversed, the mappings and the tasks'
# records moved, samples' user stacks cut short or zeroed, user
# registers changed. However the records come, a sample is unwound with
# what one thread would have read before it: stdout, stderr and the exit
# status must be byte for byte those of CGANALYZE_UNWIND_THREAD=0, with
# the second thread on (1), alone, with the reading ahead on, and with
# CGANALYZE_PERF_PASSES=2 (the mappings read in a pass of their own).
# tests/sh/perf-unwind-thread.sh does the same on the recordings as made.
bin=$1
command -v python3 >/dev/null || { echo "needs python3"; exit 77; }
top=$(cd "$(dirname "$0")/../.." && pwd)
status=0
fail() { echo "perf-unwind-mutants: $*"; status=1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
p=$top/tests/perf

run() {	# env args...
	e=$1
	shift
	# shellcheck disable=SC2086
	env $e "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
	echo "status $?" >>"$tmp/out"
	cat "$tmp/err" >>"$tmp/out"
	md5sum <"$tmp/out"
}

n=0 changed=0
for rec in "dwarf.data -b $p/prog -b $p/libwork.so --sysroot=$p --kallsyms=$p/kallsyms" \
	   "cxx.data -b $p/cxx --sysroot=$p --kallsyms=$p/kallsyms" \
	   "dbgframe.data --debug-dir=/debug -b $p/dbgframe --sysroot=$p" \
	   "zdwarf.data" "two.data"; do
	file=${rec%% *} args=${rec#"$file"}
	[ "$args" = "$rec" ] && args=
	# shellcheck disable=SC2086
	orig=$(run CGANALYZE_UNWIND_THREAD=0 --tree $args "$p/$file")
	for kind in swap across dropfr dupfr side mmapend taskend exitfirst rev \
		    rounds cut zero regs; do
		python3 "$top/tests/fuzz/perf_mutate.py" "$p/$file" "$tmp/m.data" 7 $kind
		case $? in
		0) ;;
		3) continue ;;	# no user stack in it to change
		*) fail "$file: perf_mutate.py $kind failed"; continue ;;
		esac
		for opt in --tree --json; do
			# shellcheck disable=SC2086
			one=$(run "CGANALYZE_READER_THREAD=0 CGANALYZE_UNWIND_THREAD=0" $opt $args "$tmp/m.data")
			[ $opt = --tree ] && [ "$one" != "$orig" ] && changed=$((changed + 1))
			for way in "CGANALYZE_READER_THREAD=0 CGANALYZE_UNWIND_THREAD=1" \
				   "CGANALYZE_READER_THREAD=0 CGANALYZE_UNWIND_THREAD=alone" \
				   "CGANALYZE_READER_THREAD=1 CGANALYZE_UNWIND_THREAD=alone" \
				   "CGANALYZE_READER_THREAD=0 CGANALYZE_UNWIND_THREAD=alone CGANALYZE_PERF_PASSES=2"; do
				# shellcheck disable=SC2086
				two=$(run "$way" $opt $args "$tmp/m.data")
				n=$((n + 1))
				# (the input again: perf_mutate.py tests/perf/FILE OUT 7 KIND)
				[ "$one" = "$two" ] ||
					fail "$file, $kind, $opt: $way differs from one thread"
			done
		done
	done
done
# the changes must reach the listings, or the comparisons prove little
[ $n -ge 300 ] || fail "only $n comparisons"
[ $changed -ge 10 ] || fail "only $changed changed recordings print otherwise than their original"
exit $status
