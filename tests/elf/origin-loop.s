# A DIE whose DW_AT_specification points at itself, three times: a loop
# of abstract origins that the symbol loader must cut, once, and say so
# once (make-elves.sh assembles it; the DWARF is written out by hand).
# addr2line 2.40 gives up on the whole unit ("DWARF error: abstract
# instance recursion detected") and answers "_start at ??:?"; we cut the
# loop and keep what is sound, the DIE's own name and the unit's line
# table: "f at origin-loop.c:1" (tests/e2e/elf-origin-loop).
	.text
	.globl	_start
	.type	_start, @function
_start:
	.file 1 "origin-loop.c"
	.loc 1 1
	ret
	.size	_start, .-_start
.Lend:

	.section .debug_abbrev,"",@progbits
	.uleb128 1
	.uleb128 0x11
	.byte	1
	.uleb128 0x3
	.uleb128 0x8
	.uleb128 0x11
	.uleb128 0x1
	.uleb128 0x12
	.uleb128 0x1
	.uleb128 0x13
	.uleb128 0xb
	.uleb128 0x10
	.uleb128 0x17
	.byte	0, 0
	.uleb128 2
	.uleb128 0x2e
	.byte	0
	.uleb128 0x3
	.uleb128 0x8
	.uleb128 0x11
	.uleb128 0x1
	.uleb128 0x12
	.uleb128 0x1
	.uleb128 0x47
	.uleb128 0x13
	.uleb128 0x47
	.uleb128 0x13
	.uleb128 0x47
	.uleb128 0x13
	.byte	0, 0
	.byte	0

	.section .debug_info,"",@progbits
.Lcu:
	.long	.Lcu_end - .Lcu_start
.Lcu_start:
	.value	4
	.long	0
	.byte	8
	.uleb128 1
	.string	"origin-loop.c"
	.quad	_start
	.quad	.Lend
	.byte	0xc
	.long	.debug_line
.Ldie:
	.uleb128 2
	.string	"f"
	.quad	_start
	.quad	.Lend
	.long	.Ldie - .Lcu
	.long	.Ldie - .Lcu
	.long	.Ldie - .Lcu
	.byte	0
.Lcu_end:
