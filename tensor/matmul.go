package tensor

import "fmt"

// Matmul returns the matrix product of x and y, like torch.matmul: two 1-D
// tensors give their dot product (0-d), 2-D tensors multiply as matrices, a
// 1-D operand is treated as a row (first) or column (second) vector and that
// dimension is removed from the result, and higher-dimensional operands are
// batches of matrices whose batch dimensions broadcast. Both operands must
// have the same dtype; Bool and Float16 operands are refused, as on
// PyTorch's CPU. Floating-point products accumulate in float64 and are
// rounded once, so their last bits can differ from PyTorch's, whose order
// of accumulation depends on the CPU's BLAS.
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

	// Make both operands batches of matrices.
	xm, ym := x, y
	if a == 1 {
		xm = x.Unsqueeze(0)
	}
	if b == 1 {
		ym = y.Unsqueeze(1)
	}
	n, k, m := xm.Size(-2), xm.Size(-1), ym.Size(-1)
	batch := []int(broadcastPair("matmul", xm.shape[:xm.Dim()-2], ym.shape[:ym.Dim()-2]))
	count := Shape(batch).Numel()
	xb := xm.Expand(dims(batch, n, k)...).Reshape(count, n, k)
	yb := ym.Expand(dims(batch, k, m)...).Reshape(count, k, m)

	out := newTensor(x.DType(), dims(batch, n, m))
	if x.DType().IsFloatingPoint() {
		for i, v := range matmulRows(xb.Float64s(), yb.Float64s(), out.Numel(), n, k, m) {
			out.storage.store(i, v)
		}
	} else {
		set := intSetter(out.storage)
		for i, v := range matmulRows(xb.Int64s(), yb.Int64s(), out.Numel(), n, k, m) {
			set(i, v)
		}
	}

	// Drop the dimensions that 1-D operands were given.
	shape := out.Shape()
	switch {
	case a == 1 && b == 1:
		shape = nil
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

// matmulRows computes the batched product of row-major (batch, n, k) and
// (batch, k, m) arrays, size elements in all, accumulating in A; output
// rows are shared out between goroutines.
func matmulRows[A int64 | float64](xs, ys []A, size, n, k, m int) []A {
	out := make([]A, size)
	rows := size / max(m, 1)
	parallelFor(rows, rows*k*m, func(lo, hi int) {
		for r := lo; r < hi; r++ {
			b := r / n
			acc := out[r*m : (r+1)*m]
			for p := range k {
				v := xs[r*k+p]
				row := ys[(b*k+p)*m : (b*k+p+1)*m]
				for j := range acc {
					acc[j] += v * row[j]
				}
			}
		}
	})
	return out
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
