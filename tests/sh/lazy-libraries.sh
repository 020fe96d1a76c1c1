# libbfd is loaded only when a run needs it (symtab/binutils_load.c):
# not for a listing without -b, where linking it cost every run 1.4 ms
# of a 16 MB profile's 50; with -b on a C++ program it is loaded, and
# names come demangled and --disasm names @plt stubs, as when it was
# linked.
bin=$1
here=$(cd "$(dirname "$0")/../.." && pwd)
prof=$here/samples/cxx/callgrind.instr.out
prog=$here/samples/cxx/prog
status=0
loaded() { LD_DEBUG=files "$@" 2>&1 >/dev/null | grep -c 'file=libbfd' ; }
n=$(loaded "$bin" "$prof")
[ "$n" = 0 ] || { echo "libbfd loaded for a listing without -b ($n)"; status=1; }
n=$(loaded "$bin" -b "$prog" "$prof")
[ "$n" -ge 1 ] || { echo "libbfd not loaded with -b"; status=1; }
out=$("$bin" -b "$prog" --threshold=0 -p "$prof" 2>&1) || { echo "-b run failed: $out"; status=1; }
echo "$out" | grep -q '(' || { echo "no demangled C++ name with -b"; status=1; }
echo "$out" | grep -q '_Z' && { echo "a mangled name left with -b"; status=1; }
out=$("$bin" -b "$prog" --disasm=main "$prof" 2>&1) || { echo "--disasm run failed: $out"; status=1; }
echo "$out" | grep -q 'call .*<printf@plt>' || { echo "no @plt stub named by --disasm"; status=1; }
exit $status
