package tensor

import "slices"

// Copy: Cat joins tensors along dimension dim into a new tensor, like
// torch.cat: their sizes must agree in every other dimension, and their
// dtypes promote as in arithmetic. As in PyTorch, 1-D tensors with no
// elements are skipped whatever the other shapes.
//
//	tensor.Cat([]*tensor.Tensor{q, k}, -1)
func Cat(ts []*Tensor, dim int) *Tensor {
	if len(ts) == 0 {
		fail("cat", "torch.cat(): expected a non-empty list of Tensors")
	}
	for _, t := range ts {
		mustArg("Cat", t)
	}
	var parts []*Tensor // the tensors that are joined: not legacy empty ones
	dt := ts[0].DType()
	for i, t := range ts {
		if t.Dim() == 0 {
			fail("cat", "zero-dimensional tensor (at position %d) cannot be concatenated", i)
		}
		dt = promoteTypes(dt, t.DType())
		if t.Dim() != 1 || t.shape[0] != 0 {
			parts = append(parts, t)
		}
	}
	if len(parts) == 0 {
		return record(newTensor(dt, []int{0}), "CatBackward0", ts, nil, func(g *Tensor, _ []*Tensor) []*Tensor {
			return make([]*Tensor, len(ts))
		})
	}
	first := parts[0]
	dim = wrapDim("cat", dim, first.Dim())
	shape := first.Shape()
	shape[dim] = 0
	for _, t := range parts {
		if t.Dim() != first.Dim() {
			fail("cat", "Tensors must have same number of dimensions: got %d and %d", first.Dim(), t.Dim())
		}
		for d := range t.shape {
			if d != dim && t.shape[d] != first.shape[d] {
				fail("cat", "Sizes of tensors must match except in dimension %d. Expected size %d but got size %d for tensor number %d in the list.",
					dim, first.shape[d], t.shape[d], slices.Index(ts, t))
			}
		}
		shape[dim] += t.shape[dim]
	}
	out := newUnfilled(dt, shape, contiguousStrides(shape))
	starts := make([]int, len(ts))
	at := 0
	for i, t := range ts {
		starts[i] = at
		if slices.Contains(parts, t) {
			assign(out.Narrow(dim, at, t.shape[dim]), t)
			at += t.shape[dim]
		}
	}
	// Each input's gradient is its own stretch of the result's.
	return record(out, "CatBackward0", ts, nil, func(g *Tensor, _ []*Tensor) []*Tensor {
		grads := make([]*Tensor, len(ts))
		for i, t := range ts {
			if slices.Contains(parts, t) {
				grads[i] = g.Narrow(dim, starts[i], t.shape[dim])
			} else {
				grads[i] = newTensor(g.DType(), t.shape)
			}
		}
		return grads
	})
}

// Copy: Stack joins tensors of one shape along a new dimension dim into a
// new tensor, like torch.stack: Stack(ts, 0).Select(0, i) equals ts[i].
func Stack(ts []*Tensor, dim int) *Tensor {
	if len(ts) == 0 {
		fail("stack", "stack expects a non-empty TensorList")
	}
	for _, t := range ts {
		mustArg("Stack", t)
	}
	dim = wrapDim("stack", dim, ts[0].Dim()+1)
	parts := make([]*Tensor, len(ts))
	for i, t := range ts {
		if !slices.Equal(t.shape, ts[0].shape) {
			fail("stack", "stack expects each tensor to be equal size, but got %s at entry 0 and %s at entry %d", listString(ts[0].shape), listString(t.shape), i)
		}
		parts[i] = t.Unsqueeze(dim)
	}
	return renamed("StackBackward0", []*Tensor{Cat(parts, dim)})[0]
}
