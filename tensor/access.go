package tensor

// offsetOf returns the storage slot of the element at idx, which must name
// every dimension; negative indices count from the end.
func (x *Tensor) offsetOf(op string, idx []int) int {
	if len(idx) > x.Dim() {
		failIndex(op, "too many indices for tensor of dimension %d", x.Dim())
	}
	if len(idx) < x.Dim() {
		failIndex(op, "%s needs %d indices for a tensor of dimension %d, got %d", op, x.Dim(), x.Dim(), len(idx))
	}
	off := x.offset
	for d, i := range idx {
		size := x.shape[d]
		if i < -size || i >= size {
			failIndex(op, "index %d is out of bounds for dimension %d with size %d", i, d, size)
		}
		if i < 0 {
			i += size
		}
		off += i * x.strides[d]
	}
	return off
}

// Address returns the storage slot of the element at idx, the address
// contract worked out: StorageOffset() + Σ idx[k]·Stride(k). idx must name
// every dimension; negative indices count from the end.
func (x *Tensor) Address(idx ...int) int {
	x.must("Address")
	return x.offsetOf("address", idx)
}

// At returns the element at idx as a float64; idx must name every
// dimension, and negative indices count from the end. Int64 values beyond
// ±2⁵³ lose precision in the conversion.
func (x *Tensor) At(idx ...int) float64 {
	x.must("At")
	return x.storage.load(x.offsetOf("at", idx))
}

// In place: Set writes v, a Go number or bool, to the element at idx,
// converting it to x's dtype as PyTorch does. The write goes to the storage
// slot that position reads, so it is seen by every view of that slot: in an
// expanded tensor, all the positions that share it.
//
// Under autograd, Set is x[idx] = v in PyTorch: a write through a view of
// x, refused for a leaf that requires grad, recorded otherwise.
func (x *Tensor) Set(v any, idx ...int) {
	x.must("Set")
	off := x.offsetOf("set", idx)
	one := x.DType().checkedScalar("set", v)
	if IsGradEnabled() && x.requiresGrad() {
		element := x
		for range idx {
			element = element.Select(0, idx[0])
			idx = idx[1:]
		}
		element.Fill(one.Item())
		return
	}
	copyElementAt(x.storage, off, one.storage, 0)
	x.storage.version++
}

// Item returns the value of a tensor with exactly one element, like
// PyTorch's item().
func (x *Tensor) Item() float64 {
	x.must("Item")
	if n := x.Numel(); n != 1 {
		fail("item", "a Tensor with %d elements cannot be converted to Scalar", n)
	}
	return x.storage.load(x.offset)
}

// Float64s returns x's elements in row-major (logical) order as float64s.
func (x *Tensor) Float64s() []float64 {
	x.must("Float64s")
	checkAllocation("Float64s", x.Numel(), 8)
	out := make([]float64, 0, x.Numel())
	x.visit(func(off int) { out = append(out, x.storage.load(off)) })
	return out
}

// Int64s returns x's elements in row-major (logical) order as int64s;
// floating-point values are truncated toward zero, as PyTorch's conversion
// to Int64 does.
func (x *Tensor) Int64s() []int64 {
	x.must("Int64s")
	checkAllocation("Int64s", x.Numel(), 8)
	out := make([]int64, 0, x.Numel())
	if x.DType().IsFloatingPoint() || x.DType() == Bool {
		x.visit(func(off int) { out = append(out, floatToInt64(x.storage.load(off))) })
		return out
	}
	get := intGetter(x.storage)
	x.visit(func(off int) { out = append(out, get(off)) })
	return out
}

// visit calls f with the storage slot of every element, in row-major order,
// on the calling goroutine.
func (x *Tensor) visit(f func(off int)) {
	l := newLoop(x.shape, []int{x.offset}, x.strides)
	n, step := l.rowLen(), l.inner(0)
	l.each(0, l.rows(), func(offs []int) {
		for j := range n {
			f(offs[0] + j*step)
		}
	})
}
