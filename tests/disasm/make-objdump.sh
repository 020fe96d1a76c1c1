#!/bin/sh
# make-objdump.sh - objdump's disassembly of the functions tests/test_disasm.c
# compares ours with, committed so the test does not depend on the objdump
# installed when it runs. For humans; run from anywhere:
#     sh tests/disasm/make-objdump.sh
# Made with GNU objdump 2.40 (Binutils for Debian).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/tests/disasm

# dump NAME BINARY SYMBOL... : $out/NAME.objdump, one objdump -d per symbol
# (symbol names as the symbol table has them: objdump -d does not demangle)
dump() {
	name=$1 bin=$2
	shift 2
	{
		echo "# objdump -d --no-show-raw-insn --disassemble=SYMBOL $bin"
		for sym in "$@"; do
			objdump -d --no-show-raw-insn --disassemble="$sym" "$top/$bin" |
				grep -E '^[0-9a-f]+ <.*>:$|^ +[0-9a-f]+:'
		done
	} >"$out/$name.objdump"
}

dump recursion samples/recursion/prog fib work main cmp_uint even odd worker ring_a
dump cxx samples/cxx/prog main _ZN6sample11make_pointsEi _ZN6sample11make_pointsEi.cold \
	_ZN6sample11sort_pointsERSt6vectorINS_5PointESaIS1_EE \
	_ZN6sample12histogram_ofERKSt6vectorINS_5PointESaIS1_EE \
	_ZSt16__introsort_loopIN9__gnu_cxx17__normal_iteratorIPN6sample5PointESt6vectorIS3_SaIS3_EEEElNS0_5__ops15_Iter_comp_iterIZNS2_11sort_pointsERS7_EUlRKS3_SD_E_EEEvT_SG_T0_T1_
dump nopie tests/resolve/c-nopie/prog main fib checksum expensive collatz_steps
dump libwork tests/resolve/shlib/libwork.so work_hash work_gcd work_sum_squares
