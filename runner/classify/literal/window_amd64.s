//go:build !purego

#include "textflag.h"

// The low nibble of every byte.
DATA nibbles<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibbles<>+8(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibbles<>+16(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibbles<>+24(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL nibbles<>(SB), RODATA|NOPTR, $32

// NIBBLES loads the 32 bytes at off(SI)(CX*1) into Y7 and their high
// nibbles into Y8. The low nibbles are Y7 itself: VPSHUFB reads only them,
// and the bytes from 0x80 on, which it turns to zero, are in no window.
#define NIBBLES(off) \
	VMOVDQU off(SI)(CX*1), Y7 \
	VPSRLW  $4, Y7, Y8 \
	VPAND   Y6, Y8, Y8

// LOOKUP sets dst to the buckets of the bytes in Y7 and Y8 by the tables lo
// and hi.
#define LOOKUP(lo, hi, dst) \
	VPSHUFB Y7, lo, dst \
	VPSHUFB Y8, hi, Y9 \
	VPAND   Y9, dst, dst

// LOOKUPM is LOOKUP with the tables at lo(AX) and hi(AX).
#define LOOKUPM(lo, hi, dst) \
	VMOVDQU lo(AX), Y13 \
	VMOVDQU hi(AX), Y14 \
	LOOKUP(Y13, Y14, dst)

// func scanAVX2(t *tables, b []byte, i int) int
TEXT ·scanAVX2(SB), NOSPLIT, $0-48
	MOVQ t+0(FP), AX
	MOVQ b_base+8(FP), SI
	MOVQ b_len+16(FP), DX
	MOVQ i+32(FP), CX
	// A block of 32 positions from CX reads up to CX+33: blocks start
	// below len-33.
	SUBQ $33, DX
	CMPQ CX, DX
	JGE  none
	// Buckets 0 to 7 stay in registers, 8 to 15 are read from t.
	VMOVDQU 0(AX), Y0
	VMOVDQU 32(AX), Y1
	VMOVDQU 64(AX), Y2
	VMOVDQU 192(AX), Y3
	VMOVDQU 224(AX), Y4
	VMOVDQU 256(AX), Y5
	VMOVDQU nibbles<>(SB), Y6

loop:
	NIBBLES(0)
	LOOKUP(Y0, Y3, Y11)
	LOOKUPM(96, 288, Y12)
	NIBBLES(1)
	LOOKUP(Y1, Y4, Y10)
	VPAND   Y10, Y11, Y11
	LOOKUPM(128, 320, Y10)
	VPAND   Y10, Y12, Y12
	NIBBLES(2)
	LOOKUP(Y2, Y5, Y10)
	VPAND   Y10, Y11, Y11
	LOOKUPM(160, 352, Y10)
	VPAND   Y10, Y12, Y12
	VPOR    Y11, Y12, Y13
	VPTEST  Y13, Y13
	JNZ     found
	ADDQ    $32, CX
	CMPQ    CX, DX
	JLT     loop

none:
	MOVL $0, 448(AX)
	MOVQ CX, ret+40(FP)
	VZEROUPPER
	RET

found:
	VMOVDQU   Y11, 384(AX)
	VMOVDQU   Y12, 416(AX)
	VPXOR     Y14, Y14, Y14
	VPCMPEQB  Y14, Y13, Y14
	VPMOVMSKB Y14, R9
	NOTL      R9
	MOVL      R9, 448(AX)
	MOVQ      CX, ret+40(FP)
	VZEROUPPER
	RET

// func scanAVX2Narrow(t *tables, b []byte, i int) int
TEXT ·scanAVX2Narrow(SB), NOSPLIT, $0-48
	MOVQ t+0(FP), AX
	MOVQ b_base+8(FP), SI
	MOVQ b_len+16(FP), DX
	MOVQ i+32(FP), CX
	SUBQ $33, DX
	CMPQ CX, DX
	JGE  none
	VMOVDQU 0(AX), Y0
	VMOVDQU 32(AX), Y1
	VMOVDQU 64(AX), Y2
	VMOVDQU 192(AX), Y3
	VMOVDQU 224(AX), Y4
	VMOVDQU 256(AX), Y5
	VMOVDQU nibbles<>(SB), Y6

loop:
	NIBBLES(0)
	LOOKUP(Y0, Y3, Y11)
	NIBBLES(1)
	LOOKUP(Y1, Y4, Y10)
	VPAND   Y10, Y11, Y11
	NIBBLES(2)
	LOOKUP(Y2, Y5, Y10)
	VPAND   Y10, Y11, Y11
	VPTEST  Y11, Y11
	JNZ     found
	ADDQ    $32, CX
	CMPQ    CX, DX
	JLT     loop

none:
	MOVL $0, 448(AX)
	MOVQ CX, ret+40(FP)
	VZEROUPPER
	RET

found:
	VMOVDQU   Y11, 384(AX)
	VPXOR     Y14, Y14, Y14
	VPCMPEQB  Y14, Y11, Y14
	VPMOVMSKB Y14, R9
	NOTL      R9
	MOVL      R9, 448(AX)
	MOVQ      CX, ret+40(FP)
	VZEROUPPER
	RET
