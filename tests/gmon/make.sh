#!/bin/sh
# Regenerates the gmon.out test data from prog.c: run from the top of the
# repository (sh tests/gmon/make.sh). Needs gcc, gprof and python3.
#
#   prog-nopie, prog-pie        gcc -pg -g -O1, without and with PIE
#   nopie.gmon, pie.gmon        what running them wrote (glibc's gmon.out)
#   nopie-2.gmon                a second run of prog-nopie, for summing
#   *.gprof                     gprof -b on each (and on the sum, in
#                               nopie-sum.gprof, from gprof -s)
#   nopie-lines.gprof,          gprof -l -b -p: time by source line
#   pie-lines.gprof             (tests/test_gmon_pos.c)
#   bsd44.gmon, bsd-old.gmon    nopie.gmon rewritten in the BSD formats
#                               (gmon-convert.py); gprof reads them too:
#                               bsd44.gprof, bsd-old.gprof
#   gnu32.gmon, gnu-be.gmon     nopie.gmon as a 32-bit / big-endian
#                               program would write it: refused with -b
#                               prog-nopie (another architecture)
#   bb.gmon                     nopie.gmon plus a basic-block record
#   pie-runtime.gmon            pie.gmon with runtime addresses (as older
#                               glibc wrote them; gprof cannot use it)
#   truncated.gmon              nopie.gmon cut in its histogram
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
gprof -l -b -p $d/prog-nopie $d/nopie.gmon >$d/nopie-lines.gprof
gprof -l -b -p $d/prog-pie $d/pie.gmon >$d/pie-lines.gprof
(cd "$tmp" && gprof -s "$top/$d/prog-nopie" "$top/$d/nopie.gmon" "$top/$d/nopie-2.gmon" &&
	gprof -b "$top/$d/prog-nopie" gmon.sum >"$top/$d/nopie-sum.gprof")
for kind in bsd44 bsd-old gnu32 gnu-be; do
	python3 $d/gmon-convert.py $d/nopie.gmon $d/$kind.gmon $kind
done
python3 $d/gmon-convert.py $d/nopie.gmon $d/bb.gmon gnu-bb
python3 $d/gmon-convert.py $d/pie.gmon $d/pie-runtime.gmon runtime
gprof -b $d/prog-nopie $d/bsd44.gmon >$d/bsd44.gprof
gprof -b $d/prog-nopie $d/bsd-old.gmon >$d/bsd-old.gprof
head -c 300 $d/nopie.gmon >$d/truncated.gmon
