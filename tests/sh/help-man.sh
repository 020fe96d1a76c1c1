# The manual page (doc/cganalyze.1) and --help list the same options, in
# the same groups, with the same short letters; --help lists every option
# src/cli/options.c takes; and the page formats without a warning. Whoever adds an option adds its entry to both: this
# test names the option that lacks one, and on which side.
bin=$1
page=${MANPAGE:-doc/cganalyze.1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

# "--long short group" for each entry of --help: an entry is a line that
# starts with "  -x, --long" or "      --long"; a group starts with a
# heading line ending in ':' ("Symbols (...):" is "Symbols"), and the
# options after a blank line without a heading are "Other".
"$bin" --help >"$tmp/help" || { echo "help-man: $bin --help failed"; exit 1; }
awk '
/^[A-Z][^:]*(\(.*\))?:$/ { g = $0; sub(/ *\(.*/, "", g); sub(/:$/, "", g); next }
/^$/ { g = "Other"; next }
/^  (-[A-Za-z], |    )--[a-z]/ {
	short = "-"
	if (substr($0, 3, 1) == "-" && substr($0, 4, 1) != "-")
		short = substr($0, 3, 2)
	match($0, /--[a-z0-9-]+/)
	print substr($0, RSTART, RLENGTH), short, g
}' "$tmp/help" | sort >"$tmp/help.entries"

# The same from the page: in the OPTIONS section, the tag line after
# each .TP, under its .SS heading.
awk '
/^\.SH / { inopt = ($0 ~ /^\.SH "?OPTIONS/); next }
!inopt { next }
/^\.SS / { g = substr($0, 5); gsub(/"/, "", g); next }
/^\.TP/ { tag = 1; next }
tag {
	tag = 0
	line = $0
	gsub(/\\-/, "-", line)
	gsub(/\\f[BIRP]/, "", line)
	if (!match(line, /--[a-z0-9-]+/))
		next
	long = substr(line, RSTART, RLENGTH)
	short = "-"
	if (match(line, / -[A-Za-z]([ ,"]|$)/))
		short = substr(line, RSTART + 1, 2)
	print long, short, g
}' "$page" | sort >"$tmp/man.entries"

[ -s "$tmp/help.entries" ] || { echo "help-man: no option found in --help"; exit 1; }
[ -s "$tmp/man.entries" ] || { echo "help-man: no option found in $page"; exit 1; }

awk -v page="$page" '
FNR == NR { h[$1] = $0; hs[$1] = $2; hg[$1] = substr($0, length($1) + length($2) + 3); next }
{ m[$1] = $0; ms[$1] = $2; mg[$1] = substr($0, length($1) + length($2) + 3) }
END {
	bad = 0
	for (o in h) {
		if (!(o in m)) {
			printf "help-man: %s lacks an entry for %s (--help lists it under \"%s\")\n", page, o, hg[o]
			bad = 1
		} else {
			if (hs[o] != ms[o]) {
				printf "help-man: %s: short option \"%s\" in --help, \"%s\" in %s\n", o, hs[o], ms[o], page
				bad = 1
			}
			if (hg[o] != mg[o]) {
				printf "help-man: %s: under \"%s\" in --help, under \"%s\" in %s\n", o, hg[o], mg[o], page
				bad = 1
			}
		}
	}
	for (o in m)
		if (!(o in h)) {
			printf "help-man: --help lacks an entry for %s (%s has one under \"%s\")\n", o, page, mg[o]
			bad = 1
		}
	exit bad
}' "$tmp/help.entries" "$tmp/man.entries" >"$tmp/report" || status=1
sort "$tmp/report"

# Every long option the parser takes (src/cli/options.c) is in --help.
sed -n 's/^[[:space:]]*{ "\([a-z0-9-]*\)",.*/--\1/p' src/cli/options.c | sort >"$tmp/parsed"
[ -s "$tmp/parsed" ] || { echo "help-man: no option found in src/cli/options.c"; status=1; }
cut -d' ' -f1 "$tmp/help.entries" | comm -23 "$tmp/parsed" - | while read -r o; do
	echo "help-man: src/cli/options.c takes $o, but --help does not list it"
done | grep . && status=1

# The page formats without a warning.
if command -v groff >/dev/null 2>&1; then
	groff -man -Tutf8 -ww "$page" 2>"$tmp/groff" >/dev/null
	[ -s "$tmp/groff" ] && { echo "help-man: groff warns about $page:"; cat "$tmp/groff"; status=1; }
else
	echo "help-man: groff is not installed; $page not formatted"
	status=1
fi
exit $status
