package tensor

import "fmt"

// Copy: Matmul returns the matrix product of x and y, like torch.matmul:
// two 1-D tensors give their dot product (0-d), 2-D tensors multiply as
// matrices, a 1-D operand is treated as a row (first) or column (second)
// vector and that dimension is removed from the result, and
// higher-dimensional operands are batches of matrices whose batch
// dimensions broadcast. Both operands must have the same dtype; Bool and
// Float16 operands are refused, as on PyTorch's CPU. Float32 and Float64
// matrix products accumulate in their own dtype, as PyTorch's BLAS does,
// with the fastest kernel the CPU runs (AVX-512, AVX2 or NEON, else Go;
// see gemm.go); BFloat16 products accumulate in float64 and are rounded
// once. The order of accumulation differs from the BLAS's, so the last
// bits of a result can differ from PyTorch's.
func (x *Tensor) Matmul(y *Tensor) *Tensor {
	x.must("Matmul")
	mustArg("Matmul", y)
	a, b := x.Dim(), y.Dim()
	if a == 0 || b == 0 {
		fail("matmul", "both arguments to matmul need to be at least 1D, but they are %dD and %dD", a, b)
	}
	if x.DType() != y.DType() && a == 1 && b == 1 {
		fail("matmul", "dot : expected both vectors to have same dtype, but found %s and %s", typeName(x.DType()), typeName(y.DType()))
	}
	if x.DType() != y.DType() {
		fail("matmul", "expected scalar type %s but found %s", typeName(x.DType()), typeName(y.DType()))
	}
	switch x.DType() {
	case Bool, Float16:
		fail("matmul", "\"addmm_impl_cpu_\" not implemented for '%s'", typeName(x.DType()))
	}
	checkMatmulShapes(x, y)

	if a == 1 && b == 1 {
		return record(dot(x, y), "DotBackward0", []*Tensor{x, y}, []*Tensor{x, y}, matmulRule(a, b))
	}

	// Make both operands batches of matrices: views, nothing is copied.
	xm, ym := x, y
	if a == 1 {
		xm = x.Unsqueeze(0)
	}
	if b == 1 {
		ym = y.Unsqueeze(1)
	}
	n, k, m := xm.Size(-2), xm.Size(-1), ym.Size(-1)
	batch := []int(broadcastPair("matmul", xm.shape[:xm.Dim()-2], ym.shape[:ym.Dim()-2]))
	// The float32 and float64 products write every element unless there
	// are no products to sum (k = 0), where the result is zeros.
	var out *Tensor
	if (x.DType() == Float32 || x.DType() == Float64) && k > 0 {
		out = newUnfilled(x.DType(), dims(batch, n, m), contiguousStrides(dims(batch, n, m)))
	} else {
		out = newTensor(x.DType(), dims(batch, n, m))
	}
	xb, yb := xm.Expand(dims(batch, n, k)...), ym.Expand(dims(batch, k, m)...)
	switch {
	case x.DType() == Float32:
		matmulPacked(matmulKernel.f32, scratch32, out, xb, yb)
	case x.DType() == Float64:
		matmulPacked(matmulKernel.f64, scratch64, out, xb, yb)
	case x.DType().IsFloatingPoint():
		matmulBatches(out, xb, yb, readerOf[float64](x.storage), readerOf[float64](y.storage), out.storage.store)
	default:
		matmulBatches(out, xb, yb, readerOf[int64](x.storage), readerOf[int64](y.storage), intSetter(out.storage))
	}

	// Drop the dimensions that 1-D operands were given.
	shape := out.Shape()
	switch {
	case a == 1:
		shape = append(shape[:len(shape)-2], m)
	case b == 1:
		shape = shape[:len(shape)-1]
	}
	out.shape, out.strides = shape, contiguousStrides(shape)
	return record(out, matmulNodeName(a, b), []*Tensor{x, y}, []*Tensor{x, y}, matmulRule(a, b))
}

// matmulNodeName is the name PyTorch gives the last node of a matmul of
// operands with a and b dimensions.
func matmulNodeName(a, b int) string {
	switch {
	case a == 1 && b == 1:
		return "DotBackward0"
	case a == 2 && b == 2:
		return "MmBackward0"
	case a == 2 && b == 1:
		return "MvBackward0"
	case a == 1 && b == 2:
		return "SqueezeBackward3"
	}
	return "UnsafeViewBackward0"
}

// matmulRule: for matrices, d(X·Y) = dX·Y + X·dY, so X's gradient is
// G·Yᵀ and Y's is Xᵀ·G. A 1-D operand is a matrix of one row (X) or one
// column (Y) first; batch dimensions that were broadcast are summed.
func matmulRule(a, b int) backwardFunc {
	return func(g *Tensor, saved []*Tensor) []*Tensor {
		x, y := saved[0], saved[1]
		if b == 1 {
			y, g = y.Unsqueeze(1), g.Unsqueeze(-1)
		}
		if a == 1 {
			x, g = x.Unsqueeze(0), g.Unsqueeze(-2)
		}
		gx, gy := g.Matmul(y.MT()), x.MT().Matmul(g)
		if a == 1 {
			gx = sumTo(gx, x.shape).Squeeze(0)
		}
		if b == 1 {
			gy = sumTo(gy, y.shape).Squeeze(1)
		}
		return []*Tensor{gx, gy}
	}
}

// The product's blocks: a worker packs rowBlock rows of X at a time, and
// walks Y's packed panel in blocks of kBlock rows and mBlock columns, which
// stay in the CPU's cache while every packed row of X passes over them.
const (
	rowBlock = 64
	kBlock   = 128
	mBlock   = 256
)

// matmulBatches writes to out, a new contiguous (batch…, n, m) tensor, the
// products of the matrices of xb (batch…, n, k) and yb (batch…, k, m),
// which may be any views (expanded, transposed, sliced): each matrix of
// Y is packed once into a contiguous panel, and rows of X a block at a
// time, accumulating in A. readX and readY read xb's and yb's storage
// slots as A, and set writes out's.
func matmulBatches[A int64 | float64](out, xb, yb *Tensor, readX, readY func(int) A, set func(int, A)) {
	nb := xb.Dim() - 2
	n, k, m := xb.Size(-2), xb.Size(-1), yb.Size(-1)
	checkAllocation("matmul", k*m, 8)
	panel := make([]A, k*m)
	count := Shape(xb.shape[:nb]).Numel()
	index := make([]int, nb)
	for b := range count {
		xo, yo := xb.offset, yb.offset
		for d := nb - 1; d >= 0; d-- {
			xo += index[d] * xb.strides[d]
			yo += index[d] * yb.strides[d]
		}
		ys0, ys1 := yb.strides[nb], yb.strides[nb+1]
		for p := range k {
			for j := range m {
				panel[p*m+j] = readY(yo + p*ys0 + j*ys1)
			}
		}
		xs0, xs1 := xb.strides[nb], xb.strides[nb+1]
		base := b * n * m
		parallelFor((n+rowBlock-1)/rowBlock, n*k*m, func(lo, hi int) {
			rows := make([]A, rowBlock*k)
			acc := make([]A, rowBlock*m)
			for rb := lo; rb < hi; rb++ {
				r0 := rb * rowBlock
				nr := min(rowBlock, n-r0)
				for r := range nr {
					for p := range k {
						rows[r*k+p] = readX(xo + (r0+r)*xs0 + p*xs1)
					}
				}
				clear(acc[:nr*m])
				multiplyBlock(acc, rows, panel, nr, k, m)
				for i, v := range acc[:nr*m] {
					set(base+r0*m+i, v)
				}
			}
		})
		for d := nb - 1; d >= 0; d-- { // the next batch index, last dimension fastest
			if index[d]++; index[d] < xb.shape[d] {
				break
			}
			index[d] = 0
		}
	}
}

// multiplyBlock adds to acc (nr×m) the product of rows (nr×k) and panel
// (k×m), all row-major, block by block.
func multiplyBlock[A int64 | float64](acc, rows, panel []A, nr, k, m int) {
	for p0 := 0; p0 < k; p0 += kBlock {
		p1 := min(p0+kBlock, k)
		for j0 := 0; j0 < m; j0 += mBlock {
			j1 := min(j0+mBlock, m)
			for r := range nr {
				out := acc[r*m+j0 : r*m+j1]
				for p := p0; p < p1; p++ {
					v := rows[r*k+p]
					in := panel[p*m+j0 : p*m+j1]
					in = in[:len(out)]
					for j, w := range in {
						out[j] += v * w
					}
				}
			}
		}
	}
}

// readerOf returns a function that reads a slot of s as A: float64 for
// floating-point storages, int64 for integer ones.
func readerOf[A int64 | float64](s *Storage) func(int) A {
	switch d := s.data.(type) {
	case []float32:
		return func(i int) A { return A(d[i]) }
	case []float64:
		return func(i int) A { return A(d[i]) }
	case []int64:
		return func(i int) A { return A(d[i]) }
	case []int32:
		return func(i int) A { return A(d[i]) }
	case []uint8:
		return func(i int) A { return A(d[i]) }
	}
	return func(i int) A { return A(s.load(i)) }
}

// dot is the dot product of two 1-D tensors of one dtype, read where they
// lie. An operand of stride 0 (an expanded scalar) is one value: it
// multiplies the sum of the other, so that a dot of 2³³ repeated ones
// takes no time and no memory.
func dot(x, y *Tensor) *Tensor {
	out := newTensor(x.DType(), nil)
	if x.DType().IsFloatingPoint() {
		out.storage.store(0, dotOf(x, y, readerOf[float64](x.storage), readerOf[float64](y.storage)))
	} else {
		intSetter(out.storage)(0, dotOf(x, y, readerOf[int64](x.storage), readerOf[int64](y.storage)))
	}
	return out
}

func dotOf[A int64 | float64](x, y *Tensor, readX, readY func(int) A) A {
	k, xs, ys := x.shape[0], x.strides[0], y.strides[0]
	if k == 0 {
		return 0
	}
	if xs == 0 {
		x, y, xs, ys, readX, readY = y, x, ys, xs, readY, readX
	}
	if ys == 0 { // x · (v, v, …) = v · Σx
		v := readY(y.offset)
		if xs == 0 {
			return A(k) * readX(x.offset) * v
		}
		var sum A
		for i := range k {
			sum += readX(x.offset + i*xs)
		}
		return sum * v
	}
	var sum A
	for i := range k {
		sum += readX(x.offset+i*xs) * readY(y.offset+i*ys)
	}
	return sum
}

// checkMatmulShapes refuses operands whose inner sizes disagree, with the
// message of the PyTorch routine that would have been called for them.
func checkMatmulShapes(x, y *Tensor) {
	a, b := x.Dim(), y.Dim()
	k1 := x.Size(-1)
	k2 := y.Size(0)
	if b >= 2 {
		k2 = y.Size(-2)
	}
	if k1 == k2 {
		return
	}
	mat := func(rows, cols int) string { return fmt.Sprintf("%dx%d", rows, cols) }
	switch {
	case a == 1 && b == 1:
		fail("matmul", "inconsistent tensor size, expected tensor [%d] and src [%d] to have the same number of elements, but got %d and %d elements respectively", k1, k2, k1, k2)
	case b == 1 && a >= 2:
		rows := x.Numel() / max(k1, 1)
		fail("matmul", "size mismatch, got %d, %s,%d", rows, mat(rows, k1), k2)
	case a <= 2 && b == 2, a >= 3 && b <= 2:
		rows := x.Numel() / max(k1, 1)
		cols := 1
		if b == 2 {
			cols = y.Size(1)
		}
		fail("matmul", "mat1 and mat2 shapes cannot be multiplied (%s and %s)", mat(rows, k1), mat(k2, cols))
	case a == 1 && b >= 3:
		rows := y.Numel() / max(k2, 1)
		fail("matmul", "size mismatch, got %d, %s,%d", rows, mat(rows, k2), k1)
	case a == 2 && b >= 3:
		rows := y.Numel() / max(k2, 1)
		fail("matmul", "mat1 and mat2 shapes cannot be multiplied (%s and %s)", mat(rows, k2), mat(k1, x.Size(0)))
	}
	batch := broadcastPair("matmul", x.shape[:a-2], y.shape[:b-2])
	fail("matmul", "Expected size for first two dimensions of batch2 tensor to be: [%d, %d] but got: [%d, %d].", Shape(batch).Numel(), k1, Shape(batch).Numel(), k2)
}
