//go:build !purego

package literal

import "sync"

// simd reports which of the SIMD lookups can run here: scanAVX2 needs
// AVX2, scan512 AVX-512 (F, BW and VBMI) as well, each with its register
// state enabled by the OS. It asks the CPU the first time a Scanner is
// made, not when the program starts, so that a run that never scans
// output does not pay for CPUID (slow under some hypervisors).
var simd = sync.OnceValues(func() (avx2, avx512 bool) {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return false, false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const osxsave, avx = 1 << 27, 1 << 28
	if ecx1&osxsave == 0 || ecx1&avx == 0 {
		return false, false
	}
	xcr0 := xgetbv()
	const ymmState = 1<<1 | 1<<2        // SSE and AVX state
	const zmmState = 1<<5 | 1<<6 | 1<<7 // opmask, ZMM_Hi256, Hi16_ZMM
	if xcr0&ymmState != ymmState {
		return false, false
	}
	_, ebx7, ecx7, _ := cpuid(7, 0)
	const avx2Bit, avx512F, avx512BW, avx512VBMI = 1 << 5, 1 << 16, 1 << 30, 1 << 1
	avx2 = ebx7&avx2Bit != 0
	avx512 = xcr0&zmmState == zmmState && ebx7&avx512F != 0 && ebx7&avx512BW != 0 && ecx7&avx512VBMI != 0
	return avx2, avx512
})

// cpuid runs CPUID for leaf eax, subleaf ecx.
//
// Safety: CPUID runs on every amd64 CPU and reads nothing but its two
// arguments; cpuid writes only its four results, keeps no pointer and
// calls nothing.
//
//go:noescape
func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

// xgetbv returns the low half of XCR0, which says which register state
// the OS saves: the AVX and AVX-512 registers are usable only then.
//
// Safety: XGETBV faults unless the OS enabled it (CPUID.1:ECX.OSXSAVE),
// which simd checks first; xgetbv writes only its result.
func xgetbv() uint32
