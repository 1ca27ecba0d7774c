// The layout of tables (lookup.go), as both lookups read it: the lookups
// of buckets 0 to 7 for the four bytes by low nibble at 0, 32, 64, 96, of 8
// to 15 at 128 to 224; by high nibble from 256 on, likewise; the blocks
// found (cand, 80 bytes each) at 512, how many at 1792; the lookups by
// whole byte (128 bytes each) at 1800.
#define FOUND 512
#define CAND 80
#define BATCH 16
#define COUNT 1792
#define FULL 1800

// TAIL ends a scan's loop over blocks of step positions from CX: next moves
// on to the next block while one fits, done stores how many cands are
// filled and returns the first block not looked up.
#define TAIL(step) \
next: \
	ADDQ $step, CX \
	CMPQ CX, DX \
	JLT  loop \
done: \
	MOVQ R11, COUNT(AX) \
	MOVQ CX, ret+40(FP) \
	VZEROUPPER \
	RET

// STOP, after a block of step positions is recorded, goes on to next while
// fewer than limit cands are filled, and otherwise ends the scan after it.
#define STOP(limit, step) \
	CMPQ R11, $limit \
	JLT  next \
	ADDQ $step, CX \
	JMP  done

// ARGS loads the arguments: t into AX, b into SI and DX, i into CX; R10 is
// the next cand to fill, R11 how many are filled, DX where blocks end, reach
// bytes before the end of b.
#define ARGS(reach) \
	MOVQ t+0(FP), AX \
	MOVQ b_base+8(FP), SI \
	MOVQ b_len+16(FP), DX \
	MOVQ i+32(FP), CX \
	LEAQ FOUND(AX), R10 \
	XORQ R11, R11 \
	SUBQ $reach, DX
