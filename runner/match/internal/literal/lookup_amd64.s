//go:build !purego

#include "textflag.h"
#include "lookup_amd64.h"

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

// PROLOGUE loads the arguments and the tables of buckets 0 to 7 for the
// first three bytes: a block of 32 positions from CX reads up to CX+34.
#define PROLOGUE \
	ARGS(34) \
	VMOVDQU 0(AX), Y0 \
	VMOVDQU 32(AX), Y1 \
	VMOVDQU 64(AX), Y2 \
	VMOVDQU 256(AX), Y3 \
	VMOVDQU 288(AX), Y4 \
	VMOVDQU 320(AX), Y5 \
	VMOVDQU nibbles<>(SB), Y6

// RECORD fills the next cand with the block at CX: its buckets, Y11 and
// Y12, its position and its candidates, the bytes of Y13 not zero.
#define RECORD \
	VMOVDQU   Y11, 0(R10) \
	VMOVDQU   Y12, 32(R10) \
	VPXOR     Y14, Y14, Y14 \
	VPCMPEQB  Y14, Y13, Y14 \
	VPMOVMSKB Y14, R9 \
	NOTL      R9 \
	MOVQ      CX, 64(R10) \
	MOVL      R9, 72(R10) \
	ADDQ      $CAND, R10 \
	INCQ      R11

// func scanAVX2(t *tables, b []byte, i int) int
// Safety: see lookup_amd64.go. TestScanAVX2 checks it against the same lookup in Go.
TEXT ·scanAVX2(SB), NOSPLIT, $0-48
	PROLOGUE
	CMPQ CX, DX
	JGE  done

loop:
	NIBBLES(0)
	LOOKUP(Y0, Y3, Y11)
	LOOKUPM(128, 384, Y12)
	NIBBLES(1)
	LOOKUP(Y1, Y4, Y10)
	VPAND   Y10, Y11, Y11
	LOOKUPM(160, 416, Y10)
	VPAND   Y10, Y12, Y12
	NIBBLES(2)
	LOOKUP(Y2, Y5, Y10)
	VPAND   Y10, Y11, Y11
	LOOKUPM(192, 448, Y10)
	VPAND   Y10, Y12, Y12
	NIBBLES(3)
	LOOKUPM(96, 352, Y10)
	VPAND   Y10, Y11, Y11
	LOOKUPM(224, 480, Y10)
	VPAND   Y10, Y12, Y12
	VPOR    Y11, Y12, Y13
	VPTEST  Y13, Y13
	JNZ     found

	TAIL(32)

found:
	RECORD
	STOP(BATCH, 32)

// func scanAVX2Narrow(t *tables, b []byte, i int) int
// Safety: see lookup_amd64.go. TestScanAVX2 checks it against the same lookup in Go.
TEXT ·scanAVX2Narrow(SB), NOSPLIT, $0-48
	PROLOGUE
	CMPQ CX, DX
	JGE  done

	VMOVDQU 96(AX), Y15
	VMOVDQU 352(AX), Y12

loop:
	NIBBLES(0)
	LOOKUP(Y0, Y3, Y11)
	NIBBLES(1)
	LOOKUP(Y1, Y4, Y10)
	VPAND   Y10, Y11, Y11
	NIBBLES(2)
	LOOKUP(Y2, Y5, Y10)
	VPAND   Y10, Y11, Y11
	NIBBLES(3)
	LOOKUP(Y15, Y12, Y10)
	VPAND   Y10, Y11, Y11
	VPTEST  Y11, Y11
	JNZ     found

	TAIL(32)

found:
	VMOVDQA Y11, Y13
	VPXOR   Y12, Y12, Y12
	RECORD
	VMOVDQU 352(AX), Y12
	STOP(BATCH, 32)
