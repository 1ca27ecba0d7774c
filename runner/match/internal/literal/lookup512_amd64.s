//go:build !purego

#include "textflag.h"
#include "lookup_amd64.h"

// The AVX-512 lookups look 64 positions up at a time, each byte of a window
// in one table of 128 bytes (VPERMI2B, AVX512_VBMI): full, the ANDs of the
// nibble tables for every ASCII byte, for buckets 0 to 7 and then 8 to 15.
// A byte from 0x80 on would read the entry of its low seven bits; the
// positions holding one are no candidates (VPMOVB2M, checked only in a
// block with candidates), as in scanAVX2.

// PROLOGUE512 loads the arguments and the tables of buckets 0 to 7: a
// block of 64 positions from CX reads up to CX+66.
#define PROLOGUE512 \
	ARGS(66) \
	VMOVDQU64 FULL+0(AX), Z16 \
	VMOVDQU64 FULL+64(AX), Z17 \
	VMOVDQU64 FULL+128(AX), Z18 \
	VMOVDQU64 FULL+192(AX), Z19 \
	VMOVDQU64 FULL+256(AX), Z20 \
	VMOVDQU64 FULL+320(AX), Z21 \
	VMOVDQU64 FULL+384(AX), Z22 \
	VMOVDQU64 FULL+448(AX), Z23

// LOOKUP512 sets dst to the buckets of the block at CX by the tables in t0
// to t7, the two halves of each byte's, reading the text four times over.
#define LOOKUP512(t0, t1, t2, t3, t4, t5, t6, t7, dst) \
	VMOVDQU64  0(SI)(CX*1), dst \
	VPERMI2B   t1, t0, dst \
	VMOVDQU64  1(SI)(CX*1), Z5 \
	VPERMI2B   t3, t2, Z5 \
	VMOVDQU64  2(SI)(CX*1), Z6 \
	VPERMI2B   t5, t4, Z6 \
	VMOVDQU64  3(SI)(CX*1), Z7 \
	VPERMI2B   t7, t6, Z7 \
	VPTERNLOGD $0x80, Z6, Z5, dst \
	VPANDD     Z7, dst, dst

// HIGH512 takes out of K2 the positions of the block at CX where a byte of
// the window is 0x80 or more, and jumps to next if none is left.
#define HIGH512 \
	VMOVDQU64  0(SI)(CX*1), Z9 \
	VMOVDQU64  1(SI)(CX*1), Z5 \
	VMOVDQU64  2(SI)(CX*1), Z6 \
	VPTERNLOGD $0xfe, Z6, Z5, Z9 \
	VPORD      3(SI)(CX*1), Z9, Z9 \
	VPMOVB2M   Z9, K1 \
	KANDNQ     K2, K1, K2 \
	KORTESTQ   K2, K2 \
	JZ         next

// RECORD512 fills the next cand or two with the block at CX, whose
// candidates are K2 and buckets Z4 and Z8, then ends the scan if a block
// more might not fit.
#define RECORD512 \
	VMOVDQU8.Z    Z4, K2, Z4 \
	VMOVDQU8.Z    Z8, K2, Z8 \
	KMOVQ         K2, R9 \
	TESTL         R9, R9 \
	JZ            upper \
	VMOVDQU       Y4, 0(R10) \
	VMOVDQU       Y8, 32(R10) \
	MOVQ          CX, 64(R10) \
	MOVL          R9, 72(R10) \
	ADDQ          $CAND, R10 \
	INCQ          R11 \
upper: \
	SHRQ          $32, R9 \
	JZ            filled \
	VEXTRACTI64X4 $1, Z4, 0(R10) \
	VEXTRACTI64X4 $1, Z8, 32(R10) \
	LEAQ          32(CX), R12 \
	MOVQ          R12, 64(R10) \
	MOVL          R9, 72(R10) \
	ADDQ          $CAND, R10 \
	INCQ          R11 \
filled: \
	STOP((BATCH-1), 64)

// END512 ends both AVX-512 scans: their loop's tail, then found, which
// records a block with candidates left once the high bytes are out.
#define END512 \
	TAIL(64) \
found: \
	HIGH512 \
	RECORD512

// func scan512(t *tables, b []byte, i int) int
// Safety: see lookup_amd64.go. TestScan512 checks it against the same lookup in Go.
TEXT ·scan512(SB), NOSPLIT, $0-48
	PROLOGUE512
	VMOVDQU64 FULL+512(AX), Z24
	VMOVDQU64 FULL+576(AX), Z25
	VMOVDQU64 FULL+640(AX), Z26
	VMOVDQU64 FULL+704(AX), Z27
	VMOVDQU64 FULL+768(AX), Z28
	VMOVDQU64 FULL+832(AX), Z29
	VMOVDQU64 FULL+896(AX), Z30
	VMOVDQU64 FULL+960(AX), Z31
	CMPQ CX, DX
	JGE  done

loop:
	LOOKUP512(Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23, Z4)
	LOOKUP512(Z24, Z25, Z26, Z27, Z28, Z29, Z30, Z31, Z8)
	VPORD    Z4, Z8, Z10
	VPTESTMB Z10, Z10, K2
	KORTESTQ K2, K2
	JNZ      found

	END512

// func scan512Narrow(t *tables, b []byte, i int) int
// Safety: see lookup_amd64.go. TestScan512 checks it against the same lookup in Go.
TEXT ·scan512Narrow(SB), NOSPLIT, $0-48
	PROLOGUE512
	VPXORD Z8, Z8, Z8
	CMPQ CX, DX
	JGE  done

loop:
	LOOKUP512(Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23, Z4)
	VPTESTMB Z4, Z4, K2
	KORTESTQ K2, K2
	JNZ      found

	END512
