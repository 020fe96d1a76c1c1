# The README's walkthrough shows real output: run each "$ cganalyze ..."
# command of its section on the files committed in samples/walkthrough/
# and check that every line pasted under it (but "..." and blank lines)
# is still printed, in the same order. Trailing blanks do not count.
# The profiles name /tmp/walkthrough, where they were made
# (samples/walkthrough/make.sh); --source-map finds the source here.
bin=$1
top=$(pwd)
case $bin in /*) ;; *) bin=$top/$bin ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
cp samples/walkthrough/prog samples/walkthrough/prog-pg samples/walkthrough/prog.c \
	samples/walkthrough/callgrind.out samples/walkthrough/gmon.out "$tmp/"

# block.N.cmd: the arguments; block.N.want: the lines pasted under them
awk -v dir="$tmp" '
/^## / { in_walk = ($0 ~ /^## A walkthrough/); blk = ""; next }
!in_walk { next }
/^    \$ cganalyze / {
	n++
	blk = dir "/block." n
	args = substr($0, 17)
	print args > (blk ".cmd")
	close(blk ".cmd")
	printf "" > (blk ".want")
	next
}
/^    \$ / { blk = ""; next }
/^    / {
	if (blk == "")
		next
	line = substr($0, 5)
	sub(/[ \t]+$/, "", line)
	if (line != "..." && line != "")
		print line >> (blk ".want")
	next
}
/^$/ { next }
{ blk = "" }
' README.md

ls "$tmp"/block.*.cmd >/dev/null 2>&1 || { echo "readme: no cganalyze command found in the README's walkthrough"; exit 1; }
for cmd in "$tmp"/block.*.cmd; do
	b=${cmd%.cmd}
	args=$(cat "$cmd")
	[ -s "$b.want" ] || { echo "readme: \$ cganalyze $args: nothing pasted under it"; status=1; continue; }
	# shellcheck disable=SC2086
	(cd "$tmp" && "$bin" --source-map=/tmp/walkthrough="$tmp" $args) 2>&1 |
		sed 's/[ 	]*$//' >"$b.got"
	# each wanted line, in order, somewhere after the one before it
	awk -v args="$args" '
	FNR == NR { got[++ng] = $0; next }
	{
		while (++at <= ng && got[at] != $0)
			;
		if (at > ng) {
			printf "readme: $ cganalyze %s: the README shows a line it no longer prints (or not in this order):\n%s\n", args, $0
			exit 1
		}
	}' "$b.got" "$b.want" || status=1
done
exit $status
