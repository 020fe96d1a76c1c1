#!/bin/sh
# The diff report (--diff --output=html) puts names and paths into the
# page as the report does (print_html.c's html_page_write()): as JSON in
# <script> elements, '<' and the line separators escaped, the title as
# HTML text. Two profiles whose functions and files are named to end the
# element early ("</script><img src=x onerror=...>") and with U+2028:
# the page keeps its own four </script> and no raw separator, and every
# name is there escaped.
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }
for side in 1 2; do
	awk -v n="$side" 'BEGIN {
		print "events: Ir"
		print "fl=</script><b>" n ".c"
		for (i = 0; i < 50; i++)
			printf "fn=f%d</script><img src=x onerror=alert(1)>\342\200\250\n1 %d\n", i, (i + 1) * n
	}' >"$tmp/<title>$side.cg"
done
"$bin" --diff --output=html -o "$tmp/d.html" "$tmp/<title>1.cg" "$tmp/<title>2.cg" ||
	fail "no diff report"
grep -q "$(printf '\342\200\250')" "$tmp/d.html" && fail "a raw U+2028 in the page"
closes=$(grep -o '</script' "$tmp/d.html" | wc -l)
[ "$closes" = 3 ] || fail "$closes </script in the page, expected the page's own 3"
grep -q '<title>[^<]*<title>' "$tmp/d.html" && fail "a raw <title> in the title"
named=$(grep -o 'u003c/script>\\u003cimg src=x onerror=alert(1)>\\u2028' "$tmp/d.html" | wc -l)
[ "$named" -ge 50 ] || fail "$named names escaped, expected 50 or more"
[ $status -eq 0 ] && echo "diff-report: ok"
exit $status
