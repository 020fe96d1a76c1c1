# The transforms' promises on profiles of whole stacks (IgProf, perf.data
# with frame pointers and with DWARF stacks), through --json and the
# report's data (--output=html): for each function F named,
#   --focus=F    the total is F's inclusive cost before, and so is F's
#                inclusive cost after;
#   --ignore=F   the total drops by exactly F's inclusive cost, and F
#                is in no function's costs any more;
#   --hide=F     the total stays, F's inclusive cost is 0;
#   --fold-recursion  the total and every function's inclusive cost
#                stay;
# and the report's functions and totals are --json's, number for number.
bin=$1
command -v python3 >/dev/null 2>&1 || { echo "python3 is not installed"; exit 77; }
status=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
perf=tests/perf
pargs="-b $perf/prog -b $perf/libwork.so --sysroot=$perf --kallsyms=$perf/kallsyms"

# check NAME FUNC ARGS...: the promises above for FUNC
check() {
	name=$1 func=$2
	shift 2
	# shellcheck disable=SC2068
	for t in "" "--focus=$func" "--ignore=$func" "--hide=$func" "--fold-recursion"; do
		key=${t:-none}
		# shellcheck disable=SC2086,SC2068
		"$bin" --json $t $@ >"$tmp/$key.json" 2>/dev/null ||
			{ echo "transforms: $name $t: --json failed"; status=1; }
		# every function (--threshold=0), to compare with --json's
		# shellcheck disable=SC2086,SC2068
		"$bin" --output=html --threshold=0 -o "$tmp/$key.html" $t $@ 2>/dev/null ||
			{ echo "transforms: $name $t: --output=html failed"; status=1; }
	done
	python3 - "$tmp" "$name" "$func" <<'EOF' || status=1
import json, re, sys
tmp, name, func = sys.argv[1:]
bad = []
def load(key):
    return json.load(open("%s/%s.json" % (tmp, key)))
def incl(d, f):
    ev = d["events"].index(d["sort_event"])
    return sum(x["inclusive"][ev] for x in d["functions"] if x["name"] == f)
def total(d):
    return d["totals"][d["events"].index(d["sort_event"])]
none = load("none")
f_incl = incl(none, func)
if f_incl <= 0:
    bad.append("%s has no inclusive cost to check with" % func)
focus, ignore, hide, fold = (load(k) for k in
    ("--focus=" + func, "--ignore=" + func, "--hide=" + func, "--fold-recursion"))
if total(focus) != f_incl or incl(focus, func) != f_incl:
    bad.append("focus: total %d, %s %d; want %d" % (total(focus), func, incl(focus, func), f_incl))
if total(ignore) != total(none) - f_incl or incl(ignore, func) != 0:
    bad.append("ignore: total %d, want %d - %d" % (total(ignore), total(none), f_incl))
if total(hide) != total(none) or incl(hide, func) != 0:
    bad.append("hide: total %d (want %d), %s %d" % (total(hide), total(none), func, incl(hide, func)))
if total(fold) != total(none) or any(incl(fold, f["name"]) != incl(none, f["name"])
                                    for f in none["functions"]):
    bad.append("fold-recursion changed a total or an inclusive cost")
for key, d in (("focus", focus), ("ignore", ignore)):
    if d.get("transforms", {}).get("totals_before") != none["totals"]:
        bad.append("%s: the JSON's totals_before is not the untransformed totals" % key)
# the report's data: the same functions and totals as --json
for key in ("none", "--focus=" + func, "--ignore=" + func, "--hide=" + func):
    page = open("%s/%s.html" % (tmp, key)).read()
    m = re.search(r'<script type="application/json" id="cga-data">(.*?)</script>', page, re.S)
    data = json.loads(m.group(1)) if m else None
    js = load(key)
    if not data:
        bad.append("%s: no report data" % key)
        continue
    if data["totals"] != js["totals"]:
        bad.append("%s: the report's totals %s, --json's %s" % (key, data["totals"], js["totals"]))
    # the report's functions are columns, in --json's order
    cols = data["functions"]
    if cols["name"] != [f["name"] for f in js["functions"]]:
        bad.append("%s: the report's functions are not --json's" % key)
        continue
    for e in range(len(js["events"])):
        got = cols["inclusive"][e] if e < len(cols["inclusive"]) else None
        want = [f["inclusive"][e] for f in js["functions"]]
        if got != want:
            bad.append("%s: event %d: the report's inclusive costs are not --json's" % (key, e))
for b in bad:
    print("transforms: %s: %s" % (name, b))
sys.exit(1 if bad else 0)
EOF
}

check igprof-fib fib tests/inputs/igprof/perf.txt
check igprof-work work tests/inputs/igprof/perf.txt
check igprof-odd odd tests/inputs/igprof/perf.txt
# shellcheck disable=SC2086
check fp-fib fib $pargs $perf/fp.data
# shellcheck disable=SC2086
check fp-leaf leaf $pargs $perf/fp.data
# shellcheck disable=SC2086
check dwarf-lib_apply lib_apply $pargs $perf/dwarf.data
# shellcheck disable=SC2086
check dwarf-leaf leaf $pargs $perf/dwarf.data

# A Callgrind profile records no stacks: the transforms work on the
# paths estimated from its arcs, rounded to whole units, and say so, and
# every event of the profile is transformed, not only the first. A first
# --focus=F's total is F's measured inclusive cost (callgrind_annotate
# --inclusive=yes prints it; --json's "inclusive" and --tree's node of F
# are it) and --ignore=F's the total less it, exactly, in every event:
# the stacks are pinned to it (src/print/arc_pin.h). Unpinned, each
# function's self spread over --tree's paths (cut at 1e-5) moved
# samples/cxx's main to 164,174 against 164,390 measured (1.2e-4 of the
# total; session 23 had widened this test's slack to 2e-4 for it), and
# fib's whole-unit rounding put it one unit off.
for spec in "samples/recursion/callgrind.instr.out:fib work main worker" \
	"samples/cxx/callgrind.out:main" \
	"samples/recursion/callgrind.cache.out:fib"; do
	file=${spec%%:*}
	for func in ${spec#*:}; do
		for t in "" "--focus=$func" "--ignore=$func"; do
			# shellcheck disable=SC2086
			"$bin" --json $t "$file" >"$tmp/arc${t:+-${t%%=*}}.json" 2>"$tmp/arc.err" ||
				{ echo "transforms: $file $t: --json failed"; status=1; }
		done
		grep -q "estimated from call arcs" "$tmp/arc.err" ||
			{ echo "transforms: $file: no note that the transforms are estimated"; status=1; }
		python3 - "$tmp" "$file" "$func" <<'EOF2' || status=1
import json, sys
tmp, name, func = sys.argv[1:]
none, focus, ignore = (json.load(open("%s/arc%s.json" % (tmp, k)))
                       for k in ("", "---focus", "---ignore"))
bad = []
for e, event in enumerate(none["events"]):
    incl = sum(f["inclusive"][e] for f in none["functions"] if f["name"] == func)
    tot = none["totals"][e]
    if focus["totals"][e] != incl:
        bad.append("focus: %s total %d, %s's inclusive %d" % (event, focus["totals"][e], func, incl))
    if ignore["totals"][e] != tot - incl:
        bad.append("ignore: %s total %d, want %d" % (event, ignore["totals"][e], tot - incl))
if not focus["transforms"]["estimated"]:
    bad.append("focus: the JSON does not say estimated")
for e in range(1, len(none["events"])):
    if none["totals"][e] and not ignore["totals"][e]:
        bad.append("ignore: event %s left at 0" % none["events"][e])
for b in bad:
    print("transforms: %s: %s" % (name, b))
sys.exit(1 if bad else 0)
EOF2
	done
done
exit $status
