package tensor

// gatherEvenWords copies src[0], src[2], … into d, sixteen at a time with
// AVX-512 where the CPU has it, and returns how many it copied (a
// multiple of 16; 0 without AVX-512). The loop reads the two words of
// each pair, so it leaves a last group whose odd word src lacks to the
// caller.
func gatherEvenWords(d, src []uint32) int {
	n := len(d) &^ 15
	if 2*n > len(src) {
		n -= 16
	}
	if !hasAVX512 || n <= 0 {
		return 0
	}
	_ = src[2*n-1]
	gatherEvenWordsAVX512(&d[0], &src[0], n)
	return n
}

// gatherEvenWordsAVX512 is gatherEvenWords' assembly loop
// (gather_amd64.s); n must be a multiple of 16.
//
//go:noescape
func gatherEvenWordsAVX512(dst, src *uint32, n int)
