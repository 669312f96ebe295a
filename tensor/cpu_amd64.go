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

// l1DataBytes returns the size of this CPU's first-level data cache, or
// 0 when CPUID does not say: from the deterministic cache parameters
// (leaf 4 on Intel, 0x8000001D on AMD, both in the same format), else
// from AMD's older L1 leaf (0x80000005).
func l1DataBytes() int {
	const dataCache, level1 = 1, 1
	fromLeaf := func(leaf uint32) int {
		for sub := uint32(0); sub < 16; sub++ {
			eax, ebx, ecx, _ := cpuid(leaf, sub)
			kind, level := eax&0x1f, eax>>5&7
			if kind == 0 {
				break // no more caches
			}
			if kind == dataCache && level == level1 {
				ways, parts, line := ebx>>22&0x3ff+1, ebx>>12&0x3ff+1, ebx&0xfff+1
				return int(ways * parts * line * (ecx + 1))
			}
		}
		return 0
	}
	if maxLeaf, _, _, _ := cpuid(0, 0); maxLeaf >= 4 {
		if n := fromLeaf(4); n > 0 {
			return n
		}
	}
	maxExt, _, _, _ := cpuid(0x80000000, 0)
	if maxExt >= 0x8000001D {
		if n := fromLeaf(0x8000001D); n > 0 {
			return n
		}
	}
	if maxExt >= 0x80000005 {
		_, _, ecx, _ := cpuid(0x80000005, 0)
		return int(ecx>>24) * 1024
	}
	return 0
}
