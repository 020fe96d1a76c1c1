# -gsplit-dwarf: the functions and inlined calls of the .dwo files and of
# the .dwp packages are read (tests/split-dwarf/make.sh made the inputs:
# one C++ program of two units built without split DWARF, and split in
# DWARF 5 and 4, as .dwo and as .dwp). The code of all builds is the
# same bytes, so each split build must give its unsplit twin's answers:
# every instruction's frames (--resolve --inlines) and the Callgrind
# profile's --inlined=callee listing. (The DWARF 4 builds are compared
# with whole4, not whole: GCC's DWARF 4 and 5 line tables name the file
# of 3 instructions differently, split or not.)
# llvm-symbolizer (which reads .dwo and .dwp) gives the same frames for
# the split builds as for whole, but at 4 addresses (see below); the
# differences it has with us are whole's too (addr2line's rules we
# follow, see symtab/dwarf.c).
# Before: no inlined frame at all, and a note that the .dwo are not read.
# Then what must be refused: a .dwo of another build (its dwo id is not
# the skeleton's), a truncated or garbled .dwo, a missing one.
bin=$1
d=tests/split-dwarf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "split-dwarf-files: $*"; status=1; }
command -v objdump >/dev/null || { echo "needs objdump"; exit 77; }
addrs=$(objdump -d --section=.text $d/whole |
	awk '/^ +[0-9a-f]+:/ { sub(":", "", $1); print "0x" $1 }')
[ "$(echo $addrs | wc -w)" -gt 200 ] || { fail "no code in $d/whole"; exit 1; }
for ref in whole whole4; do
	"$bin" --resolve --inlines -b $d/$ref $addrs >"$tmp/$ref.r" ||
		fail "$ref: --resolve failed"
	"$bin" --inlined=callee -b $d/$ref $d/callgrind.out \
		>"$tmp/$ref.i" 2>/dev/null || fail "$ref: listing failed"
done
[ "$(grep -c 'inlined by' "$tmp/whole.r")" -gt 200 ] ||
	fail "whole: too few inlined frames"
for b in v5:whole v5p:whole v4:whole4 v4p:whole4; do
	n=${b%:*}
	ref=${b#*:}
	"$bin" --resolve --inlines -b $d/$n $addrs >"$tmp/$n.r" 2>"$tmp/$n.err" ||
		fail "$n: --resolve failed: $(cat "$tmp/$n.err")"
	[ -s "$tmp/$n.err" ] && fail "$n: said: $(cat "$tmp/$n.err")"
	cmp -s "$tmp/$ref.r" "$tmp/$n.r" ||
		fail "$n: frames are not $ref's: $(diff "$tmp/$ref.r" "$tmp/$n.r" | head)"
	"$bin" --inlined=callee -b $d/$n $d/callgrind.out >"$tmp/$n.i" \
		2>/dev/null || fail "$n: listing failed"
	cmp -s "$tmp/$ref.i" "$tmp/$n.i" ||
		fail "$n: --inlined=callee is not $ref's: $(diff "$tmp/$ref.i" "$tmp/$n.i" | head)"
	# the annotated source's inline frames at their call lines
	"$bin" --annotate=total_area --inline-calls -b $d/$ref \
		$d/callgrind.out >"$tmp/ref.o" 2>/dev/null
	"$bin" --annotate=total_area --inline-calls -b $d/$n \
		$d/callgrind.out >"$tmp/$n.o" 2>/dev/null
	cmp -s "$tmp/ref.o" "$tmp/$n.o" ||
		fail "$n: --inline-calls is not $ref's: $(diff "$tmp/ref.o" "$tmp/$n.o" | head)"
	grep -q '400,000 *~> inlined acc<unsigned long>::add(unsigned long)' \
		"$tmp/$n.o" || fail "$n: no inlined call of acc::add annotated"
done
if command -v llvm-symbolizer >/dev/null; then
	# its answers for a .dwp build equal its answers for whole (the
	# .dwo of v5 it does not find: llvm-symbolizer 14 looks for them in
	# DW_AT_comp_dir only, where make.sh built them, not next to the
	# binary)
	for n in whole v5p; do
		llvm-symbolizer --output-style=GNU -f -i -p -a --obj=$d/$n \
			$addrs </dev/null >"$tmp/$n.llvm" 2>&1
	done
	# but for 4 addresses (0x131c to 0x1327) where llvm-symbolizer 14
	# drops the frames of acc::scale and acc::add inlined in the split
	# unit: whole's DWARF has them, it gives them for whole, and so do we
	[ "$(grep -c 'inlined by' "$tmp/v5p.llvm")" -gt 200 ] ||
		fail "llvm-symbolizer: no frames"
	for n in v5p; do
		[ "$(diff "$tmp/whole.llvm" "$tmp/$n.llvm" | grep -c '^> 0x')" -le 4 ] ||
			fail "llvm-symbolizer: $n is not whole: $(diff "$tmp/whole.llvm" "$tmp/$n.llvm" | head)"
	done
fi

# the build tree moved: the .dwo are found next to the binary
mkdir "$tmp/moved"
cp $d/v5 $d/v5-*.dwo "$tmp/moved"
"$bin" --resolve --inlines -b "$tmp/moved/v5" $addrs >"$tmp/moved.r" 2>&1
cmp -s "$tmp/whole.r" "$tmp/moved.r" ||
	fail "moved: $(diff "$tmp/whole.r" "$tmp/moved.r" | head)"

# stripped, its skeletons in a separate debug file (--add-gnu-debuglink):
# the .dwo and PROG.dwp are looked for beside the program, as gdb does,
# not beside the debug file (here in .debug/)
if command -v objcopy >/dev/null; then
	mkdir "$tmp/strip" "$tmp/strip/.debug"
	for n in v5 v5p; do
		objcopy --only-keep-debug $d/$n "$tmp/strip/.debug/$n.debug"
		objcopy --strip-debug --add-gnu-debuglink="$tmp/strip/.debug/$n.debug" \
			$d/$n "$tmp/strip/$n"
	done
	cp $d/v5-*.dwo $d/v5p.dwp "$tmp/strip"
	for n in v5 v5p; do
		"$bin" --resolve --inlines -b "$tmp/strip/$n" $addrs \
			>"$tmp/strip.r" 2>"$tmp/err"
		cmp -s "$tmp/whole.r" "$tmp/strip.r" ||
			fail "stripped $n: $(head -3 "$tmp/err") $(diff "$tmp/whole.r" "$tmp/strip.r" | head -5)"
	done
fi

# one .dwo missing: its lines stay, the other unit's frames too, a note
# says where it was looked for; the unit's own frames are missing
rm "$tmp/moved/v5-area.dwo"
"$bin" --resolve --inlines -b "$tmp/moved/v5" $addrs >"$tmp/miss.r" 2>"$tmp/err"
grep -q "^cganalyze: $tmp/moved/v5: 1 compilation unit is split off (-gsplit-dwarf) into .dwo or .dwp files not found or not read (the first looked for as [^ ]*/v5-area.dwo, $tmp/moved/v5-area.dwo, $tmp/moved/v5.dwp): its lines are known, its inlined frames are not$" "$tmp/err" ||
	fail "missing: not said: $(cat "$tmp/err")"
grep -q 'inlined by) main' "$tmp/miss.r" || fail "missing: main's frames lost"
grep -q 'inlined by) total_area' "$tmp/miss.r" &&
	fail "missing: total_area's frames from nowhere"

# a .dwo of another build (here the DWARF 4 one, another dwo id) is
# refused, not used; so is a .dwp of another build
cp $d/v4-area.dwo "$tmp/moved/v5-area.dwo"
"$bin" --resolve --inlines -b "$tmp/moved/v5" $addrs >"$tmp/other.r" 2>"$tmp/err"
grep -q "^cganalyze: warning: $tmp/moved/v5-area.dwo: its unit has dwo id 0x[0-9a-f]*, the skeleton in '$tmp/moved/v5' 0x[0-9a-f]*: another build; not used$" "$tmp/err" ||
	fail "other build: not refused: $(cat "$tmp/err")"
cmp -s "$tmp/miss.r" "$tmp/other.r" || fail "other build: used"
cp $d/v5 "$tmp/other"
cp $d/v4p.dwp "$tmp/other.dwp"
"$bin" --resolve --inlines -b "$tmp/other" $addrs >"$tmp/other.r" 2>"$tmp/err"
grep -q "2 compilation units are split off" "$tmp/err" ||
	fail "other .dwp: used: $(cat "$tmp/err")"
grep -q 'inlined by' "$tmp/other.r" && fail "other .dwp: frames from it"

# truncated and garbled .dwo: a warning at most, never a crash, and the
# other unit's frames stay
size=$(wc -c <$d/v5-area.dwo)
for cut in 0 64 700 2000 5000 9000 15000 20000 $((size - 1)); do
	head -c $cut $d/v5-area.dwo >"$tmp/moved/v5-area.dwo"
	"$bin" --resolve --inlines -b "$tmp/moved/v5" $addrs >"$tmp/cut.r" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 0 ] || fail "cut at $cut: exit $rc: $(tail -3 "$tmp/err")"
	grep -q 'inlined by) main' "$tmp/cut.r" || fail "cut at $cut: main's frames lost"
done
for at in 100 400 1000 3000 8000 12000; do
	cp $d/v5-area.dwo "$tmp/moved/v5-area.dwo"
	printf '\377\377\377\377\377\377\377\377' |
		dd of="$tmp/moved/v5-area.dwo" bs=1 seek=$at conv=notrunc 2>/dev/null
	"$bin" --resolve --inlines -b "$tmp/moved/v5" $addrs >"$tmp/bad.r" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 0 ] || fail "garbled at $at: exit $rc: $(tail -3 "$tmp/err")"
done
# the same for a .dwp
for n in v5p v4p; do
	for at in 64 500 2000 16000 45000 cut; do
		if [ $at = cut ]; then
			head -c 30000 $d/$n.dwp >"$tmp/other.dwp"
		else
			cp $d/$n.dwp "$tmp/other.dwp"
			printf '\377\377\377\377\377\377\377\377' |
				dd of="$tmp/other.dwp" bs=1 seek=$at conv=notrunc 2>/dev/null
		fi
		cp $d/$n "$tmp/other"
		"$bin" --resolve --inlines -b "$tmp/other" $addrs >/dev/null 2>"$tmp/err"
		rc=$?
		[ $rc -eq 0 ] || fail "$n.dwp garbled at $at: exit $rc: $(tail -3 "$tmp/err")"
	done
done
exit $status
