#!/bin/sh
# Make the ELF files of tests/elf/ again (they are committed; the tests
# only read them). Needs binutils-aarch64-linux-gnu for the AArch64
# ones; the others come from the host's binutils.
#
#   prog-aarch64     AArch64, little-endian, with DWARF line info
#   prog-aarch64be   AArch64, big-endian
#   prog-i386        32-bit x86
#   prog-x86_64      the base of the damaged files
#   bad-*, cut-*     prog-x86_64 damaged by corrupt.py
#   origin-loop      hand-written DWARF: a DW_AT_specification loop
#   *.addr2line      the peers' answers for the addresses in *.addrs
#                    (aarch64-linux-gnu-addr2line, addr2line)
set -eu
cd "$(dirname "$0")"
map="--debug-prefix-map=$(pwd)=."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

aarch64-linux-gnu-as -g "$map" -o "$tmp/a.o" prog-aarch64.s
aarch64-linux-gnu-ld -o prog-aarch64 "$tmp/a.o"
aarch64-linux-gnu-as -EB -g "$map" -o "$tmp/b.o" prog-aarch64.s
aarch64-linux-gnu-ld -EB -o prog-aarch64be "$tmp/b.o"
as --32 -g "$map" -o "$tmp/i.o" prog-i386.s
ld -m elf_i386 -z noseparate-code -o prog-i386 "$tmp/i.o"
as --64 -g "$map" -o "$tmp/x.o" prog-x86_64.s
ld -m elf_x86_64 -z noseparate-code -o prog-x86_64 "$tmp/x.o"
python3 corrupt.py prog-x86_64 .
as --64 -o "$tmp/o.o" origin-loop.s
ld -m elf_x86_64 -z noseparate-code -o origin-loop "$tmp/o.o"

# every instruction's address, and one past the last
insns() {
	$1 -d --no-show-raw-insn "$2" |
		awk '/^ *[0-9a-f]+:/ { a = $1; sub(":", "", a); print a }'
	set -- $($1 -h "$2" | awk '$2 == ".text" { print $3, $4 }')
	printf '%x\n' $((0x$1 + 0x$2))
}
insns aarch64-linux-gnu-objdump prog-aarch64 >prog-aarch64.addrs
insns objdump prog-i386 >prog-i386.addrs
for p in prog-aarch64 prog-aarch64be; do
	aarch64-linux-gnu-addr2line -f -p -a -e $p $(cat prog-aarch64.addrs) >$p.addr2line
done
addr2line -f -p -a -e prog-i386 $(cat prog-i386.addrs) >prog-i386.addr2line
