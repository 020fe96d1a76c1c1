# --debug-dir=DIR adds a directory to look in for separate debug files:
# the system's, /usr/lib/debug, are still read after it. A user giving
# --debug-dir for a program's own debug files lost libc's static
# functions (libc6-dbg's symbols): a perf.data's 20% in
# __memcmp_evex_movbe came out as 'libc.so.6+0x163940'. Skipped where
# libc's debug file is not installed (libc6-dbg).
bin=$1
libc=$(ldd "$bin" 2>/dev/null | awk '$1 ~ /^libc\.so/ { print $3 }')
[ -f "$libc" ] || { echo "no libc found"; exit 77; }
id=$(readelf -n "$libc" 2>/dev/null | awk '/Build ID/ { print $3 }')
dbg=/usr/lib/debug/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug
[ -n "$id" ] && [ -f "$dbg" ] || { echo "libc's debug file is not installed"; exit 77; }
# a function of libc that its own symbols (.dynsym) do not name, alone
# at its address (a string function's variant for one processor)
line=$(nm "$dbg" | awk '{ n[$1]++; l[$1] = $0 }
	END { for (a in l) { split(l[a], w); if (n[a] == 1 && w[2] == "t" && w[3] ~ /^__mem.*_(avx2|evex|sse2)/) print l[a] } }' |
	sort | head -n 1)
addr=$(echo "$line" | awk '{ print $1 }')
name=$(echo "$line" | awk '{ print $3 }')
[ -n "$name" ] || { echo "no static function in libc's debug file"; exit 77; }
nm -D "$libc" | grep -q " $name\$" && { echo "$name is in .dynsym"; exit 77; }
status=0
for dir in "" --debug-dir=/nonexistent; do
	# shellcheck disable=SC2086
	got=$("$bin" --resolve $dir -b "$libc" "0x$addr" 2>&1)
	case $got in
	"0x$addr: $name at "*) ;;
	*) echo "debug-dir: --resolve ${dir:-(default)} 0x$addr: $got, not $name"; status=1 ;;
	esac
done
exit $status
