package tensor

// addWidened adds src into dst elementwise, as float64: the loop a Float32
// sum over a leading dimension spends its time in. It uses AVX-512 where
// the CPU has it, sixteen elements at a time, with the same additions in
// the same order as the Go loop, so the sums are the same.
func addWidened(dst []float64, src []float32) {
	src = src[:len(dst)]
	done := 0
	if hasAVX512 {
		done = len(dst) &^ 15
		if done > 0 {
			addWidenedAVX512(&dst[0], &src[0], done)
		}
	}
	addRow(dst[done:], src[done:])
}

// addWidenedAVX512 is addWidened's assembly loop (widen_amd64.s); n must
// be a multiple of 16.
//
//go:noescape
func addWidenedAVX512(dst *float64, src *float32, n int)
