//go:build !purego

package literal

import (
	"runtime"
	"testing"

	"golang.org/x/sys/cpu"
)

// TestSIMDAsXSysCPU checks the features simd reads from CPUID against
// golang.org/x/sys/cpu's, which the program does not link for start-up's
// sake.
func TestSIMDAsXSysCPU(t *testing.T) {
	avx2, avx512 := simd()
	if avx2 != cpu.X86.HasAVX2 {
		t.Errorf("AVX2: simd says %v, x/sys/cpu %v", avx2, cpu.X86.HasAVX2)
	}
	want512 := cpu.X86.HasAVX512 && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VBMI
	if runtime.GOOS == "darwin" && want512 && !avx512 {
		// macOS enables the AVX-512 state on first use, which XCR0 does
		// not show before: simd leaves AVX-512 alone there.
		t.Skip("AVX-512 state not yet enabled by macOS")
	}
	if avx512 != want512 {
		t.Errorf("AVX-512 F+BW+VBMI: simd says %v, x/sys/cpu %v", avx512, want512)
	}
}
