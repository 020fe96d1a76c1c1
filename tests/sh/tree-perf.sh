# --tree against perf report --children --stdio -g caller: on the
# committed recordings tests/perf/fp.data (frame pointers) and
# dwarf.data (--call-graph dwarf), every percentage perf prints in the
# call graphs of main and worker (tests/perf/NAME.tree, made by perf
# report with --no-inline --no-demangle under a --symfs of tests/perf/)
# must be ours for the same call path, to 0.01 (perf rounds to two
# decimals); and --focus=F's share of the total is perf's Children
# percentage for F (tests/perf/NAME.children). With perf installed it is run here too and held to the
# same, so the check does not rest on the committed answers alone.
#
# Where the two differ on purpose, the comparison looks past it:
# - perf's graph is cut at 0.5% of the total (-g graph,0.5): only what it
#   prints is compared, ours is --threshold=0;
# - perf names the libc frames that call main and worker by address
#   (libc.so.6 is not under the --symfs), ours "libc.so.6+0x...", so the
#   paths compared start at main and worker, ours summed over every
#   path through them as perf's entry for the symbol sums them;
# - inlined frames: perf report shows them unless --no-inline, ours (by
#   default --inlined=caller) charge them to the function they are in,
#   so perf is asked for --no-inline.
bin=$1
status=0
fail() { echo "tree-perf: $*"; status=1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
perf=tests/perf
args="-b $perf/prog -b $perf/libwork.so --sysroot=$perf --kallsyms=$perf/kallsyms"

# perf's graphs of the entries for ROOTS (main, worker) as
# "PATH<TAB>PERCENT", PATH the frames from the root joined by ';', for
# each frame perf prints a percentage at (a branch: "--40.20%--hot").
# perf lays a graph out in columns 11 wide from the root's name: a
# branch's marker ("|--P%--" or " --P%--") stands in its parent's
# column and its name one column further; a frame printed alone on its
# line continues the chain of the last frame in its column.
perf_paths() {
	awk -v roots="main worker" '
	BEGIN { n = split(roots, r, " "); for (i = 1; i <= n; i++) want[r[i]] = 1 }
	/^ +[0-9.]+% +[0-9.]+% / {
		sym = $NF; ingraph = (sym in want); delete at; next
	}
	!ingraph { next }
	/^$/ { ingraph = 0; next }
	{
		line = $0
		if (match(line, /---[^ ]+$/)) {		# the root: "---main"
			c0 = RSTART + 3; at[0] = substr(line, c0); next
		}
		if (match(line, /--[0-9.]+%--/)) {
			pct = substr(line, RSTART + 2, RLENGTH - 5)
			lv = int((RSTART - 1 - c0) / 11)
			at[lv + 1] = at[lv] ";" substr(line, RSTART + RLENGTH)
			print at[lv + 1] "\t" pct
			next
		}
		if (match(line, /[^ |]+$/)) {		# a chain goes on
			lv = int((RSTART - c0) / 11)
			at[lv] = at[lv] ";" substr(line, RSTART)
		}
	}' "$1"
}

# ours: --tree --threshold=0 as "PATH<TAB>PERCENT" for the paths from
# main and worker, a path's cost summed over the places it is at
our_paths() {
	awk -v roots="main worker" '
	BEGIN { n = split(roots, r, " "); for (i = 1; i <= n; i++) want[r[i]] = 1 }
	/^Call tree of / { next }
	/^ *total%/ { col = index($0, "function"); next }
	col && /^ *[0-9]+\.[0-9][0-9] / {
		rest = substr($0, col); depth = 0
		while (substr(rest, 1, 2) == "  ") { depth++; rest = substr(rest, 3) }
		if (match(rest, /^\([0-9]+\) /)) {
			depth = substr(rest, 2, RLENGTH - 3) + 0
			rest = substr(rest, RLENGTH + 1)
		}
		frame[depth] = rest; total = $3
		if (depth == 0) grand += total
		# the path from the outermost main or worker on it
		path = ""
		for (d = 0; d <= depth; d++) {
			if (path == "" && (frame[d] in want)) path = frame[d]
			else if (path != "") path = path ";" frame[d]
		}
		if (path != "") sum[path] += total
	}
	END { for (p in sum) printf "%s\t%.4f\n", p, 100 * sum[p] / grand }' "$1"
}

compare() {
	what=$1 want=$2 ours=$3
	n=$(awk -F '\t' -v what="$what" '
		NR == FNR { have[$1] = $2; next }
		{
			if (!($1 in have)) {
				print "tree-perf: " what ": perf has " $1 " at " $2 "%, we have no such path" > "/dev/stderr"
				bad = 1
			} else if (have[$1] - $2 > 0.0051 || $2 - have[$1] > 0.0051) {
				print "tree-perf: " what ": " $1 ": perf " $2 "%, ours " have[$1] "%" > "/dev/stderr"
				bad = 1
			}
			n++
		}
		END { print bad ? -1 : n + 0 }' "$ours" "$want")
	if [ "$n" -lt 0 ]; then
		status=1
	elif [ "$n" -lt 10 ]; then
		fail "$what: only $n of perf's paths compared"
	fi
}

for rec in fp dwarf; do
	# shellcheck disable=SC2086
	"$bin" --tree --threshold=0 --no-digit-groups --brief $args \
		"$perf/$rec.data" >"$tmp/$rec.out" 2>/dev/null ||
		fail "$rec: --tree failed"
	our_paths "$tmp/$rec.out" >"$tmp/$rec.ours"
	perf_paths "$perf/$rec.tree" >"$tmp/$rec.perf"
	compare "$rec.tree" "$tmp/$rec.perf" "$tmp/$rec.ours"
done

# --focus=F keeps the stacks through F: its total's share of the whole
# is perf report --children's Children column for F (the committed
# answers NAME.children), to its two decimals
for rec in fp dwarf; do
	for func in main hot fib lib_apply worker leaf lib_spin; do
		want=$(awk -v f="$func" '$NF == f && $(NF-1) != "[k]" { sub(/%/, "", $1); s += $1 }
			END { if (s) printf "%.2f", s }' "$perf/$rec.children")
		[ -n "$want" ] || { fail "$rec: perf has no $func"; continue; }
		# shellcheck disable=SC2086
		got=$("$bin" --focus="$func" --json $args "$perf/$rec.data" 2>/dev/null |
			python3 -c 'import json, sys
d = json.load(sys.stdin)
e = d["events"].index(d["sort_event"])
print("%.2f" % (100.0 * d["totals"][e] / d["transforms"]["totals_before"][e]))')
		[ "$got" = "$want" ] ||
			fail "$rec: --focus=$func leaves ${got:-?}% in view, perf's Children $want%"
	done
done

if command -v perf >/dev/null 2>&1; then
	mkdir -p "$tmp/symfs/tmp/cganalyze-perf" "$tmp/home"
	cp $perf/prog $perf/libwork.so "$tmp/symfs/tmp/cganalyze-perf/"
	for rec in fp dwarf; do
		HOME=$tmp/home perf report -i "$perf/$rec.data" --stdio \
			--children -g caller --no-inline --no-demangle \
			--symfs="$tmp/symfs" --kallsyms=$perf/kallsyms \
			>"$tmp/$rec.live" 2>/dev/null ||
			{ fail "$rec: perf report failed"; continue; }
		perf_paths "$tmp/$rec.live" >"$tmp/$rec.liveperf"
		compare "perf report on $rec.data" "$tmp/$rec.liveperf" \
			"$tmp/$rec.ours"
	done
else
	echo "tree-perf: perf is not installed: the committed answers only"
fi
exit $status
