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
cases=
while read -r name event unit args; do
	kind=stacks
	case $name in callgrind|gmon) kind=arcs ;; esac
	cases="$cases
$kind|$a/out-$name.$event.top|$event|$args"
done <$d/writer-cases
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
