package tensor

// sgemmTile runs the AVX-512 kernel where the CPU has it, and
// sgemmTileGo elsewhere; both are described on sgemmTileGo.
func sgemmTile(k int, a, b, c []float32, ldc int, add bool) {
	if !hasAVX512 {
		sgemmTileGo(k, a, b, c, ldc, add)
		return
	}
	// The kernel reads and writes exactly these slots: check them here.
	_, _ = a[k*sgemmRows-1], b[k*sgemmCols-1]
	_ = c[(sgemmRows-1)*ldc+sgemmCols-1]
	flag := 0
	if add {
		flag = 1
	}
	sgemmTileAVX512(k, &a[0], &b[0], &c[0], ldc, flag)
}

// sgemmTileAVX512 is the kernel in AVX-512 assembly (sgemm_amd64.s,
// written by sgemm_gen.go). k must be at least 1.
//
//go:noescape
func sgemmTileAVX512(k int, a, b, c *float32, ldc int, add int)
