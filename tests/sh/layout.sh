# The layout of doc/DESIGN.md, checked:
#  - the stages' order: a file includes headers of, and calls functions
#    defined in, only its own stage and those it may use (the table
#    below), read from the #include lines and from the objects' symbols;
#  - no two files call each other;
#  - no cg_ name outside cg/ but those cg/ declares, in file names and
#    identifiers (cg/ is the call graph; the Callgrind reader is
#    callgrind_*);
#  - no source file over 1,400 lines, and every .c opens with a comment
#    that says its one job.
# The objects are those beside the binary (build-san/cganalyze) or in
# build/ (./cganalyze).
bin=$1
dir=$(dirname "$bin")
if [ -f "$dir/libcganalyze.a" ]; then obj=$dir; else obj=build; fi
[ -f "$obj/src/cli/main.o" ] || { echo "layout: no objects in $obj/ (build first)"; exit 1; }
command -v nm >/dev/null 2>&1 || { echo "nm is not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

# stage: the stages it may use besides itself
cat >"$tmp/allowed" <<'EOF'
base:
profile: base
read: base profile
symtab: base
resolve: base profile read symtab
cg: base profile
select: base profile read symtab resolve cg
print: base profile symtab resolve cg select
cli: base profile read symtab resolve cg select print
EOF

# The stage of a path: src/read/callgrind/x.c -> read, cg/x.c -> cg.
stage_awk='
function stage(path) {
	sub(/^(\.\/)?(build[^\/]*\/)?/, "", path)
	if (path ~ /^src\//) { split(path, s, "/"); return s[2] }
	if (path ~ /^(cg|symtab)\//) { split(path, s, "/"); return s[1] }
	return ""
}
function may(from, to,    i, n, a) {
	if (from == to) return 1
	n = split(allowed[from], a, " ")
	for (i = 1; i <= n; i++) if (a[i] == to) return 1
	return 0
}
FILENAME == ARGV[1] { k = $1; sub(/:$/, "", k); $1 = ""; allowed[k] = $0; next }
'

sources=$(find src cg symtab -name '*.[ch]' | sort)

# 1. Includes: a header by its stage's path ("base/diag.h"), or one in
# the same folder by its name.
for f in $sources; do
	sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f" | while read -r h; do
		case $h in
		*/*) [ -f "src/$h" ] || [ -f "$h" ] || echo "$f: includes \"$h\", which is not a stage's header" ;;
		*) [ -f "$(dirname "$f")/$h" ] || echo "$f: includes \"$h\", not in its folder" ;;
		esac
		case $h in */*) echo "$f src/$h" ;; *) echo "$f $(dirname "$f")/$h" ;; esac >>"$tmp/includes"
	done
done >"$tmp/bad-includes"
awk -v obj="$obj" "$stage_awk"'
{ from = stage($1); to = stage($2); if (from != "" && to != "" && !may(from, to)) print $1 ": includes " $2 " (" to "), which " from " may not use" }
' "$tmp/allowed" "$tmp/includes" >>"$tmp/bad-includes"
if [ -s "$tmp/bad-includes" ]; then cat "$tmp/bad-includes"; status=1; fi

# 2. Calls, from the objects: which file defines each global symbol and
# which files use it.
# (only the objects of sources that exist: a build directory may hold
# those of files since moved)
find "$obj/src" "$obj/cg" "$obj/symtab" -name '*.o' | sort |
	while read -r o; do
		c=${o#"$obj"/}
		[ -f "${c%.o}.c" ] && echo "$o"
	done >"$tmp/objects"
[ -s "$tmp/objects" ] || { echo "layout: no objects under $obj/"; exit 1; }
# shellcheck disable=SC2046
nm -A $(cat "$tmp/objects") >"$tmp/nm" 2>/dev/null
awk -v obj="$obj" "$stage_awk"'
FILENAME == ARGV[2] {
	file = $1; sub(/:.*/, "", file); sub("^" obj "/", "", file); sub(/\.o$/, "", file)
	type = $(NF - 1); sym = $NF
	if (type == "U") users[sym] = users[sym] " " file
	else if (type ~ /^[TDBRCVW]$/) def[sym] = file
	next
}
END {
	for (sym in users) {
		if (!(sym in def)) continue
		n = split(users[sym], u, " ")
		for (i = 1; i <= n; i++) {
			a = u[i]; b = def[sym]
			if (a == b) continue
			calls[a, b] = sym
		}
	}
	for (k in calls) {
		split(k, ab, SUBSEP); a = ab[1]; b = ab[2]
		if (!may(stage(a), stage(b)))
			print a ".c uses " calls[k] "() of " b ".c (" stage(b) "), which " stage(a) " may not use"
		if ((b, a) in calls && a < b)
			print a ".c and " b ".c call each other: " calls[k] "(), " calls[b, a] "()"
	}
}
' "$tmp/allowed" "$tmp/nm" | sort >"$tmp/bad-calls"
if [ -s "$tmp/bad-calls" ]; then cat "$tmp/bad-calls"; status=1; fi

# 3. cg_ is the call graph's: outside cg/, only the names cg/ declares.
# (gprof's own sources, cg_print.c and the like, are named in comments)
{ grep -ohw '[Cc][Gg]_[A-Za-z0-9_]*' cg/*.h; printf '%s\n' cg_arcs cg_dfn cg_print; } |
	sort -u >"$tmp/cg-names"
for f in $(find src symtab tests bench -name '*.[ch]' -not -path 'tests/*/*' | sort); do
	grep -ohw '[Cc][Gg]_[A-Za-z0-9_]*' "$f" | sort -u | comm -23 - "$tmp/cg-names" |
		sed "s|^|$f: |; s|\$| is not the call graph's (cg/)|"
done >"$tmp/bad-names"
find src symtab -name 'cg_*' | sed 's|$|: a cg_ file outside cg/|' >>"$tmp/bad-names"
if [ -s "$tmp/bad-names" ]; then cat "$tmp/bad-names"; status=1; fi

# 4. Size, and the opening comment.
for f in $sources; do
	n=$(wc -l <"$f")
	[ "$n" -le 1400 ] || echo "$f: $n lines (at most 1,400)"
	case $f in
	*.c) head -n 1 "$f" | grep -q '^/\*' || echo "$f: does not open with a comment saying its job" ;;
	*) ;;
	esac
done >"$tmp/bad-files"
if [ -s "$tmp/bad-files" ]; then cat "$tmp/bad-files"; status=1; fi

[ "$status" -eq 0 ] && echo "layout: $(echo "$sources" | wc -l) files, $(wc -l <"$tmp/objects") objects checked"
exit $status
