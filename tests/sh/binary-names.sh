# Which profile object a -b binary applies to when its file name is not
# the object's: -b OBJECT=FILE names it (a path or a file name); a lone
# -b whose symbols hold the functions of one object is taken for it,
# with a note; a link's name is followed to the file's. On copies in a
# scratch directory.
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "binary-names: $*"; status=1; }
prof=samples/recursion/callgrind.instr.out
object=$(sed -n 's/^ob=([0-9]*) \(.*\/recursion\/prog\)$/\1/p' "$prof" | head -n 1)
[ -n "$object" ] || { echo "no recursion/prog object in $prof"; exit 1; }
cp samples/recursion/prog "$tmp/prog.unstripped"
ln -s prog.unstripped "$tmp/prog"
"$bin" -p --brief -b samples/recursion/prog "$prof" >"$tmp/want" 2>/dev/null ||
	{ echo "the plain -b run failed"; exit 1; }

# a lone -b of another name: matched by its symbols, said
"$bin" -p --brief -b "$tmp/prog.unstripped" "$prof" >"$tmp/out" 2>"$tmp/err" ||
	fail "-b prog.unstripped failed: $(cat "$tmp/err")"
cmp -s "$tmp/want" "$tmp/out" || fail "-b prog.unstripped: another listing"
grep -q "^cganalyze: $tmp/prog.unstripped: no object of the profile has its name; its symbols hold [0-9]* of the [0-9]* functions of '$object', so it is taken for that one (-b OBJECT=FILE says which)$" "$tmp/err" ||
	fail "-b prog.unstripped: no note, got: $(cat "$tmp/err")"

# -b OBJECT=FILE, by path and by file name: no note
for o in "$object" prog; do
	"$bin" -p --brief -b "$o=$tmp/prog.unstripped" "$prof" >"$tmp/out" 2>"$tmp/err" ||
		fail "-b $o=FILE failed: $(cat "$tmp/err")"
	cmp -s "$tmp/want" "$tmp/out" || fail "-b $o=FILE: another listing"
	grep -q 'taken for' "$tmp/err" && fail "-b $o=FILE: matched by symbols anyway"
done

# an object the profile does not have
"$bin" -p --brief -b "nosuch=$tmp/prog.unstripped" "$prof" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] || fail "-b nosuch=FILE: not exit 1"
grep -q "^cganalyze: -b nosuch=$tmp/prog.unstripped: the profile has no object 'nosuch' (it has " "$tmp/err" ||
	fail "-b nosuch=FILE: $(cat "$tmp/err")"

# a link named like the object, to a file that is not: the link's name
"$bin" -p --brief -b "$tmp/prog" "$prof" >"$tmp/out" 2>"$tmp/err" ||
	fail "-b LINK failed: $(cat "$tmp/err")"
grep -q 'taken for' "$tmp/err" && fail "-b LINK: matched by symbols, not by name"

# a link of another name to a file named like the object (libstdc++.so.6
# to libstdc++.so.6.0.30): the file's name
mkdir "$tmp/real"
cp samples/recursion/prog "$tmp/real/prog"
ln -s real/prog "$tmp/alias"
"$bin" -p --brief -b "$tmp/alias" "$prof" >"$tmp/out" 2>"$tmp/err" ||
	fail "-b ALIAS failed: $(cat "$tmp/err")"
cmp -s "$tmp/want" "$tmp/out" || fail "-b ALIAS: another listing"
grep -q 'taken for' "$tmp/err" && fail "-b ALIAS: matched by symbols, not by the file's name"
exit $status
