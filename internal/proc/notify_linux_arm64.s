#include "textflag.h"

// func sigtramp(): the signal handler (signo in R0, on the signal stack;
// the return address, the kernel's sigreturn trampoline, in R30). It
// writes the signal's number, one byte, into sigfd; a full pipe drops it.
// The registers it uses are the interrupted code's, which the kernel
// restores on return.
TEXT ·sigtramp(SB), NOSPLIT|NOFRAME, $0
	SUB  $16, RSP, RSP
	MOVB R0, (RSP)
	MOVW ·sigfd(SB), R0
	MOVD RSP, R1
	MOVD $1, R2
	MOVD $64, R8 // write
	SVC
	ADD  $16, RSP, RSP
	RET

// func handlerPCs() (handler, restorer uintptr)
TEXT ·handlerPCs(SB), NOSPLIT, $0-16
	MOVD $·sigtramp(SB), R0
	MOVD R0, handler+0(FP)
	MOVD ZR, restorer+8(FP)
	RET
