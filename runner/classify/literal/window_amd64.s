//go:build !purego

#include "textflag.h"

// The low nibble of every byte.
DATA nibbles<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibbles<>+8(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibbles<>+16(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibbles<>+24(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL nibbles<>(SB), RODATA|NOPTR, $32

// LOOKUP ANDs into acc the buckets of the bytes at off(SI)(CX*1): the low
// nibbles looked up in lo, the high ones in hi.
#define LOOKUP(off, lo, hi, acc) \
	VMOVDQU off(SI)(CX*1), Y7 \
	VPSRLW  $4, Y7, Y8 \
	VPAND   Y6, Y7, Y7 \
	VPAND   Y6, Y8, Y8 \
	VPSHUFB Y7, lo, Y9 \
	VPSHUFB Y8, hi, Y10 \
	VPAND   Y9, Y10, Y9 \
	VPAND   Y9, acc, acc

// func scanAVX2(t *tables, b []byte, i int) int
TEXT ·scanAVX2(SB), NOSPLIT, $0-48
	MOVQ t+0(FP), AX
	MOVQ b_base+8(FP), SI
	MOVQ b_len+16(FP), DX
	MOVQ i+32(FP), CX
	// A block of 32 positions from CX reads up to CX+33: blocks start
	// below len-33.
	SUBQ $33, DX
	VMOVDQU 0(AX), Y0
	VMOVDQU 32(AX), Y1
	VMOVDQU 64(AX), Y2
	VMOVDQU 96(AX), Y3
	VMOVDQU 128(AX), Y4
	VMOVDQU 160(AX), Y5
	VMOVDQU nibbles<>(SB), Y6

loop:
	CMPQ CX, DX
	JGE  none
	VMOVDQU (SI)(CX*1), Y7
	VPSRLW  $4, Y7, Y8
	VPAND   Y6, Y7, Y7
	VPAND   Y6, Y8, Y8
	VPSHUFB Y7, Y0, Y11
	VPSHUFB Y8, Y3, Y10
	VPAND   Y10, Y11, Y11
	LOOKUP(1, Y1, Y4, Y11)
	LOOKUP(2, Y2, Y5, Y11)
	VPTEST  Y11, Y11
	JNZ     found
	ADDQ    $32, CX
	JMP     loop

found:
	VMOVDQU   Y11, 192(AX)
	VPXOR     Y12, Y12, Y12
	VPCMPEQB  Y12, Y11, Y12
	VPMOVMSKB Y12, R9
	NOTL      R9
	MOVL      R9, 224(AX)
	MOVQ      CX, ret+40(FP)
	VZEROUPPER
	RET

none:
	MOVL $0, 224(AX)
	MOVQ CX, ret+40(FP)
	VZEROUPPER
	RET
