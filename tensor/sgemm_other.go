//go:build !amd64

package tensor

// sgemmTile is sgemmTileGo: this architecture has no assembly kernel.
func sgemmTile(k int, a, b, c []float32, ldc int, add bool) {
	sgemmTileGo(k, a, b, c, ldc, add)
}

// hasAVX512 is false: only amd64 has the assembly kernels.
const hasAVX512 = false
