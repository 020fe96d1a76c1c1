# A sampled profile's samples column against perf report's Samples: for
# each recording of tests/perf/ with perf's answer (NAME.self, perf
# report --no-children -F overhead,period,sample,dso,sym, made by
# tests/perf/make.sh), each function's samples in the text flat profile
# (-p) equal perf's, event by event, and every event's "samples" in
# --json is perf's "Samples: N of event". With perf installed, perf
# report is run here too on fp.data and dwarf.data (their binaries under
# a --symfs made of tests/perf/) and must give the committed answers'
# samples, so the check does not rest on old files alone.
#
# perf report's Samples column counts the samples in the symbol itself,
# also with --children: it gives no inclusive sample count to compare.
# Rows of objects this machine names otherwise (libc, ld.so: "0x..."
# offsets where its libc is another build) are left out, as
# tests/test_perf_peers.c leaves them.
bin=$1
status=0
fail() { echo "perf-samples: $*"; status=1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
perf=tests/perf
bins="-b $perf/prog -b $perf/libwork.so"

# perf's rows of one answer as "EVENT<TAB>SYMBOL<TAB>SAMPLES", and the
# events' totals as "EVENT<TAB>#total<TAB>N"
perf_rows() {
	awk '/^# Samples: / { ev = $0; sub(/^# Samples: [0-9]+ +of event ./, "", ev)
				sub(/.$/, "", ev); print ev "\t#total\t" $3; next }
	     /^#/ || NF < 6 { next }
	     { sym = $6; for (i = 7; i <= NF; i++) sym = sym " " $i
	       print ev "\t" sym "\t" $3 }' "$1"
}

# ours for the same recording, in the same form: each event's flat
# profile (its samples column is the fourth), and --json's totals
our_rows() {
	rec=$1
	shift
	# shellcheck disable=SC2086,SC2068
	"$bin" --json "$@" "$perf/$rec.data" 2>/dev/null |
		python3 -c 'import json, sys
d = json.load(sys.stdin)
for e in d["event_info"]:
    print("%s\t#total\t%d" % (e["name"], e["samples"]))' || return 1
	# shellcheck disable=SC2086,SC2068
	evs=$("$bin" --json "$@" "$perf/$rec.data" 2>/dev/null |
		python3 -c 'import json, sys; print(" ".join(json.load(sys.stdin)["events"]))')
	# the columns: %, cumulative, self, samples, each other event's
	# self, the name (wide numbers may be one space apart)
	set -- "$@" --show="$(echo $evs | tr ' ' ,)"
	for ev in $evs; do
		"$bin" -p --brief --threshold=0 --sort="$ev" "$@" \
			"$perf/$rec.data" 2>/dev/null |
			awk -v ev="$ev" -v cols=$((3 + $(echo $evs | wc -w))) '
			/^ *[0-9]+\.[0-9][0-9] / && NF > cols {
				name = $(cols + 1)
				for (i = cols + 2; i <= NF; i++) name = name " " $i
				sub(/ \[[0-9]+\]$/, "", name)
				gsub(/,/, "", $4)
				print ev "\t" name "\t" $4 }'
	done
}

# compare WANT (perf's rows) with ours, on the symbols we both name
compare() {
	what=$1 want=$2 ours=$3
	n=$(awk -F '\t' -v what="$what" '
		NR == FNR { have[$1 "\t" $2] = $3; next }
		($1 "\t" $2) in have {
			if (have[$1 "\t" $2] != $3) {
				print "perf-samples: " what ": " $1 " " $2 ": perf " $3 \
				      " samples, ours " have[$1 "\t" $2] > "/dev/stderr"
				bad = 1
			}
			n++
		}
		END { print bad ? -1 : n + 0 }' "$ours" "$want")
	if [ "$n" -lt 0 ]; then
		status=1
	elif [ "$n" -lt 3 ]; then
		fail "$what: only $n of perf's rows compared"
	fi
}

for spec in "fp:$bins --kallsyms=$perf/kallsyms" \
	"two:$bins --kallsyms=$perf/kallsyms" \
	"pipe:$bins --kallsyms=$perf/kallsyms" \
	"dwarf:$bins --kallsyms=$perf/kallsyms" \
	"cxx:-b $perf/cxx --no-demangle --kallsyms=$perf/kallsyms" \
	"z:$bins --kallsyms=$perf/z.kallsyms" \
	"zpipe:$bins --kallsyms=$perf/z.kallsyms" \
	"zdwarf:$bins --kallsyms=$perf/z.kallsyms"; do
	rec=${spec%%:*}
	# shellcheck disable=SC2086
	our_rows "$rec" --sysroot=$perf ${spec#*:} >"$tmp/$rec.ours" ||
		fail "$rec: no --json"
	perf_rows "$perf/$rec.self" >"$tmp/$rec.perf"
	compare "$rec.self" "$tmp/$rec.perf" "$tmp/$rec.ours"
done

# perf report itself, where it is installed: its binaries from a
# --symfs laid out as where they were recorded, and no build-id cache
if command -v perf >/dev/null 2>&1; then
	mkdir -p "$tmp/symfs/tmp/cganalyze-perf" "$tmp/home"
	cp $perf/prog $perf/libwork.so "$tmp/symfs/tmp/cganalyze-perf/"
	for rec in fp dwarf; do
		HOME=$tmp/home perf report -i "$perf/$rec.data" --stdio \
			--no-children --no-inline --no-demangle -g none \
			--symfs="$tmp/symfs" --kallsyms=$perf/kallsyms \
			-F overhead,period,sample,dso,sym >"$tmp/$rec.live" \
			2>/dev/null || { fail "$rec: perf report failed"; continue; }
		perf_rows "$tmp/$rec.live" >"$tmp/$rec.liveperf"
		compare "perf report on $rec.data" "$tmp/$rec.liveperf" \
			"$tmp/$rec.ours"
	done
else
	echo "perf-samples: perf is not installed: the committed answers only"
fi
exit $status
