# gperftools profiles (tests/gperf/, made by tests/gperf/make.sh) against
# pprof's answers made with them, and as inputs like the others: summed,
# diffed, refused with another format, in every word size and byte
# order, and refused with the file and offset when broken.
#
# The answers: google-pprof --text for the CPU profiles (samples per
# function, flat and cumulative), go tool pprof -top -unit=B for a heap
# profile's bytes (google-pprof prints MB with one decimal), google-pprof
# for its objects. Only the rows of the programs' own functions are
# compared: libc's are named from this machine's libc, which a checkout
# elsewhere has another build of (the profiles record no build-id), so
# our runs take --sysroot /nonexistent and name libc's code by offsets.
# Where we name differently on purpose: pprof shortens C++ names (no
# arguments or template arguments: square<int>::area and
# square<double>::area are one row "shapes::square::area"; check_pprof.py
# adds ours up the same way) and gives code inlined into a function rows
# of its own ("sort (inline)"), so for the C++ program the functions
# with inlined code are compared by their cumulative column, where
# both count every stack they are in. We keep every function's own
# name: a listing of C++ that joins the instances of a template hides
# which one is hot.
#
# With google-perftools installed (bootstrap.sh check does), a program
# is recorded here too and its functions' flat and cumulative samples
# must equal google-pprof's on it; without, that part says it is
# skipped and the rest runs on the committed files.
bin=$1
status=0
fail() { echo "gperf: $*"; status=1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
g=tests/gperf
nosys="--sysroot /nonexistent"
check="python3 $g/check_pprof.py"

ours() {
	out=$1
	shift
	# shellcheck disable=SC2068
	"$bin" $nosys --json "$@" > "$tmp/$out.json" 2> "$tmp/$out.err" ||
		fail "cganalyze $* failed: $(cat "$tmp/$out.err")"
}

# CPU profiles: samples of 1 ms (1,000,000 ns)
prog_funcs="leaf gw_spin fib gw_apply hot main _start"
ours prog -b $g/prog -b $g/libgwork.so $g/prog.prof
$check "$tmp/prog.json" $g/prog.pprof 0 1e6 $prog_funcs || fail "prog.prof"
ours nopie -b $g/prog-nopie -b $g/libgwork.so $g/prog-nopie.prof
$check "$tmp/nopie.json" $g/prog-nopie.pprof 0 1e6 $prog_funcs ||
	fail "prog-nopie.prof"
ours cxx -b $g/cxx $g/cxx.prof
$check "$tmp/cxx.json" $g/cxx.pprof 0 1e6 shapes::square::area \
	main:cum std::__introsort_loop:cum _start || fail "cxx.prof"

# the heap: events inuse_space, inuse_objects, alloc_space, alloc_objects
ours heap -b $g/heap $g/heap.0003.heap
$check "$tmp/heap.json" $g/heap.inuse 0 1 block both kept main ||
	fail "heap.0003.heap in-use space"
$check "$tmp/heap.json" $g/heap.alloc 2 1 block both kept churn main ||
	fail "heap.0003.heap allocated space"
$check "$tmp/heap.json" $g/heap.inuse-objects 1 1 block both kept main _start ||
	fail "heap.0003.heap in-use objects"
# heap_v2: scaled by pprof's rule (go tool pprof's answers)
ours v2 -b $g/heap $g/heap-v2.heap
$check "$tmp/v2.json" $g/heap-v2.inuse 0 1 block both kept main ||
	fail "heap-v2.heap in-use space"
$check "$tmp/v2.json" $g/heap-v2.alloc 2 1 block both kept churn main ||
	fail "heap-v2.heap allocated space"

# the units pprof gives: ns for cpu, bytes and objects for the heap
total() {	# FILE EVENT-INDEX: the total and unit in --json
	python3 -c "import json,sys; d=json.load(open(sys.argv[1]))
i=int(sys.argv[2]); print(d['totals'][i], d['event_info'][i].get('unit'))" "$@"
}
[ "$(total "$tmp/prog.json" 0)" = "$(awk '/^Total:/ { print $2 "000000 ns" }' \
	$g/prog.pprof)" ] || fail "prog.prof total: $(total "$tmp/prog.json" 0)"
[ "$(total "$tmp/heap.json" 1)" = "$(awk '/^Total:/ { print $2 " objects" }' \
	$g/heap.inuse-objects)" ] || fail "heap objects: $(total "$tmp/heap.json" 1)"

# every layout: the same profile big-endian, and in 4-byte words
for shape in be64 le32 be32; do
	python3 $g/reshape.py $g/prog-nopie.prof "$tmp/$shape.prof" $shape
	ours "$shape" -b $g/prog-nopie -b $g/libgwork.so "$tmp/$shape.prof"
	$check "$tmp/$shape.json" $g/prog-nopie.pprof 0 1e6 $prog_funcs ||
		fail "prog-nopie.prof as $shape"
done

# summed: a profile twice is every number twice; two heap dumps add up
ours twice -b $g/prog -b $g/libgwork.so $g/prog.prof $g/prog.prof
[ "$(total "$tmp/twice.json" 0)" = \
  "$(python3 -c "import json,sys; d=json.load(open(sys.argv[1]))
print(2 * d['totals'][0], 'ns')" "$tmp/prog.json")" ] ||
	fail "prog.prof twice: $(total "$tmp/twice.json" 0)"
ours dumps -b $g/heap $g/heap.0001.heap $g/heap.0002.heap
want=$(awk 'FNR == 1 { s += $4 } END { print s " bytes" }' \
	$g/heap.0001.heap $g/heap.0002.heap)
[ "$(total "$tmp/dumps.json" 0)" = "$want" ] ||
	fail "two heap dumps: $(total "$tmp/dumps.json" 0), not $want"

# --diff: the first heap dump against the last, in-use space; block()
# has all of it, the totals of the headers
"$bin" $nosys -b $g/heap --diff $g/heap.0001.heap $g/heap.0003.heap \
	> "$tmp/diff" 2> "$tmp/diff.err" ||
	fail "--diff failed: $(cat "$tmp/diff.err")"
want=$(awk 'FNR == 1 { printf "%s%s", n++ ? " " : "", $4 }' \
	$g/heap.0001.heap $g/heap.0003.heap)
awk '/ block / { gsub(/,/, ""); print $5, $6 }' "$tmp/diff" | grep -qx "$want" ||
	fail "--diff's block is not $want: $(cat "$tmp/diff")"

# another build: no build-id is recorded, but its return addresses must
# follow calls in the binary; the C++ program given as prog is refused
# (--force-binary: used, with a warning), and found at the recorded path
# (--sysroot) it is not used, with a warning
mkdir -p "$tmp/other" "$tmp/sys/tmp/cganalyze-gperf"
cp $g/cxx "$tmp/other/prog"
cp $g/cxx "$tmp/sys/tmp/cganalyze-gperf/prog"
if "$bin" $nosys -b "$tmp/other/prog" $g/prog.prof > /dev/null 2> "$tmp/other.err"; then
	fail "another build of prog was taken"
fi
grep -q "other/prog: not the '/tmp/cganalyze-gperf/prog' that ran: of [0-9]* return addresses of the stacks in it, [0-9]* follow a call in this file" \
	"$tmp/other.err" || fail "another build: $(cat "$tmp/other.err")"
"$bin" $nosys --force-binary -b "$tmp/other/prog" -p $g/prog.prof \
	> /dev/null 2> "$tmp/force.err" || fail "--force-binary: $(cat "$tmp/force.err")"
grep -q "not the '/tmp/cganalyze-gperf/prog' that ran (.*); used anyway" \
	"$tmp/force.err" || fail "--force-binary's warning: $(cat "$tmp/force.err")"
"$bin" --sysroot "$tmp/sys" -p --brief $g/prog.prof > "$tmp/sys.out" \
	2> "$tmp/sys.err" || fail "--sysroot of another build: $(cat "$tmp/sys.err")"
grep -q "sys/tmp/cganalyze-gperf/prog: not the file that ran" "$tmp/sys.err" ||
	fail "--sysroot of another build: no warning: $(cat "$tmp/sys.err")"
grep -q ' prog+0x' "$tmp/sys.out" || fail "--sysroot of another build named code"

# formats that do not add up
if "$bin" $nosys $g/prog.prof $g/heap.0003.heap > /dev/null 2> "$tmp/mix"; then
	fail "a CPU and a heap profile were added up"
fi
grep -q "heap.0003.heap: this is a gperftools heap profile and .*prog.prof' is a gperftools CPU one" \
	"$tmp/mix" || fail "mixed formats: $(cat "$tmp/mix")"

# broken files: the file, the offset or line, what was expected
bad() {	# NAME EXPECTED-MESSAGE (grep -E)
	if "$bin" $nosys "$tmp/$1" > /dev/null 2> "$tmp/$1.err"; then
		fail "$1 was read"
	elif ! grep -Eq "$2" "$tmp/$1.err"; then
		fail "$1: $(cat "$tmp/$1.err")"
	fi
}
head -c 30 $g/prog.prof > "$tmp/short-header"
bad short-header "short-header: offset 0x1e: the gperftools CPU profile's header is truncated"
head -c 60 $g/prog.prof > "$tmp/cut-record"
bad cut-record "cut-record: offset 0x30: a record's depth of 6 addresses is past the end of the file \(0 words are left\)"
head -c 44 $g/prog.prof > "$tmp/cut-count"
bad cut-count "cut-count: offset 0x28: truncated record: its count and depth need 16 bytes, 4 are left"
python3 - "$tmp" <<'PY'
import struct, sys
d = sys.argv[1]
hdr = struct.pack('<5Q', 0, 3, 0, 1000, 0)
open(d + '/huge-count', 'wb').write(hdr + struct.pack('<3Q', 2**62, 1, 0x400000))
open(d + '/huge-depth', 'wb').write(hdr + struct.pack('<3Q', 1, 2**60, 0x400000))
open(d + '/java', 'wb').write(struct.pack('<5Q', 0, 3, 1, 1000, 0))
open(d + '/no-period', 'wb').write(struct.pack('<5Q', 0, 3, 0, 0, 0))
open(d + '/no-trailer', 'wb').write(hdr + struct.pack('<3Q', 5, 1, 0x400000))
PY
bad huge-count "huge-count: offset 0x28: a record counts 4611686018427387904 samples: .*more time than 64 bits hold"
bad huge-depth "huge-depth: offset 0x30: a record's depth of 1152921504606846976 addresses is past the end of the file \(1 words are left\)"
bad java "java: offset 0x10: a gperftools CPU profile of a Java program"
bad no-period "no-period: offset 0x18: the sampling period of 0 microseconds"
# without its mappings every address is one [unknown] (google-pprof
# takes them for the program's: see REFERENCE.md)
"$bin" $nosys --json "$tmp/no-trailer" > "$tmp/nt.json" 2> "$tmp/nt.err" ||
	fail "no-trailer: $(cat "$tmp/nt.err")"
grep -q "no-trailer: offset 0x40: the CPU profile ends without its end-of-data record" \
	"$tmp/nt.err" || fail "no-trailer's warning: $(cat "$tmp/nt.err")"
[ "$(total "$tmp/nt.json" 0)" = "5000000 ns" ] || fail "no-trailer's total"
printf 'heap profile: 1: 10 [ 1: 10] @ growth\n' > "$tmp/growth"
bad growth "growth:1: a heap profile of the kind 'growth'"
printf 'heap profile: 1: 10 [ 1: 10] @ heapprofile\n 1: 10 [ 1: 10] @ 0x40zz\n' > "$tmp/bad-addr"
bad bad-addr "bad-addr:2: '0x40zz' is not an address of 64 bits"
printf 'heap profile: 1: 10 [ 1: 10] @ heapprofile\n 1: 99999999999999999999 [ 1: 10] @ 0x40\n' > "$tmp/big"
bad big "big:2: the bytes in use '99999999999999999999' is beyond 64 bits"
printf 'heap profile: 1: 10 [ 1: 10] @ heapprofile\n 1: 10 [ 1 10] @ 0x40\n' > "$tmp/no-colon"
bad no-colon "no-colon:2: expected ':' at '10\] @ 0x40'"
printf 'heap profile: 1: 10 [ 1: 10] @ heap_v2/2\n 1: 18446744073709551615 [ 0: 0] @ 0x40\n' > "$tmp/scaled"
bad scaled "scaled:2: .* scaled for the sampling rate of 2 bytes, are beyond 64 bits"

# live: record prog here and hold our totals to google-pprof's on it
lib=/usr/lib/x86_64-linux-gnu/libprofiler.so.0
if [ -f "$lib" ] && command -v google-pprof > /dev/null &&
   command -v cc > /dev/null; then
	cp $g/prog.c $g/gwork.c "$tmp/"
	(cd "$tmp" && cc -g -fno-omit-frame-pointer -fPIC -shared -o libgwork.so gwork.c &&
	 cc -g -fno-omit-frame-pointer -o prog prog.c -L. -lgwork -Wl,-rpath,'$ORIGIN' &&
	 CPUPROFILE=live.prof CPUPROFILE_FREQUENCY=1000 LD_PRELOAD=$lib \
		./prog 30000000 2> /dev/null &&
	 google-pprof --text ./prog live.prof > live.pprof 2> /dev/null) ||
		fail "recording prog with libprofiler failed"
	"$bin" -b "$tmp/prog" -b "$tmp/libgwork.so" --json "$tmp/live.prof" \
		> "$tmp/live.json" 2> /dev/null || fail "live.prof not read"
	# the program's rows: pprof names libc's entry __libc_start_main_impl
	# (from its debug symbols), we by its symbol table's name
	$check "$tmp/live.json" "$tmp/live.pprof" 0 1e6 $prog_funcs ||
		fail "live.prof"
else
	echo "gperf: libprofiler or google-pprof not installed: not recorded live"
fi
exit $status
