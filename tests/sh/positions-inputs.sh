#!/bin/sh
# Listings that need positions read a Callgrind file twice (issue 33,
# src/cli/hot_files.c): once for each source file's cost, then keeping
# the lines of the files they list. A gzip'd file is decompressed twice;
# a pipe cannot be read again, and is read once keeping every file's
# lines. Each way must print what the plain file prints, on every
# reading thread (the stretches read ahead coarsen positions too): a
# file wrongly left out, or a position merged into the wrong line, shows
# as a difference against the pipe's single read of every line.
bin=$1
command -v gzip >/dev/null || { echo "needs gzip"; exit 77; }
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }
# A pipe has no time, a file has: its sources (the recorded paths, in
# the checkout of /work/main) newer than it are stale, which the
# listings say and a pipe's do not. The profiles are read from copies
# newer than any source, whatever git or a merge did to the checkouts'
# times (two builds once failed here so).
fresh() {	# profile -> its copy in $tmp, of a time after its sources'
	mkdir -p "$tmp/fresh"
	cp "$top/$1" "$tmp/fresh/${1##*/}.$2"
	touch -d @4102444800 "$tmp/fresh/${1##*/}.$2"
	echo "$tmp/fresh/${1##*/}.$2"
}
n=0
for prof in samples/cxx/callgrind.instr.out samples/recursion/callgrind.instr.out \
	    samples/recursion/callgrind.parts.out; do
	n=$((n + 1))
	copy=$(fresh "$prof" $n)
	gzip -c "$copy" >"$tmp/p.gz"
	# as old as the profile: a newer one would call the sources stale
	touch -r "$copy" "$tmp/p.gz"
	# --focus leaves a share of the whole in which other files are hot
	# than in the whole: the first read cannot choose them
	for args in "--annotate" "--annotate --json" "--annotate --threshold=5" \
		    "--annotate --threshold=0.01 --json" "--annotate --part=2" \
		    "--annotate --focus=main" "--annotate --focus=work"; do
		for thread in 0 1 ahead; do
			export CGANALYZE_READER_THREAD=$thread
			# shellcheck disable=SC2086
			"$bin" $args "$copy" >"$tmp/plain" 2>"$tmp/plain.err"
			rc=$?
			# shellcheck disable=SC2086
			"$bin" $args "$tmp/p.gz" >"$tmp/gz" 2>"$tmp/gz.err"
			# shellcheck disable=SC2086
			cat "$top/$prof" | "$bin" $args - >"$tmp/pipe" 2>"$tmp/pipe.err"
			[ -s "$tmp/plain" ] || [ $rc -ne 0 ] ||
				fail "$prof $args: nothing printed"
			# --json names the input: the rest must agree
			for f in plain gz pipe; do
				sed 's/"path": "[^"]*", "format"/"path": P, "format"/' \
					"$tmp/$f" >"$tmp/$f.x" && mv "$tmp/$f.x" "$tmp/$f"
			done
			cmp -s "$tmp/plain" "$tmp/gz" ||
				fail "$prof $args (thread $thread): gzip'd differs from the plain file"
			cmp -s "$tmp/plain" "$tmp/pipe" ||
				fail "$prof $args (thread $thread): the pipe differs from the plain file"
			# the messages name the input: only their count must agree
			[ "$(wc -l <"$tmp/plain.err")" = "$(wc -l <"$tmp/pipe.err")" ] ||
				fail "$prof $args: other messages through a pipe"
		done
	done
done
# the report (without a Disassembly: the samples' objects are not here)
# keeps the same positions as --annotate; a pipe is read once keeping
# every position, as before issue 33
for prof in samples/cxx/callgrind.instr.out samples/recursion/callgrind.instr.out; do
	n=$((n + 1))
	copy=$(fresh "$prof" $n)
	gzip -c "$copy" >"$tmp/p.gz"
	touch -r "$copy" "$tmp/p.gz"
	"$bin" --output=html -o "$tmp/plain.html" "$copy" 2>/dev/null
	"$bin" --output=html -o "$tmp/gz.html" "$tmp/p.gz" 2>/dev/null
	cat "$top/$prof" | "$bin" --output=html -o "$tmp/pipe.html" - 2>/dev/null
	for f in plain gz pipe; do
		sed 's/"path": "[^"]*", "format"/"path": P, "format"/; s/<title>[^<]*</<title></' \
			"$tmp/$f.html" >"$tmp/$f.x"
	done
	grep -q '"sources": \[$' "$tmp/plain.x" || fail "$prof: the report has no source"
	cmp -s "$tmp/plain.x" "$tmp/gz.x" || fail "$prof: the gzip'd report differs"
	cmp -s "$tmp/plain.x" "$tmp/pipe.x" || fail "$prof: the piped report differs"
done
# the listing lists some files and leaves others below the threshold:
# the first read had files to leave out
"$bin" --annotate --json "$top/samples/cxx/callgrind.instr.out" >"$tmp/j"
grep -q '"status": "listed"' "$tmp/j" && grep -q '"status": "below_threshold"' "$tmp/j" ||
	fail "samples/cxx lists no file, or none below the threshold"
[ $status -eq 0 ] && echo "positions-inputs: ok"
exit $status
