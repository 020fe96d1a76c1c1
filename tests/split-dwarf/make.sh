#!/bin/sh
# Makes the -gsplit-dwarf test inputs (tests/sh/split-dwarf-files.sh):
# a C++ program of two units with inline members and a template, built
# at -O2 four ways in /tmp/cganalyze-split (the path the DWARF names):
#   whole    -g, no split: the reference the DWARF 5 split builds equal
#   whole4   -gdwarf-4, no split: the reference of the DWARF 4 ones
#   v5       -gsplit-dwarf (DWARF 5, GCC 12's default): v5-*.dwo
#   v4       -gdwarf-4 -gsplit-dwarf (GCC's DWARF 4 extension): v4-*.dwo
#   v5p      as v5, its .dwo packed by llvm-dwp into v5p.dwp
#   v4p      as v4, its .dwo packed by binutils' dwp into v4p.dwp
# and callgrind.out, a Callgrind profile of ./whole with instruction
# addresses (--dump-instr=yes: inlined frames need them) (the code of all
# builds is the same bytes: the debug sections alone differ).
# Run from the top: sh tests/split-dwarf/make.sh
set -e
out=$(pwd)/tests/split-dwarf
d=/tmp/cganalyze-split
rm -rf "$d" && mkdir -p "$d"
cp "$out"/shapes.h "$out"/area.cc "$out"/main.cc "$d"
cd "$d"
build() {	# name, flags...
	n=$1
	shift
	for u in area main; do
		g++ -O2 -g "$@" -c -o "$n-$u.o" "$u.cc"
	done
	g++ -o "$n" "$n-area.o" "$n-main.o"
	rm -f "$n-area.o" "$n-main.o"
}
build whole
build whole4 -gdwarf-4
build v5 -gsplit-dwarf
build v4 -gdwarf-4 -gsplit-dwarf
build v5p -gsplit-dwarf
build v4p -gdwarf-4 -gsplit-dwarf
llvm-dwp -e v5p -o v5p.dwp && rm -f v5p-*.dwo
dwp -e v4p -o v4p.dwp && rm -f v4p-*.dwo
for n in v5 v4 v5p v4p; do
	objdump -d whole | tail -n +3 >code.whole
	objdump -d $n | tail -n +3 >code.$n
	cmp -s code.whole code.$n ||
		echo "make.sh: $n's code is not whole's" >&2
done
valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file=callgrind.out ./whole
cp whole whole4 v5 v4 v5p v4p v5-*.dwo v4-*.dwo v5p.dwp v4p.dwp callgrind.out "$out"
# gone, as on another machine: the tests find the .dwo next to the
# binaries (their DW_AT_comp_dir is this directory)
cd / && rm -rf "$d"
