# A stripped binary (objcopy --strip-all: .symtab gone, .eh_frame and
# the build-id kept) names its unexported functions from .eh_frame, one
# function each, "prog+0xADDR" at nm's address, with the samples of the
# named function (tests/perf_stripped_check.py), on a frame-pointer and
# a --call-graph dwarf recording.
bin=$1
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3) || { echo "python3 is not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
objcopy --strip-all tests/perf/prog "$tmp/prog" || exit 1
status=0
for data in fp dwarf; do
	"$py" tests/perf_stripped_check.py "$bin" tests/perf/prog "$tmp/prog" -- \
		-b tests/perf/prog -b tests/perf/libwork.so --sysroot=tests/perf \
		--kallsyms=tests/perf/kallsyms "tests/perf/$data.data" >"$tmp/out" ||
		status=1
	grep -v ' costs equal$' "$tmp/out"
done
exit $status
