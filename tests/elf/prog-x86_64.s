# A tiny x86-64 program: the base that corrupt.py damages in known
# ways (make-elves.sh assembles it with debug line info).
	.text
	.globl	_start
	.type	_start, @function
_start:
	call	work
	call	spin
	movl	$60, %eax
	syscall
	.size	_start, .-_start

	.globl	work
	.type	work, @function
work:
	xorl	%eax, %eax
	incl	%eax
	ret
	.size	work, .-work

	.type	spin, @function
spin:
	movl	$3, %ecx
1:	decl	%ecx
	jnz	1b
	ret
	.size	spin, .-spin
