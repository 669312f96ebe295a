package tensor

// archKernels lists amd64's assembly kernels, fastest first: AVX-512, then
// AVX2 with FMA (gemm_amd64.s, written by gemm_gen.go).
func archKernels() []matmulKernels {
	k := []matmulKernels{{
		name: "avx512",
		f32:  asmKernel(12, 32, sgemmTileAVX512),
		f64:  asmKernel(12, 16, dgemmTileAVX512),
	}, {
		name: "avx2",
		f32:  asmKernel(6, 16, sgemmTileAVX2),
		f64:  asmKernel(6, 8, dgemmTileAVX2),
	}}
	if !hasAVX512 {
		k[0].lacks = "this CPU lacks AVX-512"
	}
	if !hasAVX2FMA {
		k[1].lacks = "this CPU lacks AVX2 or FMA"
	}
	return k
}

// asmKernel wraps an assembly kernel of a rows×cols tile, which reads the
// tile's rows where they lie, as a gemmKernel: its strided tiles check
// the slots the kernel reads and writes, which the assembly does not, and
// pass their first elements; its packed tile reads a packed panel.
func asmKernel[T float32 | float64](rows, cols int, kernel func(k int, a *T, lda, pa int, b, c *T, ldc int, add int, tiles, astep int)) gemmKernel[T] {
	strided := func(k, tiles int, a []T, lda, pa, astep int, b, c []T, ldc int, add bool) {
		_, _ = a[(tiles-1)*astep+(rows-1)*lda+(k-1)*pa], b[k*cols-1]
		_ = c[(tiles*rows-1)*ldc+cols-1]
		flag := 0
		if add {
			flag = 1
		}
		kernel(k, &a[0], lda, pa, &b[0], &c[0], ldc, flag, tiles, astep)
	}
	return gemmKernel[T]{
		rows: rows, cols: cols,
		tile: func(k int, a, b, c []T, ldc int, add bool) {
			strided(k, 1, a, 1, rows, 0, b, c, ldc, add)
		},
		strided: strided,
	}
}

// The assembly kernels, described on gemmKernel's strided, with a, b and c
// as pointers to their first elements and add as 0 or 1.
//
//go:noescape
func sgemmTileAVX512(k int, a *float32, lda, pa int, b, c *float32, ldc int, add int, tiles, astep int)

//go:noescape
func dgemmTileAVX512(k int, a *float64, lda, pa int, b, c *float64, ldc int, add int, tiles, astep int)

//go:noescape
func sgemmTileAVX2(k int, a *float32, lda, pa int, b, c *float32, ldc int, add int, tiles, astep int)

//go:noescape
func dgemmTileAVX2(k int, a *float64, lda, pa int, b, c *float64, ldc int, add int, tiles, astep int)
