package tensor

// archKernels lists arm64's assembly kernel: NEON, which every arm64 CPU
// has (gemm_arm64.s, written by gemm_gen.go).
func archKernels() []matmulKernels {
	return []matmulKernels{{
		name: "neon",
		f32:  gemmKernel[float32]{rows: 8, cols: 12, tile: asmTile(8, 12, sgemmTileNEON)},
		f64:  gemmKernel[float64]{rows: 8, cols: 6, tile: asmTile(8, 6, dgemmTileNEON)},
	}}
}

// asmTile wraps an assembly kernel of a rows×cols tile as a gemmKernel's
// tile: it checks the slots the kernel reads and writes, which the
// assembly does not, and passes their first elements.
func asmTile[T float32 | float64](rows, cols int, kernel func(k int, a, b, c *T, ldc int, add int)) func(k int, a, b, c []T, ldc int, add bool) {
	return func(k int, a, b, c []T, ldc int, add bool) {
		_, _ = a[k*rows-1], b[k*cols-1]
		_ = c[(rows-1)*ldc+cols-1]
		flag := 0
		if add {
			flag = 1
		}
		kernel(k, &a[0], &b[0], &c[0], ldc, flag)
	}
}

// The assembly kernels, described on gemmKernel, with a, b and c as
// pointers to their first elements and add as 0 or 1.
//
//go:noescape
func sgemmTileNEON(k int, a, b, c *float32, ldc int, add int)

//go:noescape
func dgemmTileNEON(k int, a, b, c *float64, ldc int, add int)
