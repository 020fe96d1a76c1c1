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
