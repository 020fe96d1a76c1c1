// A tiny AArch64 program for tests of ELF files of another
// architecture (make-elves.sh assembles it with debug line info).
	.text
	.globl	_start
	.type	_start, %function
_start:
	bl	work
	mov	x8, #93
	svc	#0
	.size	_start, .-_start

	.globl	work
	.type	work, %function
work:
	mov	x0, #0
	add	x0, x0, #1
	ret
	.size	work, .-work
