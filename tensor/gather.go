package tensor

// Copy: IndexSelect returns a copy of the entries of x along dim picked by
// index, a 1-D Int64 or Int32 tensor, in that order: x[:, index] for dim 1.
// Like every advanced index, it copies. Negative indices are out of range,
// as in PyTorch.
func (x *Tensor) IndexSelect(dim int, index *Tensor) *Tensor {
	x.must("IndexSelect")
	mustArg("IndexSelect", index)
	return x.indexSelect(dim, index, nil)
}

// indexSelect is IndexSelect with its result laid out with the given
// strides (a dense layout of its shape), or contiguously if strides is nil.
func (x *Tensor) indexSelect(dim int, index *Tensor, strides []int) *Tensor {
	if index.Dim() > 1 {
		failIndex("index_select", "index_select(): Index is supposed to be a vector")
	}
	if index.DType() != Int64 && index.DType() != Int32 {
		fail("index_select", "index_select(): Expected dtype int32 or int64 for index")
	}
	dim = wrapDim("index_select", dim, x.Dim())
	size := 1
	if x.Dim() > 0 {
		size = x.shape[dim]
	}
	shape := x.Shape()
	if x.Dim() > 0 {
		shape[dim] = index.Numel()
		checkAllocation("index_select", Shape(shape).Numel(), x.DType().ItemSize())
	}
	picks := index.Int64s()
	for _, i := range picks {
		if i < 0 || i >= int64(size) {
			failIndex("index_select", "index out of range in self")
		}
	}
	if x.Dim() == 0 {
		if len(picks) != 1 {
			failIndex("index_select", "index_select(): Index to scalar can have only 1 value, got %d value(s)", len(picks))
		}
		return x.Clone()
	}
	out := newTensor(x.DType(), shape)
	if strides != nil {
		out.strides = strides
	}
	for j, i := range picks {
		copyElements(out.Select(dim, j), x.Select(dim, int(i)))
	}
	xShape := x.Shape()
	// Each picked entry's gradient goes back to where it was picked from,
	// summed where it was picked more than once.
	return record(out, "IndexSelectBackward0", []*Tensor{x, index}, []*Tensor{index}, func(g *Tensor, _ []*Tensor) []*Tensor {
		z := newTensor(g.DType(), xShape)
		for j, i := range picks {
			addInto(z.Select(dim, int(i)), g.Select(dim, j))
		}
		return []*Tensor{z, nil}
	})
}

// Copy: Gather returns a copy of x with the shape of index, where
// out[i][j][k] = x[index[i][j][k]][j][k] for dim 0 (and likewise for other
// dims), like torch.gather. index is Int64, has as many dimensions as x,
// and is no larger than x except along dim.
func (x *Tensor) Gather(dim int, index *Tensor) *Tensor {
	x.must("Gather")
	mustArg("Gather", index)
	dim = wrapDim("gather", dim, x.Dim())
	if index.DType() != Int64 {
		fail("gather", "gather(): Expected dtype int64 for index")
	}
	if max(index.Dim(), 1) != max(x.Dim(), 1) {
		fail("gather", "Index tensor must have the same number of dimensions as input tensor")
	}
	for d := range index.Dim() {
		if d != dim && index.shape[d] > x.shape[d] {
			fail("gather", "Size does not match at dimension %d expected index %s to be smaller than self %s apart from dimension %d",
				d, listString(index.shape), listString(x.shape), dim)
		}
	}
	out := newTensor(x.DType(), index.shape)
	size, stride := 1, 0
	if x.Dim() > 0 {
		size, stride = x.shape[dim], x.strides[dim]
	}
	// Walk x with index's shape and stride 0 along dim: each position gives
	// the slot of x's element 0 along dim, and the index adds the rest.
	strides := make([]int, index.Dim())
	copy(strides, x.strides)
	if index.Dim() > 0 {
		strides[dim] = 0
	}
	src := &Tensor{storage: x.storage, shape: index.shape, strides: strides, offset: x.offset}
	picks := index.Int64s()
	srcOffs := make([]int, 0, len(picks))
	src.visit(func(off int) { srcOffs = append(srcOffs, off) })
	for k, i := range picks {
		if i < 0 || i >= int64(size) {
			fail("gather", "index %d is out of bounds for dimension %d with size %d", i, dim, size)
		}
		copyElementAt(out.storage, k, x.storage, srcOffs[k]+int(i)*stride)
	}
	xShape := x.Shape()
	return record(out, "GatherBackward0", []*Tensor{x, index}, []*Tensor{index}, func(g *Tensor, _ []*Tensor) []*Tensor {
		// Scatter each gradient back to the element it was gathered from.
		z := newTensor(g.DType(), xShape)
		for k, i := range picks {
			idx := unravel(index.shape, k)
			if len(idx) > 0 {
				idx[dim] = int(i)
			}
			off := z.offsetOf("gather", idx)
			z.storage.store(off, z.storage.load(off)+g.storage.load(g.offsetOf("gather", unravel(g.shape, k))))
		}
		return []*Tensor{z, nil}
	})
}

// Copy: MaskedSelect returns a 1-D copy of the elements of x where mask, a
// Bool tensor broadcastable with x, is true, in row-major order, like
// torch.masked_select.
func (x *Tensor) MaskedSelect(mask *Tensor) *Tensor {
	x.must("MaskedSelect")
	mustArg("MaskedSelect", mask)
	if mask.DType() != Bool && mask.DType() != Uint8 {
		fail("masked_select", "masked_select: expected BoolTensor or ByteTensor for mask")
	}
	shape := broadcastPair("masked_select", mask.shape, x.shape)
	xs, ms := x.Expand(shape...), mask.Expand(shape...)
	// The count comes first, from the slots the mask holds, so that a
	// result too large for memory is refused before any walk of it.
	selected := ms.nonzeros()
	checkAllocation("masked_select", selected, x.DType().ItemSize())
	out := newTensor(x.DType(), []int{selected})
	if selected > 0 {
		l := newLoop(shape, []int{xs.offset, ms.offset}, xs.strides, ms.strides)
		n, xStep, mStep := l.rowLen(), l.inner(0), l.inner(1)
		k := 0
		l.each(0, l.rows(), func(offs []int) {
			for j := range n {
				if ms.storage.load(offs[1]+j*mStep) != 0 {
					copyElementAt(out.storage, k, x.storage, offs[0]+j*xStep)
					k++
				}
			}
		})
	}
	// The gradient goes back to the positions the mask picked, in the
	// broadcast shape; Backward sums it to x's shape.
	return record(out, "MaskedSelectBackward0", []*Tensor{x, mask}, []*Tensor{mask}, func(g *Tensor, saved []*Tensor) []*Tensor {
		z := newTensor(g.DType(), shape)
		values := g.Float64s()
		pos, k := 0, 0
		m := saved[0].Expand(shape...)
		m.visit(func(off int) {
			if m.storage.load(off) != 0 {
				z.storage.store(pos, values[k])
				k++
			}
			pos++
		})
		return []*Tensor{z, nil}
	})
}

// nonzeros counts the elements of x that are not zero, reading each slot
// that a dimension of stride 0 repeats once.
func (x *Tensor) nonzeros() int {
	u := x.unrepeated()
	n := 0
	u.visit(func(off int) {
		if u.storage.load(off) != 0 {
			n++
		}
	})
	if n == 0 {
		return 0
	}
	return n * (x.Numel() / u.Numel())
}
