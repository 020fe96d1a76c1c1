# libbfd and libdw are loaded only when a run needs them
# (symtab/binutils_load.c, src/read/perf/libdw_load.c): linked, they cost
# every run 1.4 ms and 1 ms of a 16 MB profile's 50. libbfd: not for a
# listing without -b; with -b on a C++ program it is loaded, names come
# demangled and --disasm names @plt stubs, as when it was linked.
# libdw: not for a frame-pointer perf.data; for a --call-graph dwarf
# one it is, and the user stacks are unwound as when it was linked.
bin=$1
here=$(cd "$(dirname "$0")/../.." && pwd)
prof=$here/samples/cxx/callgrind.instr.out
prog=$here/samples/cxx/prog
status=0
loaded() { lib=$1; shift; LD_DEBUG=files "$@" 2>&1 >/dev/null | grep -c "file=$lib" ; }
n=$(loaded libbfd "$bin" "$prof")
[ "$n" = 0 ] || { echo "libbfd loaded for a listing without -b ($n)"; status=1; }
n=$(loaded libbfd "$bin" -b "$prog" "$prof")
[ "$n" -ge 1 ] || { echo "libbfd not loaded with -b"; status=1; }
# a C program's symbols (_DYNAMIC, _GLOBAL_OFFSET_TABLE_, printf) are
# not mangled and its @plt stubs are read from the ELF: no libbfd
n=$(loaded libbfd "$bin" -b "$here/samples/recursion/prog" \
	"$here/samples/recursion/callgrind.instr.out")
[ "$n" = 0 ] || { echo "libbfd loaded for a C program's -b ($n)"; status=1; }
out=$("$bin" -b "$prog" --threshold=0 -p "$prof" 2>&1) || { echo "-b run failed: $out"; status=1; }
echo "$out" | grep -q '(' || { echo "no demangled C++ name with -b"; status=1; }
echo "$out" | grep -q '_Z' && { echo "a mangled name left with -b"; status=1; }
out=$("$bin" -b "$prog" --disasm=main "$prof" 2>&1) || { echo "--disasm run failed: $out"; status=1; }
echo "$out" | grep -q 'call .*<printf@plt>' || { echo "no @plt stub named by --disasm"; status=1; }
perf=$here/tests/perf
n=$(loaded libdw.so "$bin" "$perf/fp.data")
[ "$n" = 0 ] || { echo "libdw loaded for a frame-pointer perf.data ($n)"; status=1; }
n=$(loaded libdw.so "$bin" "$perf/dwarf.data")
[ "$n" -ge 1 ] || { echo "libdw not loaded for --call-graph dwarf"; status=1; }
# the e2e case perf-dwarf checks the stacks; here: some were unwound
out=$("$bin" -q --brief -b "$perf/prog" -b "$perf/libwork.so" --sysroot="$perf" \
	--kallsyms="$perf/kallsyms" "$perf/dwarf.data" 2>&1) ||
	{ echo "dwarf run failed: $out"; status=1; }
echo "$out" | grep -q 'main' || { echo "no unwound caller (main) in the call graph"; status=1; }
# a library of the right name without the functions (another version
# on the search path): said once, by name, and the run goes on without it
soname() { LD_DEBUG=files "$@" 2>&1 >/dev/null |
	sed -n 's/.*file=\([^ ]*\) .*dynamically loaded.*/\1/p' | head -n 1; }
fake=$(mktemp -d)
trap 'rm -rf "$fake"' EXIT
echo 'int cganalyze_fake_library;' > "$fake/empty.c"
dw=$(soname "$bin" "$perf/dwarf.data")
bfd=$(soname "$bin" -b "$prog" "$prof")
for lib in "$dw" "$bfd"; do
	[ -n "$lib" ] || { echo "no library name from LD_DEBUG"; status=1; continue; }
	cc -shared -fPIC -o "$fake/$lib" "$fake/empty.c" || status=1
done
err=$(LD_LIBRARY_PATH=$fake "$bin" "$perf/dwarf.data" 2>&1 >/dev/null)
echo "$err" | grep -q "warning: $dw has no dwarf_begin_elf: .*user stacks are not unwound" ||
	{ echo "no message for a libdw without its functions: $err"; status=1; }
echo "$err" | grep -q "architecture" &&
	{ echo "the architecture blamed for a missing libdw: $err"; status=1; }
err=$(LD_LIBRARY_PATH=$fake "$bin" -b "$prog" "$prof" 2>&1 >/dev/null)
[ "$(echo "$err" | grep -c "$bfd has no bfd_init")" = 1 ] ||
	{ echo "not one message for a libbfd without its functions: $err"; status=1; }
exit $status
