# --output=folded: the lines add up to the profile's total for every
# input kind (Callgrind, with recursion levels and cycles, C++, gmon.out,
# IgProf's ticks and memory counters, perf.data, gperftools), and for the
# stacks of IgProf, perf.data (frame pointers, --call-graph dwarf) and
# gperftools (CPU, two summed; heap) each
# function's paths add up to its inclusive cost (tests/folded_check.py
# reads --json for both).
bin=$1
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3) || { echo "python3 is not installed"; exit 77; }
exec "$py" tests/folded_check.py "$bin" \
	"arcs:samples/recursion/callgrind.out" \
	"arcs:samples/recursion/callgrind.callers.out" \
	"arcs:samples/recursion/callgrind.instr.out" \
	"arcs:samples/cxx/callgrind.out" \
	"arcs:samples/hello/callgrind.out" \
	"arcs:-b tests/gmon/prog-nopie tests/gmon/nopie.gmon" \
	"arcs:-b tests/gmon/prog-nopie tests/gmon/nopie.gmon tests/gmon/nopie-2.gmon" \
	"stacks:tests/inputs/igprof/perf.txt" \
	"stacks:tests/inputs/igprof/hex.txt" \
	"stacks:tests/inputs/igprof/mem.txt" \
	"stacks:--counter=MEM_LIVE tests/inputs/igprof/mem.txt" \
	"stacks:tests/inputs/igprof/perf.txt tests/inputs/igprof/perf.txt.gz" \
	"stacks:-b tests/perf/prog -b tests/perf/libwork.so --sysroot=tests/perf --kallsyms=tests/perf/kallsyms tests/perf/fp.data" \
	"stacks:-b tests/perf/prog -b tests/perf/libwork.so --sysroot=tests/perf --kallsyms=tests/perf/kallsyms tests/perf/dwarf.data" \
	"stacks:-b tests/perf/cxx --sysroot=tests/perf tests/perf/cxx.data" \
	"stacks:--sysroot=tests/perf --kallsyms=tests/perf/kallsyms --comm=spinner tests/perf/two.data" \
	"stacks:-b tests/gperf/prog -b tests/gperf/libgwork.so --sysroot=/nonexistent tests/gperf/prog.prof tests/gperf/prog-nopie.prof" \
	"stacks:-b tests/gperf/heap --sysroot=/nonexistent --sort=alloc_space tests/gperf/heap.0003.heap"
