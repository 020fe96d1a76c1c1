# --debug-dir=DIR adds a directory to look in for separate debug files:
# the system's, /usr/lib/debug, are still read after it. A user giving
# --debug-dir for a program's own debug files lost libc's static
# functions (libc6-dbg's symbols): a perf.data's 20% in
# __memcmp_evex_movbe came out as 'libc.so.6+0x163940'. Skipped where
# libc's debug file is not installed (libc6-dbg).
bin=$1
status=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# after a status of failure, a skip below is that failure
skip() { echo "$1"; [ $status = 0 ] && exit 77; exit $status; }

# A debug file beside the binary, named by its .gnu_debuglink, whose CRC
# does not match: said once, with or without --debug-dir (the binary's
# own directory was looked in again for each debug directory, and the
# warning came twice). Made here.
if command -v gcc >/dev/null 2>&1 && command -v objcopy >/dev/null 2>&1; then
	printf 'int f(int x) { return x * 3; }\nint main(void) { return f(2); }\n' >"$tmp/p.c"
	gcc -g -o "$tmp/p" "$tmp/p.c" &&
		objcopy --only-keep-debug "$tmp/p" "$tmp/p.debug" &&
		objcopy --strip-debug --add-gnu-debuglink="$tmp/p.debug" "$tmp/p" &&
		echo changed >>"$tmp/p.debug" || skip "cannot make a debug file"
	for dir in "" --debug-dir=/nonexistent; do
		# shellcheck disable=SC2086
		n=$("$bin" --resolve $dir -b "$tmp/p" 0x1000 2>&1 |
			grep -c "p.debug: CRC does not match")
		[ "$n" = 1 ] || { echo "debug-dir: ${dir:-(default)}: the CRC mismatch said $n times, not once"; status=1; }
	done
fi

# A perf.data's recorded file, stripped, whose debug file by build-id is
# a copy cut short: said once, as a file with no build-id to read (it was
# "build-id does not match the binary's", twice: once for the symbols,
# once for the functions' lines, perf_lines.c)
if command -v objcopy >/dev/null 2>&1; then
	pid=ba5cf15979552375f1cfe25f7aa4e76d0c69f3b9	# tests/perf/prog's
	mkdir -p "$tmp/root/tmp/cganalyze-perf" "$tmp/dbg/.build-id/ba"
	objcopy --strip-all tests/perf/prog "$tmp/root/tmp/cganalyze-perf/prog" &&
		head -c 3000 tests/perf/prog >"$tmp/dbg/.build-id/ba/${pid#ba}.debug" ||
		skip "cannot make a stripped prog"
	said=$("$bin" --sysroot="$tmp/root" --debug-dir="$tmp/dbg" \
		--kallsyms=tests/perf/kallsyms tests/perf/fp.data 2>&1 >/dev/null |
		grep "${pid#ba}.debug")
	[ "$said" = "cganalyze: warning: $tmp/dbg/.build-id/ba/${pid#ba}.debug: no build-id can be read from it (not ELF, cut short, or without the note): ignored" ] ||
		{ echo "debug-dir: a debug file cut short: said as: $said"; status=1; }
fi

libc=$(ldd "$bin" 2>/dev/null | awk '$1 ~ /^libc\.so/ { print $3 }')
[ -f "$libc" ] || skip "no libc found"
id=$(readelf -n "$libc" 2>/dev/null | awk '/Build ID/ { print $3 }')
dbg=/usr/lib/debug/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug
[ -n "$id" ] && [ -f "$dbg" ] || skip "libc's debug file is not installed"
# a function of libc that its own symbols (.dynsym) do not name, alone
# at its address (a string function's variant for one processor)
line=$(nm "$dbg" | awk '{ n[$1]++; l[$1] = $0 }
	END { for (a in l) { split(l[a], w); if (n[a] == 1 && w[2] == "t" && w[3] ~ /^__mem.*_(avx2|evex|sse2)/) print l[a] } }' |
	sort | head -n 1)
addr=$(echo "$line" | awk '{ print $1 }')
name=$(echo "$line" | awk '{ print $3 }')
[ -n "$name" ] || skip "no static function in libc's debug file"
nm -D "$libc" | grep -q " $name\$" && skip "$name is in .dynsym"
for dir in "" --debug-dir=/nonexistent; do
	# shellcheck disable=SC2086
	got=$("$bin" --resolve $dir -b "$libc" "0x$addr" 2>&1)
	case $got in
	"0x$addr: $name at "*) ;;
	*) echo "debug-dir: --resolve ${dir:-(default)} 0x$addr: $got, not $name"; status=1 ;;
	esac
done
exit $status
