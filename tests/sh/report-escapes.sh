#!/bin/sh
# The report's documents go into the page through a stream that escapes
# '<' and the line separators U+2028/U+2029 as it writes (print_html.c's
# script_json_open(), issue 33: a big program's documents were built
# whole first). The escapes must hold where a character's three bytes
# fall across two of the stream's 64 KiB writes: 6,000 names of varying
# length, each with '<' and both separators, put them at every offset.
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }
ls=$(printf '\342\200\250') ps=$(printf '\342\200\251')
awk 'BEGIN {
	print "events: Ir"
	for (i = 0; i < 6000; i++) {
		pad = substr("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", 1, i % 41)
		printf "fn=f%d%s<a\342\200\250b\342\200\251c\342\200\250\n1 %d\n", i, pad, i + 1
	}
}' >"$tmp/sep.cg"
"$bin" --output=html --threshold=0 -o "$tmp/r.html" "$tmp/sep.cg" ||
	fail "no report"
grep -q "$ls" "$tmp/r.html" && fail "a raw U+2028 in the page"
grep -q "$ps" "$tmp/r.html" && fail "a raw U+2029 in the page"
whole=$(grep -o 'u003ca\\u2028b\\u2029c\\u2028' "$tmp/r.html" | wc -l)
opened=$(grep -o 'u003ca' "$tmp/r.html" | wc -l)
[ "$whole" -ge 6000 ] || fail "$whole names escaped whole, expected 6000 or more"
[ "$whole" = "$opened" ] || fail "$opened names start escaped, $whole end so"
[ $status -eq 0 ] && echo "report-escapes: ok"
exit $status
