//go:build amd64 || arm64

package tensor

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
