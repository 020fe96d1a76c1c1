# DWARF compressed with zstd (objcopy --compress-debug-sections=zstd, as
# some distributions ship their debug files), in the binary and in a
# separate debug file under .build-id/ab/cdef....debug: --resolve
# --inlines against addr2line -i (binutils reads zstd), and the same
# answer as for the uncompressed file. libdwarf 20210528 reads only
# zlib's: before, "corrupt DWARF: unit header:
# DW_DLE_ZDEBUG_INPUT_FORMAT_ODD" and no line or inlined frame
# (symtab/elf_zstd.c decompresses a copy now). A section that claims
# more than its bytes hold is refused by name.
bin=$1
command -v gcc >/dev/null && command -v addr2line >/dev/null &&
	command -v objcopy >/dev/null || { echo "needs gcc, objcopy and addr2line"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "resolve-zstd: $*"; status=1; }
cat >"$tmp/z.c" <<'SRC'
#include <stdio.h>
#include <stdlib.h>
static unsigned long __attribute__((noinline)) leaf(unsigned long x)
{
	unsigned long s = 0;
	for (unsigned i = 0; i < 100; i++)
		s += (x * i) ^ (s >> 3);
	return s;
}
static inline unsigned long mid(unsigned long x) { return leaf(x) + leaf(x + 1); }
unsigned long __attribute__((noinline)) work(int n)
{
	unsigned long s = 0;
	for (int i = 0; i < n; i++)
		s += mid(i);
	return s;
}
int main(int argc, char **argv)
{
	printf("%lu\n", work(argc > 1 ? atoi(argv[1]) : 10));
	return 0;
}
SRC
gcc -g -O2 -Wl,--build-id -o "$tmp/plain" "$tmp/z.c" || { echo "gcc failed"; exit 77; }
objcopy --compress-debug-sections=zstd "$tmp/plain" "$tmp/zstd" 2>/dev/null ||
	{ echo "objcopy cannot compress with zstd"; exit 77; }
readelf -S -W "$tmp/zstd" | grep -q 'debug_info.* C ' || { echo "not compressed"; exit 77; }
# every instruction of work (mid is inlined there), and leaf's start
addrs=$(objdump -d "$tmp/plain" | awk '/^[0-9a-f]+ <work>:/ { on = 1; next } /^$/ { on = 0 } on && /^ +[0-9a-f]+:/ { sub(":", "", $1); print "0x" $1 }')
addrs="$addrs 0x$(nm "$tmp/plain" | awk '$3 == "leaf" { print $1 }')"
"$bin" --resolve --inlines -b "$tmp/plain" $addrs >"$tmp/want" 2>"$tmp/err" ||
	fail "plain: $(cat "$tmp/err")"
grep -q 'inlined by) work at' "$tmp/want" || fail "plain: no inlined frame: $(cat "$tmp/want")"
# addr2line -i prints each inlined frame's caller too: the same lines
# but for its discriminators, which we print on the innermost frame only
addr2line -f -i -p -a -e "$tmp/zstd" $addrs | sed 's/ (discriminator [0-9]*)//' >"$tmp/peer"
sed 's/ (discriminator [0-9]*)//' "$tmp/want" | cmp -s - "$tmp/peer" ||
	fail "plain: not addr2line's: $(sed 's/ (discriminator [0-9]*)//' "$tmp/want" | diff - "$tmp/peer")"

"$bin" --resolve --inlines -b "$tmp/zstd" $addrs >"$tmp/out" 2>"$tmp/err" ||
	fail "zstd: $(cat "$tmp/err")"
[ -s "$tmp/err" ] && fail "zstd: said: $(cat "$tmp/err")"
cmp -s "$tmp/want" "$tmp/out" || fail "zstd in the binary: $(diff "$tmp/want" "$tmp/out")"

# a stripped binary and its zstd debug file by build-id
id=$(readelf -n "$tmp/plain" | awk '/Build ID/ { print $3 }')
mkdir -p "$tmp/dbg/.build-id/$(echo "$id" | cut -c1-2)"
objcopy --only-keep-debug "$tmp/zstd" "$tmp/dbg/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug"
objcopy --strip-all "$tmp/plain" "$tmp/stripped"
"$bin" --resolve --inlines --debug-dir="$tmp/dbg" -b "$tmp/stripped" $addrs \
	>"$tmp/out" 2>"$tmp/err" || fail "debug file: $(cat "$tmp/err")"
[ -s "$tmp/err" ] && fail "debug file: said: $(cat "$tmp/err")"
cmp -s "$tmp/want" "$tmp/out" || fail "zstd debug file: $(diff "$tmp/want" "$tmp/out")"

# .debug_info's Chdr claiming 2000 times its size: refused, named; an
# alignment of 2^40 (it asked for a terabyte) is not believed
python3 - "$tmp/zstd" "$tmp/bomb" <<'PY' || { echo "python3 failed"; exit 77; }
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
shoff, = struct.unpack_from('<Q', b, 0x28)
entsize, shnum, shstrndx = struct.unpack_from('<HHH', b, 0x3a)
stroff, = struct.unpack_from('<Q', b, shoff + shstrndx * entsize + 24)
for i in range(shnum):
    h = shoff + i * entsize
    name, = struct.unpack_from('<I', b, h)
    if b[stroff + name:stroff + name + 12] == b'.debug_info\0':
        off, size = struct.unpack_from('<QQ', b, h + 24)
        a = bytearray(b)
        struct.pack_into('<Q', a, off + 16, 1 << 40)
        open(sys.argv[2] + '-align', 'wb').write(a)
        struct.pack_into('<Q', b, off + 8, size * 2000)
open(sys.argv[2], 'wb').write(b)
PY
"$bin" --resolve -b "$tmp/bomb" $addrs >"$tmp/out" 2>"$tmp/err"
[ $? -lt 128 ] || fail "a section claiming too much: crashed"
grep -q "^cganalyze: warning: $tmp/bomb: offset 0x[0-9a-f]*: a zstd-compressed section claims [0-9]* bytes from [0-9]*: not believed" "$tmp/err" ||
	fail "a section claiming too much: $(cat "$tmp/err")"
"$bin" --resolve --inlines -b "$tmp/bomb-align" $addrs >"$tmp/out" 2>"$tmp/err" ||
	fail "an alignment of 2^40: $(cat "$tmp/err")"
cmp -s "$tmp/want" "$tmp/out" || fail "an alignment of 2^40: $(diff "$tmp/want" "$tmp/out")"
# 64 more section headers all pointing at one compressed run: each claims
# 1000 times the run's size, within the ratio believed of one section,
# but together 64000 times: 1 GB of copy from a file under 64 KB. Refused by
# the bound on all the sections together, and the copy kept under it
# (ulimit -f stops a copy growing past 256 MB, not the refusal). Its run
# is zstd's RLE blocks of zeros, padded by a skippable frame.
python3 - "$tmp/zstd" "$tmp/many" <<'PY' || { echo "python3 failed"; exit 77; }
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
shoff, = struct.unpack_from('<Q', b, 0x28)
entsize, shnum = struct.unpack_from('<HH', b, 0x3a)
run = 16384
want = 1000 * run
frame = struct.pack('<IBQ', 0xFD2FB528, 0xE0, want)
left = want
while left:
    n = min(left, 128 * 1024)
    left -= n
    frame += struct.pack('<I', (n << 3) | (1 << 1) | (left == 0))[:3] + b'\0'
frame += struct.pack('<II', 0x184D2A50, run - len(frame) - 8 - 24)
frame += bytes(run - len(frame) - 24)
while len(b) % 8:
    b.append(0)
off = len(b)
b += struct.pack('<IIQQ', 2, 0, want, 1) + frame
table = b[shoff:shoff + shnum * entsize]
for i in range(64):
    table += struct.pack('<IIQQQQIIQQ', 0, 1, 0x800, 0, off, run, 0, 0, 1, 0)
struct.pack_into('<Q', b, 0x28, len(b))
struct.pack_into('<H', b, 0x3c, shnum + 64)
b += table
open(sys.argv[2], 'wb').write(b)
PY
(ulimit -f 262144; exec "$bin" --resolve -b "$tmp/many" $addrs) >"$tmp/out" 2>"$tmp/err"
[ $? -lt 128 ] || fail "sections claiming too much together: killed: $(cat "$tmp/err")"
grep -q "^cganalyze: warning: $tmp/many: offset 0x[0-9a-f]*: zstd-compressed sections claim [0-9]* bytes or more in all from a file of [0-9]*: not believed" "$tmp/err" ||
	fail "sections claiming too much together: $(cat "$tmp/err")"
# 1000 more headers of DWARF sections, each the whole file: each within
# the file, but copied once each they made the copy's work a thousand
# times the file's (a file of 10 MB and 150,000 of them: 1.5 TB).
python3 - "$tmp/zstd" "$tmp/overlap" <<'PY' || { echo "python3 failed"; exit 77; }
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
shoff, = struct.unpack_from('<Q', b, 0x28)
entsize, shnum, shstrndx = struct.unpack_from('<HHH', b, 0x3a)
stroff, = struct.unpack_from('<Q', b, shoff + shstrndx * entsize + 24)
name = bytes(b[stroff:]).index(b'.debug_str\0')
table = b[shoff:shoff + shnum * entsize]
for i in range(1000):
    table += struct.pack('<IIQQQQIIQQ', name, 1, 0, 0, 0, len(b), 0, 0, 1, 0)
struct.pack_into('<Q', b, 0x28, len(b))
struct.pack_into('<H', b, 0x3c, shnum + 1000)
b += table
open(sys.argv[2], 'wb').write(b)
PY
"$bin" --resolve -b "$tmp/overlap" $addrs >"$tmp/out" 2>"$tmp/err"
[ $? -lt 128 ] || fail "overlapping sections: crashed: $(cat "$tmp/err")"
grep -q "^cganalyze: warning: $tmp/overlap: section [0-9]* at offset 0x0: the sections overlap, [0-9]* bytes and more in all from a file of [0-9]*: not believed" "$tmp/err" ||
	fail "overlapping sections: $(cat "$tmp/err")"
# a 32-bit object (gcc -m32 -c) whose section header table was moved to
# 1 KiB short of 4 GiB (the file sparse): its decompressed sections go
# past 4 GiB in the copy, which its 32-bit headers cannot say. Refused
# by name; before, the offsets were cut to 32 bits and the DWARF read
# from the wrong bytes was said to be corrupt.
# (no #include: a machine without 32-bit headers compiles it too)
printf 'int work(int n)\n{\n\tint s = 0;\n\tfor (int i = 0; i < n; i++)\n\t\ts += i * i;\n\treturn s;\n}\n' >"$tmp/m32.c"
if gcc -m32 -g -O2 -c -o "$tmp/m32.o" "$tmp/m32.c" 2>/dev/null &&
	objcopy --compress-debug-sections=zstd "$tmp/m32.o" "$tmp/m32z.o" 2>/dev/null; then
	python3 - "$tmp/m32z.o" "$tmp/m32big.o" <<'PY' || { echo "python3 failed"; exit 77; }
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
shoff, = struct.unpack_from('<I', b, 0x20)
entsize, shnum = struct.unpack_from('<HH', b, 0x2e)
table = b[shoff:shoff + shnum * entsize]
at = (1 << 32) - 1024
struct.pack_into('<I', b, 0x20, at)
with open(sys.argv[2], 'wb') as f:
    f.write(b)
    f.seek(at)
    f.write(table)
PY
	"$bin" --resolve -b "$tmp/m32big.o" 0x0 >"$tmp/out" 2>"$tmp/err"
	[ $? -lt 128 ] || fail "32-bit past 4 GiB: crashed: $(cat "$tmp/err")"
	grep -q "^cganalyze: warning: $tmp/m32big.o: offset 0x[0-9a-f]*: a zstd-compressed section would end at 0x[0-9a-f]* of the decompressed copy, past what a 32-bit ELF file's section header can say" "$tmp/err" ||
		fail "32-bit past 4 GiB: $(cat "$tmp/err")"
	grep -q 'corrupt DWARF' "$tmp/err" && fail "32-bit past 4 GiB: $(cat "$tmp/err")"
	# the same object where it was: read
	"$bin" --resolve -b "$tmp/m32z.o" 0x0 >"$tmp/out" 2>"$tmp/err"
	grep -q 'm32.c:[0-9]' "$tmp/out" || fail "32-bit zstd object: no line: $(cat "$tmp/out" "$tmp/err")"
else
	echo "resolve-zstd: no gcc -m32: the 32-bit case skipped"
fi
exit $status
