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
		# character by character: the replacement strings of gsub() treat
		# backslashes differently in different awks
		out = ""
		for (i = 1; i <= length($0); i++) {
			c = substr($0, i, 1)
			if (c == "\\" || c == "\"" || c == "?")
				out = out "\\" c
			else if (c != "\r")
				out = out c
		}
		printf "\t\"%s\\n\"\n", out
	}
	END { print "\t\"\";" }' "$f" || exit 1
done
