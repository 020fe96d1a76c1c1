#!/bin/sh
# Turn the HTML report's assets into C: for each file given,
#   const char html_asset_<name>[] = "line\n" "line\n" ...;
# where <name> is its file name with '.' as '_' (report.js ->
# html_asset_report_js). Plain sh and awk, so the build needs no xxd.
# Written to standard output; the Makefile puts it in $(O)/gen/.
echo '/* Made by src/print/html/embed.sh from the files in src/print/html/: edit those. */'
for f in "$@"; do
	name=$(basename "$f" | tr '.-' '__')
	awk -v name="$name" '
	BEGIN { printf "const char html_asset_%s[] =\n", name }
	{
		gsub(/\\/, "\\\\")
		gsub(/"/, "\\\"")
		gsub(/\?/, "\\?")
		gsub(/\r/, "")
		printf "\t\"%s\\n\"\n", $0
	}
	END { print "\t\"\";" }' "$f" || exit 1
done
