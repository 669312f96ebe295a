package tensor

// hasAVX512 tells whether this CPU runs AVX-512 Foundation instructions
// and the operating system saves their registers, so that the matrix
// products, gathers and sums may use them.
var hasAVX512 = detectAVX512()

// hasAVX2FMA tells whether this CPU runs AVX2 and FMA instructions and the
// operating system saves the YMM registers, so that the matrix products
// may use their AVX2 kernels.
var hasAVX2FMA = detectAVX2FMA()

func detectAVX2FMA() bool {
	const (
		fma     = 1 << 12 // CPUID.1:ECX
		osxsave = 1 << 27 // CPUID.1:ECX, XGETBV is available
		avx     = 1 << 28 // CPUID.1:ECX
		avx2    = 1 << 5  // CPUID.(7,0):EBX
		// XCR0: the SSE and AVX (upper YMM) state.
		ymmState = 1<<1 | 1<<2
	)
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return false
	}
	if _, _, ecx, _ := cpuid(1, 0); ecx&(fma|osxsave|avx) != fma|osxsave|avx {
		return false
	}
	if _, ebx, _, _ := cpuid(7, 0); ebx&avx2 == 0 {
		return false
	}
	return xgetbv()&ymmState == ymmState
}

func detectAVX512() bool {
	const (
		osxsave = 1 << 27 // CPUID.1:ECX, XGETBV is available
		avx512f = 1 << 16 // CPUID.(7,0):EBX
		// XCR0: the SSE, AVX, opmask and both halves of the ZMM state.
		zmmState = 1<<1 | 1<<2 | 1<<5 | 1<<6 | 1<<7
	)
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return false
	}
	if _, _, ecx, _ := cpuid(1, 0); ecx&osxsave == 0 {
		return false
	}
	if _, ebx, _, _ := cpuid(7, 0); ebx&avx512f == 0 {
		return false
	}
	return xgetbv()&zmmState == zmmState
}

// cpuid runs the CPUID instruction (cpu_amd64.s).
func cpuid(leaf, subleaf uint32) (eax, ebx, ecx, edx uint32)

// xgetbv reads XCR0, the register state the operating system saves
// (cpu_amd64.s).
func xgetbv() (eax uint32)
