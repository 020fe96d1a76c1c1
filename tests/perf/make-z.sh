#!/bin/sh
# Make the perf record -z test files and perf's answers for them, as
# committed here. Run as root from the top of the tree, after make.sh
# or with its committed prog and libwork.so (copied, not rebuilt, so
# their build-ids are the ones the other recordings name):
#   sh tests/perf/make-z.sh
#
#   z.data      perf record -z -F 499 -g              compressed records
#   zpipe.data  perf record -z -F 499 -g -o -          the same, pipe mode
#   zdwarf.data perf record -z -m 4 -F 99 --call-graph dwarf,1024: a ring
#               buffer of 4 pages, which wraps inside samples, so some
#               records start in one compressed record's data and end
#               in the next one's
#
# The answers are made as make.sh makes them (NAME.header, NAME.self,
# NAME.children; zpipe.children from perf script by children.sh), with
# z.kallsyms: the kernel's symbols these recordings sampled, from this
# boot's /proc/kallsyms (kallsyms is of the kernel the others were
# recorded on). perf record -z writes no build-ids (it turns their
# collection off when compressing): the tests' -b binaries are matched
# by file name.
set -e
top=$(pwd)
out=$top/tests/perf
dir=/tmp/cganalyze-perf
mkdir -p "$dir"
cp "$out/prog" "$out/libwork.so" "$dir"
cd "$dir"
perf record -q -z -F 499 -g -o z.data ./prog
perf record -q -z -F 499 -g -o - ./prog >zpipe.data
perf record -q -z -m 4 -F 99 --call-graph dwarf,1024 -o zdwarf.data ./prog
chmod 644 z.data zpipe.data zdwarf.data

input() {
	if [ "$1" = zpipe ]; then echo -; else echo "$1.data"; fi
}
for f in z zpipe zdwarf; do
	perf script -i "$(input $f)" -F ip,sym,dso <$f.data 2>/dev/null
done | awk '/\(\[kernel\.kallsyms\]\)$/ { print $2 }' | sort -u >ksyms.want
awk '$2 ~ /^[tTwW]$/' /proc/kallsyms | sort >ksyms.all
awk 'NR == FNR { want[$1] = 1; next }
     { line[NR] = $0; name[NR] = $3 }
     END { for (i = 1; i <= NR; i++) if (name[i] in want) { print line[i]; if (i + 1 in line) print line[i + 1] } }' \
	ksyms.want ksyms.all >kallsyms.part
{ grep ' _text$' /proc/kallsyms; cat kallsyms.part; } | sort -u >z.kallsyms
rm -f kallsyms.part ksyms.want ksyms.all

report() {
	perf report --stdio --no-inline --no-demangle --kallsyms=z.kallsyms \
		-g none "$@" 2>/dev/null | grep -v '^#.*Tip:\|^$'
}
for f in z zpipe zdwarf; do
	perf report -i "$(input $f)" --header-only <$f.data >$f.header \
		2>/dev/null
	report -i "$(input $f)" --no-children \
		-F overhead,period,sample,dso,sym <$f.data >$f.self
	if [ $f = zpipe ]; then
		perf script -i - -F event,period,ip,sym,dso --no-inline \
			--kallsyms=z.kallsyms <zpipe.data 2>/dev/null |
			sh "$out/children.sh" >$f.children
	else
		report -i $f.data --children \
			-F overhead_children,overhead,sample,dso,sym >$f.children
	fi
done
cp z.data zpipe.data zdwarf.data z.kallsyms z.header zpipe.header \
	zdwarf.header z.self zpipe.self zdwarf.self z.children zpipe.children \
	zdwarf.children "$out"
