#!/bin/sh
# Rebuild every case of tests/resolve: binaries, callgrind profiles,
# address lists and the answers of addr2line and llvm-symbolizer.
# For humans, not CI: it needs gcc, g++, valgrind, binutils, llvm and
# python3, and the DWARF it writes names the absolute path of this
# directory, so rebuilding anywhere but /work/main/tests/resolve changes
# every answer file. See README.md.
set -eu
cd "$(dirname "$0")"
for c in c-pie c-nopie cxx-O2 shlib stripped nodwarf; do	# stripped after c-pie
	echo "== $c"
	sh "$c/build.sh"
done
