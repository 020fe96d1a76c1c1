#!/bin/sh
# Regenerates the gmon.out test data from prog.c: run from the top of the
# repository (sh tests/gmon/make.sh). Needs gcc, gprof and python3.
#
#   prog-nopie, prog-pie        gcc -pg -g -O1, without and with PIE
#   nopie.gmon, pie.gmon        what running them wrote (glibc's gmon.out)
#   nopie-2.gmon                a second run of prog-nopie, for summing
#   *.gprof                     gprof -b on each (and on the sum, in
#                               nopie-sum.gprof, from gprof -s)
#   nopie-<option>.gprof        gprof -b with a symspec option on
#                               nopie.gmon (-pmain, -Qspin, -k work/spin...)
#   nopie-lines.gprof,          gprof -l -b -p: time by source line
#   pie-lines.gprof             (tests/test_gmon_pos.c)
#   bsd44.gmon, bsd-old.gmon    nopie.gmon rewritten in the BSD formats
#                               (gmon-convert.py); gprof reads them too:
#                               bsd44.gprof, bsd-old.gprof
#   gnu32.gmon, gnu-be.gmon     nopie.gmon as a 32-bit / big-endian
#                               program would write it: refused with -b
#                               prog-nopie (another architecture)
#   bb.gmon                     nopie.gmon plus a basic-block record
#   bb-annotate.gprof           gprof -l -A -b on it (its block counts)
#   pie-runtime.gmon            pie.gmon with runtime addresses (as older
#                               glibc wrote them; gprof cannot use it)
#   truncated.gmon              nopie.gmon cut in its histogram
#   aarch64.gmon                made by hand for tests/elf/prog-aarch64,
#                               which this libopcodes cannot disassemble:
#                               the listings' fallback (e2e)
set -e
d=tests/gmon
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
flags="-pg -g -O1 -fdebug-prefix-map=$(pwd)=."
gcc $flags -no-pie -o $d/prog-nopie $d/prog.c
gcc $flags -pie -fPIE -o $d/prog-pie $d/prog.c
top=$(pwd)
run() {	# binary output [args]
	(cd "$tmp" && rm -f gmon.out && "$top/$1" $3 >/dev/null && mv gmon.out "$top/$2")
}
run $d/prog-nopie $d/nopie.gmon
run $d/prog-nopie $d/nopie-2.gmon 2
run $d/prog-pie $d/pie.gmon
gprof -b $d/prog-nopie $d/nopie.gmon >$d/nopie.gprof
gprof -b $d/prog-nopie $d/nopie-2.gmon >$d/nopie-2.gprof
gprof -b $d/prog-pie $d/pie.gmon >$d/pie.gprof
for o in pmain Pspin pwork qwork Qspin Qmain "k work/spin" "k pong/ping"; do
	# shellcheck disable=SC2086
	gprof -b -$o $d/prog-nopie $d/nopie.gmon >"$d/nopie-$(echo "$o" | tr ' /' '--').gprof"
done
gprof -l -b -p $d/prog-nopie $d/nopie.gmon >$d/nopie-lines.gprof
gprof -l -b -p $d/prog-pie $d/pie.gmon >$d/pie-lines.gprof
(cd "$tmp" && gprof -s "$top/$d/prog-nopie" "$top/$d/nopie.gmon" "$top/$d/nopie-2.gmon" &&
	gprof -b "$top/$d/prog-nopie" gmon.sum >"$top/$d/nopie-sum.gprof")
for kind in bsd44 bsd-old gnu32 gnu-be; do
	python3 $d/gmon-convert.py $d/nopie.gmon $d/$kind.gmon $kind
done
python3 $d/gmon-convert.py $d/nopie.gmon $d/bb.gmon gnu-bb
gprof -l -A -b $d/prog-nopie $d/bb.gmon >$d/bb-annotate.gprof
python3 $d/gmon-convert.py $d/pie.gmon $d/pie-runtime.gmon runtime
gprof -b $d/prog-nopie $d/bsd44.gmon >$d/bsd44.gprof
gprof -b $d/prog-nopie $d/bsd-old.gmon >$d/bsd-old.gprof
head -c 300 $d/nopie.gmon >$d/truncated.gmon
python3 - <<'PY'
import struct
d = b"gmon" + struct.pack("<I", 1) + bytes(12)
d += bytes([0]) + struct.pack("<QQII", 0x400078, 0x400098, 8, 100)
d += b"seconds".ljust(15, b"\0") + b"s" + struct.pack("<8H", 0, 3, 5, 0, 1, 0, 0, 0)
d += bytes([1]) + struct.pack("<QQI", 0x400080, 0x400088, 7)
d += bytes([1]) + struct.pack("<QQI", 0x40007c, 0x400088, 2)
open("tests/gmon/aarch64.gmon", "wb").write(d)
PY
