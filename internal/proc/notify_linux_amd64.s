#include "textflag.h"

// func sigtramp(): the signal handler (signo in DI, on the signal stack).
// It writes the signal's number, one byte, into sigfd; a full pipe drops
// it. The registers it uses are the interrupted code's, which the kernel
// restores on return.
TEXT ·sigtramp(SB), NOSPLIT|NOFRAME, $0
	SUBQ $16, SP
	MOVB DI, 0(SP)
	MOVL ·sigfd(SB), DI
	MOVQ SP, SI
	MOVQ $1, DX
	MOVQ $1, AX // write
	SYSCALL
	ADDQ $16, SP
	RET

// sigreturn is where the handler returns to: rt_sigreturn, as the x86-64
// kernel requires of a handler's SA_RESTORER.
TEXT sigreturn<>(SB), NOSPLIT|NOFRAME, $0
	MOVQ $15, AX // rt_sigreturn
	SYSCALL
	INT  $3 // not reached

// func handlerPCs() (handler, restorer uintptr)
TEXT ·handlerPCs(SB), NOSPLIT, $0-16
	LEAQ ·sigtramp(SB), AX
	MOVQ AX, handler+0(FP)
	LEAQ sigreturn<>(SB), AX
	MOVQ AX, restorer+8(FP)
	RET
