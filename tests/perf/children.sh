#!/bin/sh
# perf report --children's rows from perf script -F event,period,ip,sym,dso
# on standard input: each sample's period counted once for each distinct
# (object, symbol) of its chain, and as self for its first frame. Printed
# as perf report -F overhead_children,overhead,sample,dso,sym prints
# them, with a "# Samples: N of event 'E'" and "# Event count" header
# per event. For recordings perf report gives no children for (pipe mode).
awk '
function flush(   k) {
	if (!insample)
		return
	for (k in seen)
		incl[ev SUBSEP k] += period
	delete seen
	insample = 0
}
function base(d) { sub(/^\(/, "", d); sub(/\)$/, "", d); sub(/.*\//, "", d); return d }
/^ *[0-9]+ [^ ]+: *$/ {
	flush()
	period = $1; ev = $2; sub(/:$/, "", ev)
	if (!(ev in total)) { events[++nev] = ev }
	total[ev] += period; nsamples[ev]++
	insample = 1; first = 1
	next
}
insample && NF >= 3 {
	key = base($NF) SUBSEP $2
	seen[key] = 1
	if (first) { self[ev SUBSEP key] += period; samples[ev SUBSEP key]++; first = 0 }
	keys[key] = 1
	next
}
{ flush() }
END {
	flush()
	for (i = 1; i <= nev; i++) {
		ev = events[i]
		printf "# Samples: %d  of event '"'"'%s'"'"'\n", nsamples[ev], ev
		printf "# Event count (approx.): %d\n", total[ev]
		for (key in keys) {
			if (!((ev SUBSEP key) in incl))
				continue
			split(key, part, SUBSEP)
			row = sprintf("%9.2f%% %8.2f%% %13d  %s  [%s] %s",
				100 * incl[ev SUBSEP key] / total[ev],
				100 * self[ev SUBSEP key] / total[ev],
				samples[ev SUBSEP key], part[1],
				part[1] == "[kernel.kallsyms]" ? "k" : ".", part[2])
			print row | "sort -k1,1nr"
		}
		close("sort -k1,1nr")
	}
}'
