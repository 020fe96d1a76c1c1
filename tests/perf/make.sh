#!/bin/sh
# Make the perf.data test files and perf's own answers for them, as
# committed here. Run as root (perf_event_paranoid is 2 on the machine
# they were made on) from the top of the tree: sh tests/perf/make.sh
#
# The program is built and recorded in /tmp/cganalyze-perf, the path
# the recordings name (the tests give -b tests/perf/prog and
# tests/perf/libwork.so, matched by build-id, so they run from any
# checkout). perf's answers use kallsyms, a part of this machine's
# /proc/kallsyms holding the kernel functions the recordings sampled
# and the ones after them (where each ends); the tests give it with
# --kallsyms, so they do not depend on the kernel they run on.
#
#   fp.data     perf record -F 499 -g                 frame-pointer chains
#   two.data    perf record -F 499 -g -e cpu-clock,task-clock   two events
#   pipe.data   perf record -F 499 -g -o - > pipe.data          pipe mode
#   dwarf.data  perf record -F 99 --call-graph dwarf,1024   user stack
#               dumps, registers, data addresses, unwound from prog's
#               and libwork.so's CFI
#   cxx.data    perf record -F 99 --call-graph dwarf,4096 of cxx (cxx.cc,
#               C++ at -O2 without frame pointers: templates, inlining,
#               std::sort), unwound from its CFI alone
#   dbgframe.data  perf record -F 199 --call-graph dwarf,4096 of dbgframe
#               (dbgframe.c at -O2 without unwind tables: its CFI is in
#               .debug_frame, split off with its DWARF into
#               debug/.build-id/NN/N...N.debug; the binary is stripped
#               of it). perf 6.1 here unwinds with libunwind, which takes
#               no .debug_frame: its report stops at the sampled function
#               even with the debug file in /usr/lib/debug, so there are
#               no perf answers for it
#
# procs.data and notime.data (--threads, --time) and perf's answers for
# them are made by make-threads.sh, after this.
#
# fp-spinner.self: fp.data's samples of the thread named spinner alone.
# cxx.inline: perf report --inline --children on cxx.data (inlined
# functions as rows of their own), for --inlined=callee.
# fp-leaf.annotate, fp-lib_spin.annotate: perf annotate --show-total-period,
# the period at each instruction of leaf and lib_spin in fp.data.
# For each NAME.data: NAME.header (perf report --header-only), NAME.self
# (--no-children: self overhead, period and samples per dso and symbol),
# NAME.children (--children: inclusive and self overhead per symbol;
# for pipe.data, from perf script by children.sh, as perf report does
# not add up children from a pipe).
set -e
top=$(pwd)
out=$top/tests/perf
dir=/tmp/cganalyze-perf
rm -rf "$dir"
mkdir -p "$dir"
cp "$out/prog.c" "$out/work.c" "$out/cxx.cc" "$dir"
cd "$dir"
gcc -O0 -fno-omit-frame-pointer -g -fPIC -shared -o libwork.so work.c
gcc -O0 -fno-omit-frame-pointer -g -fPIE -pie -o prog prog.c -L. -lwork \
	-Wl,-rpath,'$ORIGIN' -pthread
g++ -O2 -g -o cxx cxx.cc
cp "$out/dbgframe.c" .
gcc -O2 -g -fno-asynchronous-unwind-tables -fno-unwind-tables -o dbgframe \
	dbgframe.c
objcopy --only-keep-debug dbgframe dbgframe.debug
strip --strip-debug dbgframe
id=$(readelf -n dbgframe | awk '/Build ID/ { print $3 }')
rm -rf "$out/debug"
mkdir -p "$out/debug/.build-id/$(echo "$id" | cut -c1-2)"
cp dbgframe.debug "$out/debug/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug"
perf record -q -F 499 -g -o fp.data ./prog
perf record -q -F 499 -g -e cpu-clock,task-clock -o two.data ./prog
perf record -q -F 499 -g -o - ./prog >pipe.data
perf record -q -F 99 --call-graph dwarf,1024 -o dwarf.data ./prog
perf record -q -F 99 --call-graph dwarf,4096 -o cxx.data ./cxx 40000000
perf record -q -F 199 --call-graph dwarf,4096 -o dbgframe.data ./dbgframe 12000
chmod 644 ./*.data

# The kernel functions sampled or in a sample's chain, and each one's
# next (so each ends where it does in /proc/kallsyms); and _text, which
# perf needs to place the kernel (its mapping is [kernel.kallsyms]_text)
# perf report reads a pipe-mode recording from standard input only
input() {
	if [ "$1" = pipe ]; then echo -; else echo "$1.data"; fi
}
for f in fp two pipe dwarf cxx; do
	perf script -i "$(input $f)" -F ip,sym,dso <$f.data 2>/dev/null
done | awk '/\(\[kernel\.kallsyms\]\)$/ { print $2 }' | sort -u >ksyms.want
awk '$2 ~ /^[tTwW]$/' /proc/kallsyms | sort >ksyms.all
awk 'NR == FNR { want[$1] = 1; next }
     { line[NR] = $0; name[NR] = $3 }
     END { for (i = 1; i <= NR - 0; i++) if (name[i] in want) { print line[i]; if (i + 1 in line) print line[i + 1] } }' \
	ksyms.want ksyms.all >kallsyms.part
{ grep ' _text$' /proc/kallsyms; cat kallsyms.part; } | sort -u >kallsyms
rm -f kallsyms.part
rm -f ksyms.want ksyms.all

report() {
	perf report --stdio --no-inline --no-demangle --kallsyms=kallsyms \
		-g none "$@" 2>/dev/null | grep -v '^#.*Tip:\|^$'
}
for f in fp two pipe dwarf cxx; do
	perf report -i "$(input $f)" --header-only <$f.data >$f.header \
		2>/dev/null
	report -i "$(input $f)" --no-children \
		-F overhead,period,sample,dso,sym <$f.data >$f.self
	# perf 6.1's report prints N/A for children of a pipe-mode
	# recording (and of it written as a file by perf inject): there
	# they come from perf script's chains, each sample counted once
	# per distinct symbol, as perf report counts them
	if [ $f = pipe ]; then
		perf script -i - -F event,period,ip,sym,dso --no-inline \
			--kallsyms=kallsyms <pipe.data 2>/dev/null |
			sh "$out/children.sh" >$f.children
	else
		report -i $f.data --children \
			-F overhead_children,overhead,sample,dso,sym >$f.children
	fi
done
# the second thread alone, by its name (--comm). perf report filters
# rows by their comm, not samples: a row of the default sort (dso, sym)
# holds both threads' samples when its first sample was the named
# thread's, so comm is made part of the sort
report -i fp.data --comms=spinner --no-children -s comm,dso,sym \
	-F overhead,period,sample,dso,sym >fp-spinner.self
# perf diff of fp.data to dwarf.data (one program): each symbol's share
# of the base and the change of its share, what --diff's page shows with
# its shares switch (tests/browser/test_report_diff.py)
perf diff --kallsyms=kallsyms fp.data dwarf.data 2>/dev/null |
	grep -v '^#.*Tip:\|^$' >fp-dwarf.diff
# cxx.data with perf's inline frames, for --inlined=callee
perf report -i cxx.data --stdio --inline --no-demangle --children \
	--kallsyms=kallsyms -g none \
	-F overhead_children,overhead,sample,dso,sym 2>/dev/null |
	grep -v '^#.*Tip:\|^$' >cxx.inline
# the period of the samples at each instruction of the two hot functions
for fn in leaf lib_spin; do
	perf annotate -i fp.data --stdio --show-total-period -s $fn 2>/dev/null |
		grep -E '^ +[0-9]+ +:' >fp-$fn.annotate
done
cp prog libwork.so cxx cxx.data cxx.inline dbgframe dbgframe.data fp-leaf.annotate fp-lib_spin.annotate fp.data two.data pipe.data dwarf.data kallsyms ./*.header \
	./*.self ./*.children fp-dwarf.diff "$out"
