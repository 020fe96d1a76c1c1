# make install into a temporary DESTDIR: the binary and the manual page
# land under PREFIX, the installed binary runs (from another directory)
# and prints what the built one prints, man(1) formats the installed
# page; make uninstall removes both.
bin=$1
command -v man >/dev/null 2>&1 || { echo "man (man-db) is not installed"; exit 77; }
top=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "install: $*"; status=1; }
prefix=/opt/cga
root=$tmp/root
ibin=$root$prefix/bin/cganalyze
iman=$root$prefix/share/man/man1/cganalyze.1

${MAKE:-make} -s --no-print-directory install DESTDIR="$root" PREFIX="$prefix" >"$tmp/log" 2>&1 ||
	{ cat "$tmp/log"; fail "make install failed"; exit 1; }
[ -x "$ibin" ] || fail "no executable $ibin"
[ -f "$iman" ] || fail "no manual page $iman"
[ "$(stat -c %a "$iman")" = 644 ] || fail "$iman has mode $(stat -c %a "$iman"), not 644"
cmp -s "$iman" doc/cganalyze.1 || fail "$iman differs from doc/cganalyze.1"

(cd "$tmp" && "$ibin" --version) >"$tmp/version" 2>&1 || fail "the installed binary fails: $(cat "$tmp/version")"
"$bin" --version | cmp -s - "$tmp/version" || fail "installed --version: $(cat "$tmp/version")"
(cd "$tmp" && "$ibin" --brief "$top/samples/hello/callgrind.out") >"$tmp/out" 2>&1 ||
	fail "the installed binary fails on a profile"
"$bin" --brief "$top/samples/hello/callgrind.out" 2>&1 | cmp -s - "$tmp/out" ||
	fail "the installed binary prints otherwise than $bin"

MANWIDTH=80 MANPAGER=cat PAGER=cat man -l "$iman" >"$tmp/man" 2>"$tmp/man.err" ||
	fail "man -l $iman failed: $(cat "$tmp/man.err")"
[ -s "$tmp/man.err" ] && fail "man -l $iman says: $(cat "$tmp/man.err")"
grep -q "^NAME" "$tmp/man" && grep -q "cganalyze *- flat profile, call graph" "$tmp/man" &&
	grep -q -- "--no-progress" "$tmp/man" ||
	fail "man -l $iman: not the page: $(head -5 "$tmp/man")"

${MAKE:-make} -s --no-print-directory uninstall DESTDIR="$root" PREFIX="$prefix" >"$tmp/log" 2>&1 ||
	{ cat "$tmp/log"; fail "make uninstall failed"; }
[ -e "$ibin" ] && fail "make uninstall left $ibin"
[ -e "$iman" ] && fail "make uninstall left $iman"
exit $status
