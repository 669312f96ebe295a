package tensor

// archKernels lists arm64's assembly kernel: NEON, which every arm64 CPU
// has (gemm_arm64.s, written by gemm_gen.go).
func archKernels() []matmulKernels {
	return []matmulKernels{{
		name: "neon",
		f32:  gemmKernel[float32]{8, 12, asmTile(8, 12, sgemmTileNEON)},
		f64:  gemmKernel[float64]{8, 6, asmTile(8, 6, dgemmTileNEON)},
	}}
}

// The assembly kernels, described on gemmKernel, with a, b and c as
// pointers to their first elements and add as 0 or 1.
//
//go:noescape
func sgemmTileNEON(k int, a, b, c *float32, ldc int, add int)

//go:noescape
func dgemmTileNEON(k int, a, b, c *float64, ldc int, add int)
