package tensor

// archKernels lists amd64's assembly kernels, fastest first: AVX-512, then
// AVX2 with FMA (gemm_amd64.s, written by gemm_gen.go).
func archKernels() []matmulKernels {
	k := []matmulKernels{{
		name: "avx512",
		f32:  gemmKernel[float32]{12, 32, asmTile(12, 32, sgemmTileAVX512)},
		f64:  gemmKernel[float64]{12, 16, asmTile(12, 16, dgemmTileAVX512)},
	}, {
		name: "avx2",
		f32:  gemmKernel[float32]{6, 16, asmTile(6, 16, sgemmTileAVX2)},
		f64:  gemmKernel[float64]{6, 8, asmTile(6, 8, dgemmTileAVX2)},
	}}
	if !hasAVX512 {
		k[0].lacks = "this CPU lacks AVX-512"
	}
	if !hasAVX2FMA {
		k[1].lacks = "this CPU lacks AVX2 or FMA"
	}
	return k
}

// The assembly kernels, described on gemmKernel, with a, b and c as
// pointers to their first elements and add as 0 or 1.
//
//go:noescape
func sgemmTileAVX512(k int, a, b, c *float32, ldc int, add int)

//go:noescape
func dgemmTileAVX512(k int, a, b, c *float64, ldc int, add int)

//go:noescape
func sgemmTileAVX2(k int, a, b, c *float32, ldc int, add int)

//go:noescape
func dgemmTileAVX2(k int, a, b, c *float64, ldc int, add int)
