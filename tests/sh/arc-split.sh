# A caller line's self and children in the call graph of a perf.data,
# against perf script counted by hand: the samples whose leaf is the
# callee and whose next frame (of another function) is the caller are
# the line's self, the rest of the samples through the call its
# children. tests/perf/split.c's work() spends 3/4 of its time itself
# when own_heavy() calls it and 1/4 when kids_heavy() does; a split by
# work's overall ratio (as gprof splits, and as cganalyze still splits
# Callgrind's arcs) gives both callers one ratio and fails here.
#
# Recorded now, with frame pointers (-g) and with --call-graph dwarf,
# where gcc and perf record can run (perf needs root or a low
# perf_event_paranoid); else skipped, said on stdout. Also, on the
# committed cxx.data under --inlined=callee (inlined frames as
# functions): no function's callers have more self than it has. And a
# Go CPU profile against go tool pprof -traces.
bin=$1
status=0
fail() { echo "arc-split: $*"; status=1; }
py=/usr/bin/python3
[ -x $py ] || py=python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# $1's callers in the graph: "caller self children" per line, from the
# caller lines above its own line (the entry starts after a "---").
graph_callers() {
	awk -v f="$1" '/^-+$/ { n = 0; next }
		$1 ~ /^\[[0-9]+\]$/ && $0 ~ (" " f " \\[[0-9]+\\]$") {
			for (i = 1; i <= n; i++) print line[i]; exit }
		$1 ~ /^\[[0-9]+\]$/ { n = 0; next }
		NF == 4 { gsub(/,/, "", $1); gsub(/,/, "", $2)
			line[++n] = $3 " " $1 " " $2 }'
}

# The same from perf script: per caller of work, its self and children.
oracle() {
	$py -c '
import sys, collections
selfc = collections.Counter(); incl = collections.Counter()
def flush(frames, period):
    if not frames:
        return
    leaf, k = frames[0], 1
    while k < len(frames) and frames[k] == leaf:
        k += 1
    if leaf == "work" and k < len(frames):
        selfc[frames[k]] += period
    seen = set()
    for i in range(1, len(frames)):
        if frames[i - 1] == "work" and frames[i] != "work" and frames[i] not in seen:
            seen.add(frames[i]); incl[frames[i]] += period
frames, period = [], 0
for line in sys.stdin:
    if not line.strip():
        continue
    if not line[0].isspace():
        flush(frames, period)
        frames, period = [], int(line.split()[-1])
        continue
    f = line.split()
    frames.append(f[1].split("+")[0])
flush(frames, period)
for c in sorted(incl):
    print(c, selfc[c], incl[c] - selfc[c])
'
}

# (-O0: optimized, inner() is a leaf that gcc leaves without a frame,
# even with -mno-omit-leaf-frame-pointer, and frame pointers skip work()
# above it)
if gcc -O0 -g -fno-omit-frame-pointer -o "$tmp/split" tests/perf/split.c \
	2>/dev/null &&
	perf record -q -N -e cpu-clock:u -F 2000 -g -o "$tmp/fp.data" \
		"$tmp/split" 600 >/dev/null 2>&1 &&
	perf record -q -N -e cpu-clock:u -F 2000 --call-graph dwarf,4096 \
		-o "$tmp/dwarf.data" "$tmp/split" 600 >/dev/null 2>&1; then
	for rec in fp dwarf; do
		data=$tmp/$rec.data
		perf script -i "$data" -F comm,tid,period,ip,sym 2>/dev/null |
			oracle >"$tmp/want"
		"$bin" -q --brief -b "$tmp/split" "$data" 2>/dev/null |
			graph_callers work | sort >"$tmp/got"
		if ! cmp -s "$tmp/want" "$tmp/got"; then
			fail "$rec: work's caller lines differ from perf script's counts:"
			diff "$tmp/want" "$tmp/got"
			continue
		fi
		# both callers there, split unlike each other (self:total of
		# own_heavy's above kids_heavy's, as the program makes them)
		awk '{ s[$1] = $2; t[$1] = $2 + $3 }
			END { ok = t["own_heavy"] > 0 && t["kids_heavy"] > 0
				ok = ok && s["own_heavy"] * t["kids_heavy"] > 2 * s["kids_heavy"] * t["own_heavy"]
				exit !ok }' "$tmp/want" ||
			fail "$rec: the recording does not split work unlike by caller: $(tr '\n' ';' <"$tmp/want")"
		# --json's arcs say the same (self, and inclusive - self)
		"$bin" -q --json -b "$tmp/split" "$data" 2>/dev/null | $py -c '
import json, sys
d = json.load(sys.stdin)
name = {f["id"]: f["name"] for f in d["functions"]}
for a in d["arcs"]:
    if name[a["callee"]] == "work" and name[a["caller"]] != "work":
        print(name[a["caller"]], a["self"][0], a["inclusive"][0] - a["self"][0])
' | sort >"$tmp/json"
		cmp -s "$tmp/want" "$tmp/json" ||
			fail "$rec: --json's arcs into work differ: $(tr '\n' ';' <"$tmp/json")"
	done
else
	echo "arc-split: no recording made here (gcc or perf record failed): that part skipped"
fi

# A Go CPU profile (pprof): main.spin's callers against go tool pprof
# -traces (each sample's stack, innermost first, its value in ms; the
# graph's in ns), counted as above.
if command -v go >/dev/null 2>&1 &&
	go tool pprof -traces tests/pprof/cpu.pb.gz >"$tmp/traces" 2>/dev/null; then
	$py -c '
import sys, collections
selfc = collections.Counter(); incl = collections.Counter()
value, frames = None, []
def flush():
    if value is None:
        return
    leaf, k = frames[0], 1
    while k < len(frames) and frames[k] == leaf:
        k += 1
    if leaf == "main.spin" and k < len(frames):
        selfc[frames[k]] += value
    seen = set()
    for i in range(1, len(frames)):
        if frames[i - 1] == "main.spin" and frames[i] != "main.spin" and frames[i] not in seen:
            seen.add(frames[i]); incl[frames[i]] += value
for line in open(sys.argv[1]):
    if line.startswith("-----------+"):
        flush(); value, frames = None, []
        continue
    f = line.split()
    if value is None and len(f) >= 2 and f[0].endswith("ms"):
        value = int(f[0][:-2]) * 1000000
        frames = [f[1]]
    elif value is not None and f:
        frames.append(f[0])
flush()
for c in sorted(incl):
    print(c, selfc[c], incl[c] - selfc[c])
' "$tmp/traces" >"$tmp/want"
	"$bin" -q --brief tests/pprof/cpu.pb.gz 2>/dev/null |
		graph_callers main.spin | sort >"$tmp/got"
	[ -s "$tmp/want" ] && cmp -s "$tmp/want" "$tmp/got" || {
		fail "cpu.pb.gz: main.spin's caller lines differ from go tool pprof -traces:"
		diff "$tmp/want" "$tmp/got"
	}
else
	echo "arc-split: go tool pprof not run here: that part skipped"
fi

# Inlined frames are functions of the graph (--inlined=callee): the self
# of the calls into a function is of the samples that ended in it, so
# they add up to its self cost at most.
"$bin" -q --json --inlined=callee -b tests/perf/cxx --sysroot=tests/perf \
	--kallsyms=tests/perf/kallsyms tests/perf/cxx.data 2>/dev/null | $py -c '
import json, sys
d = json.load(sys.stdin)
got = {}
for a in d["arcs"]:
    if a["caller"] != a["callee"]:
        got[a["callee"]] = got.get(a["callee"], 0) + a["self"][0]
        assert a["self"][0] <= a["inclusive"][0], a
bad = [f["name"] for f in d["functions"] if got.get(f["id"], 0) > f["self"][0]]
some = sum(got.values())
if bad or not some:
    sys.exit("callers self past the function self: %s (%d in all)" % (bad, some))
' || fail "cxx.data --inlined=callee: the arcs' self parts do not fit the functions'"
exit $status
