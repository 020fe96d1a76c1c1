# pprof's profile.proto: our listings of Go's CPU and heap profiles
# equal go tool pprof's (flat and cumulative per function, every sample
# type), and our --output=pprof of each input kind, read by go tool
# pprof, equals our --json (tests/pprof_check.py; the answers are
# committed: tests/pprof/make-answers.sh). With Go installed, go tool
# pprof also reads what we write now.
bin=$1
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3) || { echo "python3 is not installed"; exit 77; }
d=tests/pprof
a=$d/answers
# An unsymbolized profile, named from the binary: pprof names GCC's
# partial-inlining clone by its DWARF name (helper), we by its symbol
# (helper.part.0), as gprof and perf report do; code outside every
# mapping is pprof's <unknown>, perf's [unknown].
nosym='helper.part.0=helper,[unknown]=<unknown>'
# A sampled profile written and read back keeps its samples: each
# function's self samples and the total (a "samples" type beside the
# period; without it each stack would count one sample).
tmp=$(mktemp -d)
perf="-b tests/perf/prog -b tests/perf/libwork.so --sysroot=tests/perf --kallsyms=tests/perf/kallsyms tests/perf/fp.data"
# shellcheck disable=SC2086
"$bin" --output=pprof -o "$tmp/p.pb.gz" $perf 2>/dev/null &&
	"$bin" -p --brief --threshold=0 "$tmp/p.pb.gz" >"$tmp/back" 2>/dev/null &&
	"$bin" -p --brief --threshold=0 $perf >"$tmp/orig" 2>/dev/null || {
	echo "pprof: fp.data written as pprof and read back failed"
	rm -rf "$tmp"
	exit 1
}
# the title says nanoseconds for ns; the rows are the same
sed 's/ ns in all/ nanoseconds in all/' "$tmp/orig" | cmp -s - "$tmp/back" || {
	echo "pprof: fp.data read back from --output=pprof differs:"
	sed 's/ ns in all/ nanoseconds in all/' "$tmp/orig" | diff - "$tmp/back" | head -20
	rm -rf "$tmp"
	exit 1
}
rm -rf "$tmp"
# profile.proto: "mapping[0] will be the main binary" (go tool pprof's
# "File:" line is its file). fp.data's first function is the kernel's:
# its mapping came first, and pprof said "File: [kernel.kallsyms]".
tmp=$(mktemp -d)
# shellcheck disable=SC2086
"$bin" --output=pprof -o "$tmp/p.pb.gz" $perf 2>/dev/null || {
	echo "pprof: fp.data written as pprof failed"
	rm -rf "$tmp"
	exit 1
}
first=$("$py" - "$tmp/p.pb.gz" <<'PY'
import gzip, sys
def fields(b):
    i = 0
    while i < len(b):
        key = 0; s = 0
        while True:
            c = b[i]; i += 1; key |= (c & 127) << s; s += 7
            if c < 128: break
        f, t = key >> 3, key & 7
        if t == 0:
            v = 0; s = 0
            while True:
                c = b[i]; i += 1; v |= (c & 127) << s; s += 7
                if c < 128: break
            yield f, v
        elif t == 2:
            n = 0; s = 0
            while True:
                c = b[i]; i += 1; n |= (c & 127) << s; s += 7
                if c < 128: break
            yield f, b[i:i + n]; i += n
        else:
            raise SystemExit("wire type %d" % t)
prof = list(fields(gzip.open(sys.argv[1]).read()))
strings = [v for f, v in prof if f == 6]
mapping = [v for f, v in prof if f == 3][0]
print(strings[dict(fields(mapping))[5]].decode())
PY
)
[ "$first" = /tmp/cganalyze-perf/prog ] || {
	echo "pprof: fp.data's first mapping is '$first', not the program's (/tmp/cganalyze-perf/prog)"
	rm -rf "$tmp"
	exit 1
}
rm -rf "$tmp"
cases=
while read -r name event unit args; do
	kind=stacks
	case $name in callgrind|gmon) kind=arcs ;; esac
	cases="$cases
$kind|$a/out-$name.$event.top|$event|$args"
done <$d/writer-cases
# A mapping named without a path ("prog": go tool pprof -proto
# -symbolize=none prog prog.prof names the binary as its command line
# did) is a file -b binds by its name, not a [vdso]: its functions are
# the gperftools profile's. Copies dated after the binaries (else they
# are "changed after the recording").
tmp=$(mktemp -d)
cp tests/gperf/prog-relname.pb.gz tests/gperf/prog.prof "$tmp/"
touch -d @4102444800 "$tmp/prog-relname.pb.gz" "$tmp/prog.prof"
# And each arc's samples: a Sample counted in each of its types ("samples"
# and "cpu") is one sample, as gperftools' (perf_data's
# samples_every_event; they were twice the samples).
arcs='import json, sys
d = json.load(sys.stdin); F = d["functions"]
for a in sorted((F[a["caller"]]["name"], F[a["callee"]]["name"], a["count"]) for a in d["arcs"]):
    print(*a)'
for f in prog-relname.pb.gz prog.prof; do
	"$bin" -p --brief --threshold=0 -b tests/gperf/prog -b tests/gperf/libgwork.so \
		"$tmp/$f" 2>"$tmp/$f.err" | awk '$1 ~ /^[0-9.]+$/ { print $3, $NF }' >"$tmp/$f.rows"
	"$bin" --json -b tests/gperf/prog -b tests/gperf/libgwork.so "$tmp/$f" 2>/dev/null |
		"$py" -c "$arcs" | grep -v '^0x\|libc' >>"$tmp/$f.rows"
done
[ -s "$tmp/prog.prof.rows" ] && cmp -s "$tmp/prog.prof.rows" "$tmp/prog-relname.pb.gz.rows" &&
	! grep -q "warning\|error" "$tmp/prog-relname.pb.gz.err" || {
	echo "pprof: a mapping named without a path: not the gperftools profile's functions and arcs"
	diff "$tmp/prog.prof.rows" "$tmp/prog-relname.pb.gz.rows"
	cat "$tmp/prog-relname.pb.gz.err"
	rm -rf "$tmp"
	exit 1
}
rm -rf "$tmp"
IFS='
'
# shellcheck disable=SC2086
exec "$py" tests/pprof_check.py "$bin" \
	"read|$a/cpu.cpu.top|cpu|$d/cpu.pb.gz" \
	"read|$a/cpu.samples.top|samples|$d/cpu.pb.gz" \
	"read|$a/heap.alloc_objects.top|alloc_objects|$d/heap.pb.gz" \
	"read|$a/heap.alloc_space.top|alloc_space|$d/heap.pb.gz" \
	"read|$a/heap.inuse_objects.top|inuse_objects|$d/heap.pb.gz" \
	"read|$a/heap.inuse_space.top|inuse_space|$d/heap.pb.gz" \
	"read|$a/nosym.samples.top|samples|-b tests/gmon/prog-nopie $d/nosym.pb.gz|$nosym" \
	"read|$a/nosym.cpu.top|cpu|-b tests/gmon/prog-nopie $d/nosym.pb.gz|$nosym" \
	$cases
