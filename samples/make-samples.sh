#!/bin/sh
# make-samples.sh - rebuild the sample programs, profile them with valgrind,
# run the peer annotators and write the TSVs that cganalyze's tests compare
# against. For humans, not CI: the output depends on the exact toolchain
# (valgrind 3.19.0, gcc 12.2.0, glibc 2.36 on Debian 12 when last run).
#
# Usage: sh samples/make-samples.sh          (from anywhere)
# Scratch files (valgrind logs, program output, toggle runs) go to
# $SAMPLES_WORK, default /tmp/samples-work.
set -eu

S=$(cd "$(dirname "$0")" && pwd)
W=${SAMPLES_WORK:-/tmp/samples-work}
A2T=$S/tools/annotate2tsv
mkdir -p "$W"

# Instruction counts depend on the size of the environment (stack layout,
# and so memcpy alignment paths in qsort) and on what stdout is: glibc calls
# isatty()/tcgetattr() when stdout is a character device (a tty or
# /dev/null), not for a pipe or a regular file. So every run gets the same
# minimal environment and writes stdout to a regular file.
run() { env -i PATH=/usr/bin:/bin "$@"; }

# The annotators are perl: fix the hash seed, or the order of rows with
# equal counts (cg_annotate) and of the auto-annotated sources
# (callgrind_annotate) changes from run to run.
annot() { env PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0 "$@"; }

# vg CASE TAG VALGRIND-OPTIONS... : run valgrind on ./prog inside $S/CASE
vg() {
    c=$1 t=$2
    shift 2
    (cd "$S/$c" && run valgrind --log-file="$W/$c.$t.vglog" "$@" ./prog >"$W/$c.$t.stdout")
    if ! cmp -s "$W/$c.$t.stdout" "$W/$c.expected.stdout"; then
        echo "make-samples: $c/$t: unexpected program output" >&2
        exit 1
    fi
}

# cgvg CASE PROFILE VALGRIND-OPTIONS... : callgrind run writing $S/CASE/PROFILE
cgvg() {
    c=$1 p=$2
    shift 2
    vg "$c" "$p" --tool=callgrind --callgrind-out-file="$p" "$@"
}

# peer CASE PROFILE [SOURCE] : PROFILE.annotate (raw callgrind_annotate
# output) and PROFILE.self.tsv. SOURCE is the file to annotate if it is not
# PROFILE itself (used for the .gz). callgrind_annotate strips the current
# directory from file names, so it runs from the scratch directory to keep
# them absolute. Its stderr (warnings) is kept as PROFILE.annotate.stderr
# when there is any.
peer() {
    c=$1 p=$2 src=${3:-$S/$1/$2}
    (cd "$W" && annot callgrind_annotate --inclusive=no --threshold=100 "$src") \
        >"$S/$c/$p.annotate" 2>"$W/annotate.stderr"
    if [ -s "$W/annotate.stderr" ]; then
        cp "$W/annotate.stderr" "$S/$c/$p.annotate.stderr"
    else
        rm -f "$S/$c/$p.annotate.stderr"
    fi
    "$A2T" "$S/$c/$p.annotate" >"$S/$c/$p.self.tsv"
}

# totals FILE : the first number of the (last) totals: line
totals() { awk '/^totals:/ { t = $2 } END { print t }' "$1"; }

# toggle CASE NAME PATTERN : append "NAME<TAB>Ir<TAB>inclusive" to
# $S/CASE/inclusive.tsv, measured with --toggle-collect=PATTERN and otherwise
# the same options as callgrind.out.
toggle() {
    vg "$1" toggle --tool=callgrind --callgrind-out-file="$W/$1.toggle.out" --toggle-collect="$3"
    printf '%s\tIr\t%s\n' "$2" "$(totals "$W/$1.toggle.out")" >>"$S/$1/inclusive.tsv"
    printf '  toggle %-12s %s\n' "$(printf %.12s "$2")" "$(totals "$W/$1.toggle.out")"
}

# check_det CASE : run the default profile again and compare the totals
check_det() {
    vg "$1" det --tool=callgrind --callgrind-out-file="$W/$1.det.out"
    a=$(totals "$S/$1/callgrind.out") b=$(totals "$W/$1.det.out")
    if [ "$a" != "$b" ]; then
        echo "make-samples: $1: NOT deterministic: totals $a vs $b" >&2
        exit 1
    fi
    echo "  determinism: callgrind.out totals $a, second run $b"
}

clean() {
    rm -f "$S/$1"/callgrind.* "$S/$1"/cachegrind.* "$S/$1/inclusive.tsv" "$S/$1/prog"
}

valgrind --version

# ---------------------------------------------------------------- hello
echo "== hello"
clean hello
(cd "$S/hello" && gcc -g -O0 -o prog prog.c)
(cd "$S/hello" && run ./prog >"$W/hello.expected.stdout")
cgvg hello callgrind.out
chmod 644 "$S/hello/callgrind.out"
peer hello callgrind.out
check_det hello

# ---------------------------------------------------------------- recursion
echo "== recursion"
clean recursion
(cd "$S/recursion" && gcc -g -O1 -pthread -o prog prog.c)
(cd "$S/recursion" && run ./prog >"$W/recursion.expected.stdout")

cgvg recursion callgrind.out
cgvg recursion callgrind.instr.out --dump-instr=yes --collect-jumps=yes
cgvg recursion callgrind.cache.out --cache-sim=yes --branch-sim=yes
cgvg recursion callgrind.threads.out --separate-threads=yes
# 30000 basic blocks: one periodic dump plus the final one, times two
# threads = 4 parts in one file (the dump is only taken at a thread switch,
# so nearby values of N give the same cut).
cgvg recursion callgrind.parts.out --dump-every-bb=30000 --combine-dumps=yes --separate-threads=yes
cgvg recursion callgrind.callers.out --separate-callers=2 --separate-recs=4
cgvg recursion callgrind.raw.out --compress-strings=no --compress-pos=no --dump-instr=yes --dump-line=no
cgvg recursion callgrind.systime.out --collect-systime=nsec --collect-bus=yes
vg recursion cachegrind --tool=cachegrind --cachegrind-out-file=cachegrind.out
gzip -9 -n -c "$S/recursion/callgrind.instr.out" >"$S/recursion/callgrind.instr.out.gz"
chmod 644 "$S/recursion"/callgrind.* "$S/recursion"/cachegrind.*

nparts=$(grep -c '^part:' "$S/recursion/callgrind.parts.out")
echo "  callgrind.parts.out has $nparts parts"

for p in callgrind.out callgrind.instr.out callgrind.cache.out \
    callgrind.threads.out-01 callgrind.threads.out-02 callgrind.parts.out \
    callgrind.callers.out callgrind.raw.out callgrind.systime.out cachegrind.out; do
    peer recursion "$p"
done
gzip -dc "$S/recursion/callgrind.instr.out.gz" >"$W/callgrind.instr.out.gz.unpacked"
peer recursion callgrind.instr.out.gz "$W/callgrind.instr.out.gz.unpacked"
# cg_annotate 3.19 rejects --threshold=100 (it allows 0..20); 0 shows all.
(cd "$W" && annot cg_annotate --threshold=0 "$S/recursion/cachegrind.out") \
    >"$S/recursion/cachegrind.out.cg_annotate"
"$A2T" "$S/recursion/cachegrind.out.cg_annotate" >"$S/recursion/cachegrind.out.cg_annotate.self.tsv"

check_det recursion

printf '# function\tevent\tinclusive (callgrind --toggle-collect=<function>, totals:)\n' \
    >"$S/recursion/inclusive.tsv"
for f in main work fib even odd ring_a ring_b ring_c cmp_uint worker; do
    toggle recursion "$f" "$f"
done

# ---------------------------------------------------------------- cxx
echo "== cxx"
clean cxx
(cd "$S/cxx" && g++ -O2 -g -o prog prog.cpp)
(cd "$S/cxx" && run ./prog >"$W/cxx.expected.stdout")
cgvg cxx callgrind.out
cgvg cxx callgrind.instr.out --dump-instr=yes --collect-jumps=yes
chmod 644 "$S/cxx"/callgrind.*
peer cxx callgrind.out
peer cxx callgrind.instr.out
check_det cxx

# Names as they appear in fn= lines; the toggle patterns use callgrind's
# '*' wildcard to avoid repeating the long template arguments.
printf '# function\tevent\tinclusive (callgrind --toggle-collect=<pattern>, totals:)\n' \
    >"$S/cxx/inclusive.tsv"
P='std::vector<sample::Point, std::allocator<sample::Point> >'
ITER="__gnu_cxx::__normal_iterator<sample::Point*, $P >"
CMP="__gnu_cxx::__ops::_Iter_comp_iter<sample::sort_points($P&)::{lambda(sample::Point const&, sample::Point const&)#1}>"
toggle cxx 'main' 'main'
toggle cxx 'sample::make_points(int)' 'sample::make_points(int)'
toggle cxx "sample::sort_points($P&)" 'sample::sort_points(*'
toggle cxx "void std::__introsort_loop<$ITER, long, $CMP >($ITER, $ITER, long, $CMP)" \
    'void std::__introsort_loop<*'
toggle cxx "long sample::accumulate_by<sample::Point, main::{lambda(sample::Point const&)#1}>($P const&, main::{lambda(sample::Point const&)#1}) [clone .constprop.0]" \
    'long sample::accumulate_by<sample::Point,*'
toggle cxx "long sample::accumulate_by<int, main::{lambda(int)#2}>(std::vector<int, std::allocator<int> > const&, main::{lambda(int)#2}) [clone .constprop.0]" \
    'long sample::accumulate_by<int,*'
toggle cxx "sample::histogram_of($P const&)" 'sample::histogram_of(*'

# every inclusive.tsv name must be a function name of the profile
for c in recursion cxx; do
    perl -ne 'print "$1\n" if /^c?fn=(?:\(\d+\))? ?(.+)$/' "$S/$c/callgrind.out" | sort -u >"$W/$c.fnnames"
    grep -v '^#' "$S/$c/inclusive.tsv" | cut -f1 | while IFS= read -r n; do
        grep -qxF "$n" "$W/$c.fnnames" || { echo "make-samples: $c: no function '$n' in callgrind.out" >&2; exit 1; }
    done
done

du -sh "$S"
echo "done"
