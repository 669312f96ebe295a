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

// addWidened4 adds four rows into dst, as addWidened would one after
// another, with the same sums, but reading and writing dst once: a sum over
// a leading dimension then moves a quarter of the accumulator traffic.
func addWidened4(dst []float64, rows *[4][]float32) {
	n := len(dst)
	s0, s1, s2, s3 := rows[0][:n], rows[1][:n], rows[2][:n], rows[3][:n]
	done := 0
	if hasAVX512 {
		done = n &^ 15
		if done > 0 {
			addWidened4AVX512(&dst[0], &s0[0], &s1[0], &s2[0], &s3[0], done)
		}
	}
	addRows4(dst[done:], s0[done:], s1[done:], s2[done:], s3[done:])
}

// addWidened4AVX512 is addWidened4's assembly loop (widen_amd64.s); n
// must be a multiple of 16.
//
//go:noescape
func addWidened4AVX512(dst *float64, s0, s1, s2, s3 *float32, n int)
