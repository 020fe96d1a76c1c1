# The report's functions have the files and lines --json prints for the
# same run. The report reads the whole DWARF of the recorded files it
# lists the code of (no -b: the file at the recorded path); plain --json
# reads the line rows of the sampled functions' units alone (libc6-dbg's
# whole DWARF would cost it a fifth more time): either way a recorded
# file's functions have the files and lines a -b binary's have (the
# report once gave leaf prog.c:17 where --json gave null, and both gave
# null where perf report --sort sym,srcfile gives prog.c). With
# --inlined=callee, the same functions (inlined frames from -b alone).
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "report-json-files: $*"; status=1; }
perf=tests/perf
base="--kallsyms=$perf/kallsyms $perf/fp.data"

# name, object, file, line of each function, one a line, sorted
from_json() {
	python3 -c 'import json, sys
for f in json.load(sys.stdin)["functions"]:
    print("%s\t%s\t%s\t%s" % (f["name"], f["object"], f["file"], f["line"]))' |
		sort
}
from_page() {
	python3 -c 'import json, re, sys
s = open(sys.argv[1]).read()
m = re.search(r"<script type=\"application/json\" id=\"cga-data\">(.*?)</script>", s, re.S)
d = json.loads(m.group(1))
fn, paths = d["functions"], d["paths"]
for i, name in enumerate(fn["name"]):
    path = lambda k: paths[k] if k >= 0 else None
    line = fn["line"][i] or None
    print("%s\t%s\t%s\t%s" % (name, path(fn["object"][i]), path(fn["file"][i]), line))' "$1" |
		sort
}

check() {
	what=$1
	shift
	"$bin" --output=html --threshold=0 -o "$tmp/r.html" "$@" 2>/dev/null ||
		{ fail "$what: no report"; return; }
	"$bin" --json "$@" 2>/dev/null | from_json >"$tmp/json" ||
		{ fail "$what: no --json"; return; }
	from_page "$tmp/r.html" >"$tmp/page"
	[ -s "$tmp/page" ] || { fail "$what: no function in the report"; return; }
	cmp -s "$tmp/page" "$tmp/json" ||
		fail "$what: the report's functions are not --json's: $(diff "$tmp/json" "$tmp/page" | head -6)"
	echo "$what" >>"$tmp/checked"
}

check "recorded files" --sysroot=$perf/sysroot $base
check "-b and a recorded file, --inlined=callee" --inlined=callee \
	-b $perf/prog --sysroot=$perf/sysroot $base
check "-b" -b $perf/prog -b $perf/libwork.so $base
check "-b, --inlined=callee" --inlined=callee -b $perf/prog -b $perf/libwork.so $base

# a -b binary's functions have their files (so the checks above are not
# of functions without any)
"$bin" --json -b $perf/prog $base 2>/dev/null | from_json |
	grep -q "^leaf	[^	]*	[^	]*prog\.c	17\$" ||
	fail "-b: leaf has no file prog.c, line 17 in --json"
# a recorded file's functions, found without -b, have the files and
# lines the same file given by -b gives them (addr2line -e prog on
# leaf's entry: prog.c:17)
"$bin" --json --sysroot=$perf/sysroot $base 2>/dev/null | from_json |
	grep "	/tmp/cganalyze-perf/prog	" >"$tmp/recorded"
"$bin" --json -b $perf/prog --sysroot=$perf/sysroot $base 2>/dev/null |
	from_json | grep "	/tmp/cganalyze-perf/prog	" >"$tmp/given"
grep -q "^leaf	[^	]*	[^	]*prog\.c	17\$" "$tmp/recorded" ||
	fail "recorded file: leaf has no file prog.c, line 17 in --json"
[ -s "$tmp/given" ] && cmp -s "$tmp/recorded" "$tmp/given" ||
	fail "recorded file: its functions are not -b's: $(diff "$tmp/given" "$tmp/recorded" | head -6)"
[ $status -eq 0 ] && echo "report-json-files: ok ($(wc -l <"$tmp/checked") runs)"
exit $status
