package tensor

// The portable kernel, in Go, which every target runs: the only one on
// WebAssembly and on architectures without an assembly kernel, and the
// one TENSORNB_MATMUL_KERNEL=portable forces. Its tile is 2×4: eight
// sums in local variables, with the row of b and the two elements of a
// they need, fit in the sixteen floating-point registers of amd64 (and of
// WebAssembly's engines on it), where a 4×4 tile spilled its sums to the
// stack and ran at two thirds of the speed. Each step of the shared
// dimension reads 6 elements for 8 multiply-adds. The loop takes four
// steps at a time, written out, since Go does not unroll loops: the
// slices' bookkeeping and the loop's test then come once in four steps
// (1.6 times the speed on amd64, 1.5 to 2 times in WebAssembly under V8,
// measured with BenchmarkTile).
const (
	portableRows = 2
	portableCols = 4
)

// portableKernels is the portable kernel for both element types.
var portableKernels = matmulKernels{
	name: "portable",
	f32:  gemmKernel[float32]{rows: portableRows, cols: portableCols, tile: gemmTilePortable[float32]},
	f64:  gemmKernel[float64]{rows: portableRows, cols: portableCols, tile: gemmTilePortable[float64]},
}

// gemmTilePortable is the portable tile kernel: see gemmKernel.
func gemmTilePortable[T float32 | float64](k int, a, b, c []T, ldc int, add bool) {
	var c00, c01, c02, c03, c10, c11, c12, c13 T
	a, b = a[:portableRows*k], b[:portableCols*k]
	for len(a) >= 4*portableRows && len(b) >= 4*portableCols {
		as, bs := (*[4 * portableRows]T)(a), (*[4 * portableCols]T)(b)
		c00 += as[0] * bs[0]
		c01 += as[0] * bs[1]
		c02 += as[0] * bs[2]
		c03 += as[0] * bs[3]
		c10 += as[1] * bs[0]
		c11 += as[1] * bs[1]
		c12 += as[1] * bs[2]
		c13 += as[1] * bs[3]

		c00 += as[2] * bs[4]
		c01 += as[2] * bs[5]
		c02 += as[2] * bs[6]
		c03 += as[2] * bs[7]
		c10 += as[3] * bs[4]
		c11 += as[3] * bs[5]
		c12 += as[3] * bs[6]
		c13 += as[3] * bs[7]

		c00 += as[4] * bs[8]
		c01 += as[4] * bs[9]
		c02 += as[4] * bs[10]
		c03 += as[4] * bs[11]
		c10 += as[5] * bs[8]
		c11 += as[5] * bs[9]
		c12 += as[5] * bs[10]
		c13 += as[5] * bs[11]

		c00 += as[6] * bs[12]
		c01 += as[6] * bs[13]
		c02 += as[6] * bs[14]
		c03 += as[6] * bs[15]
		c10 += as[7] * bs[12]
		c11 += as[7] * bs[13]
		c12 += as[7] * bs[14]
		c13 += as[7] * bs[15]
		a, b = a[4*portableRows:], b[4*portableCols:]
	}
	for len(a) >= portableRows && len(b) >= portableCols {
		a0, a1 := a[0], a[1]
		b0, b1, b2, b3 := b[0], b[1], b[2], b[3]
		c00 += a0 * b0
		c01 += a0 * b1
		c02 += a0 * b2
		c03 += a0 * b3
		c10 += a1 * b0
		c11 += a1 * b1
		c12 += a1 * b2
		c13 += a1 * b3
		a, b = a[portableRows:], b[portableCols:]
	}
	r0, r1 := (*[4]T)(c[:4]), (*[4]T)(c[ldc:ldc+4])
	if add {
		c00, c01, c02, c03 = c00+r0[0], c01+r0[1], c02+r0[2], c03+r0[3]
		c10, c11, c12, c13 = c10+r1[0], c11+r1[1], c12+r1[2], c13+r1[3]
	}
	*r0 = [4]T{c00, c01, c02, c03}
	*r1 = [4]T{c10, c11, c12, c13}
}
