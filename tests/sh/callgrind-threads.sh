# Callgrind's threads, processes and parts (--threads, --parts, --pid,
# --tid) on the files valgrind wrote of tests/callgrind-threads/threads.c
# (make.sh there), against callgrind_annotate: each file of one part is
# one thread's dump, and callgrind_annotate's PROGRAM TOTALS of it is
# that part's total. So every --parts row equals its file's, every
# --threads row the sum of its thread's files', every process row the
# sum of its files', and --tid/--pid keep exactly those files' costs.
#
# combined.out (--combine-dumps=yes) holds 17 parts in one file, which
# callgrind_annotate cannot read (it warns that the second part's header
# lines are malformed, and adds every part up: FORMAT-NOTES Q18): there
# each part's row is checked against the part's own "totals:" line, and
# --part with --tid against the same, in our flat profile and in
# callgrind_annotate's reading of that part written alone
# (--output=callgrind); each thread's row against --tid's written alone.
bin=$1
command -v callgrind_annotate >/dev/null || { echo "callgrind_annotate is not installed"; exit 77; }
dir=tests/callgrind-threads
status=0
fail() { echo "callgrind-threads: $*"; status=1; }

# callgrind_annotate's PROGRAM TOTALS (Ir) of a file, without commas
annotate_total() {
	callgrind_annotate "$1" 2>/dev/null |
		awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1; exit }'
}
# the Ir of our --parts row of a file (its base name ends the row)
parts_total() {
	"$bin" --no-digit-groups --parts "$@" |
		awk -v f="$part_file" '$NF == f { print $6 }'
}
# our --threads row "pid thread" (Ir), and the Processes row of pid
thread_total() {
	"$bin" --no-digit-groups --threads $files |
		awk -v p="$1" -v t="$2" '/^Processes/ { exit }
			$1 == p && $2 == t { print $5 }'
}
process_total() {
	"$bin" --no-digit-groups --threads $files |
		awk -v p="$1" '/^Processes/ { on = 1 }
			on && $1 == p { print $4 }'
}
# the flat profile's total ("Flat profile of Ir, N in all")
flat_total() {
	"$bin" --no-digit-groups -p "$@" | awk 'NR == 1 { print $5; exit }'
}

for sub in procs dumps; do
	files=$(ls $dir/$sub/callgrind.out.*-*)
	# every file: its one part's total
	for f in $files; do
		want=$(annotate_total "$f")
		part_file=$(basename "$f")
		got=$(parts_total $files)
		[ -n "$want" ] && [ "$got" = "$want" ] ||
			fail "$f: --parts says '$got', callgrind_annotate '$want'"
	done
	# every thread and process: the sums of their files
	for pid in $(for f in $files; do sed -n 's/^pid: //p' "$f"; done | sort -u); do
		psum=0
		for t in 1 2 3; do
			tsum=0
			for f in $files; do
				[ "$(sed -n 's/^pid: //p' "$f")" = "$pid" ] &&
				[ "$(sed -n 's/^thread: //p' "$f")" = "$t" ] ||
					continue
				tsum=$((tsum + $(annotate_total "$f")))
			done
			psum=$((psum + tsum))
			got=$(thread_total "$pid" "$t")
			[ "$got" = "$tsum" ] ||
				fail "$sub: thread $pid/$t: --threads says '$got', callgrind_annotate's files add up to $tsum"
			# --pid with --tid keep that thread's parts alone
			got=$(flat_total --pid="$pid" --tid="$t" $files)
			[ "$got" = "$tsum" ] ||
				fail "$sub: --pid=$pid --tid=$t: the flat profile's total is '$got', not $tsum"
		done
		got=$(process_total "$pid")
		[ "$got" = "$psum" ] ||
			fail "$sub: process $pid: --threads says '$got', callgrind_annotate's files add up to $psum"
		got=$(flat_total --pid="$pid" $files)
		[ "$got" = "$psum" ] ||
			fail "$sub: --pid=$pid: the flat profile's total is '$got', not $psum"
	done
done

# combined.out: each part (part number, thread) against its totals: line
awk '/^part:/ { p = $2 } /^thread:/ { t = $2 } /^totals:/ { print p, t, $2 }' \
	$dir/combined.out >/tmp/cgthreads.$$.want
"$bin" --no-digit-groups --parts $dir/combined.out |
	awk '$NF == "combined.out" { print $1, $3, $6 }' >/tmp/cgthreads.$$.got
[ "$(wc -l </tmp/cgthreads.$$.want)" -eq 17 ] ||
	fail "combined.out: expected 17 totals: lines"
cmp -s /tmp/cgthreads.$$.want /tmp/cgthreads.$$.got ||
	fail "combined.out: --parts rows (part thread Ir) differ from its totals: lines: $(diff /tmp/cgthreads.$$.want /tmp/cgthreads.$$.got | head -5)"
while read -r p t want; do
	[ "$want" = 0 ] && continue
	got=$(flat_total --part="$p" --tid="$t" $dir/combined.out)
	[ "$got" = "$want" ] ||
		fail "combined.out: --part=$p --tid=$t: the flat profile's total is '$got', not $want"
	# the part alone, written as a file of its own, for callgrind_annotate
	"$bin" --output=callgrind -o /tmp/cgthreads.$$.part --part="$p" \
		--tid="$t" $dir/combined.out
	got=$(annotate_total /tmp/cgthreads.$$.part)
	[ "$got" = "$want" ] ||
		fail "combined.out: part $p thread $t written alone: callgrind_annotate says '$got', totals: $want"
done </tmp/cgthreads.$$.want
# each thread written alone, against its --threads row
for t in 1 2 3; do
	"$bin" --output=callgrind -o /tmp/cgthreads.$$.part --tid="$t" \
		$dir/combined.out
	want=$(annotate_total /tmp/cgthreads.$$.part)
	got=$("$bin" --no-digit-groups --threads $dir/combined.out |
		awk -v t="$t" '/^Processes/ { exit } $2 == t { print $5 }')
	[ -n "$want" ] && [ "$got" = "$want" ] ||
		fail "combined.out: thread $t: --threads says '$got', callgrind_annotate of --tid=$t written alone '$want'"
done

# --json: "parts" in the file's order with its totals: lines, "threads"
# with the sums of --threads
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3) || { echo "python3 is not installed"; exit 77; }
"$bin" --json $dir/combined.out >/tmp/cgthreads.$$.json
"$bin" --no-digit-groups --threads $dir/combined.out |
	awk '/^Processes/ { exit } $1 ~ /^[0-9]+$/ && NF >= 6 { print $1, $2, $5 }' |
	sort >/tmp/cgthreads.$$.threads
"$py" - /tmp/cgthreads.$$.json /tmp/cgthreads.$$.want /tmp/cgthreads.$$.threads <<'PY' ||
import json, sys
j = json.load(open(sys.argv[1]))
want = [l.split() for l in open(sys.argv[2])]
parts = [[str(x["part"]), str(x["tid"]), str(x["cost"][0])] for x in j["parts"]]
assert parts == want, ("parts", parts, want)
assert all(x["selected"] and x["from_totals"] for x in j["parts"])
threads = sorted("%d %d %d" % (t["pid"], t["tid"], t["cost"][0]) for t in j["threads"])
got = sorted(l.strip() for l in open(sys.argv[3]))
assert threads == got, ("threads", threads, got)
PY
	fail "combined.out: --json's threads or parts differ from --threads and the totals: lines"
rm -f /tmp/cgthreads.$$.*
exit $status
