# A tiny 32-bit x86 program for tests of 32-bit ELF files
# (make-elves.sh assembles it with debug line info).
	.text
	.globl	_start
	.type	_start, @function
_start:
	call	work
	movl	$1, %eax
	int	$0x80
	.size	_start, .-_start

	.globl	work
	.type	work, @function
work:
	xorl	%eax, %eax
	incl	%eax
	ret
	.size	work, .-work
