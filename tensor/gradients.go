package tensor

import "slices"

// The helpers here build the backward functions of operations.

// sumTo sums g over the dimensions along which a tensor of shape was
// broadcast to g's shape: the leading dimensions it lacks, and those where
// it has size 1. It is the gradient of an expand.
func sumTo(g *Tensor, shape []int) *Tensor {
	if slices.Equal(g.shape, shape) {
		return g
	}
	lead := g.Dim() - len(shape)
	var dims []int
	for d := range g.Dim() {
		if d < lead || (shape[d-lead] == 1 && g.shape[d] != 1) {
			dims = append(dims, d)
		}
	}
	if len(dims) > 0 {
		g = g.SumKeepDim(dims...)
	}
	return g.Reshape(shape...)
}

// intoZeros returns the gradient of a view of a tensor of the given shape
// by replaying the view on zeros of that shape: the slots the view reads
// receive g, summed where the view reads a slot more than once
// (overlapping windows of Unfold).
func intoZeros(shape []int, g *Tensor, view func(*Tensor) *Tensor) *Tensor {
	z := newTensor(g.DType(), shape)
	addInto(view(z), g)
	return z
}

// intoZerosRule is the backward function of a view of x that replays it on
// zeros: slices, selects, diagonals, windows.
func intoZerosRule(x *Tensor, view func(*Tensor) *Tensor) backwardFunc {
	shape := x.Shape()
	return func(g *Tensor, _ []*Tensor) []*Tensor { return []*Tensor{intoZeros(shape, g, view)} }
}

// addInto adds g's elements into the slots v reads, one by one, so that a
// slot read at several positions receives the sum.
func addInto(v, g *Tensor) {
	values := g.Float64s()
	i := 0
	v.visit(func(off int) {
		v.storage.store(off, v.storage.load(off)+values[i])
		i++
	})
}

// geometryRule is the backward function of a tensor `to` that reads the
// storage of `from` with its own shape, strides and offset: g is added
// into zeros laid out as the storage, and from's gradient read back, each
// slot divided among the positions of `from` that share it. It serves
// AsStrided and views whose node is remade after an in-place write.
func geometryRule(from, to *Tensor) backwardFunc {
	n := from.storage.n
	src := &Tensor{shape: from.Shape(), strides: from.Strides(), offset: from.offset}
	dst := &Tensor{shape: to.Shape(), strides: to.Strides(), offset: to.offset}
	return func(g *Tensor, _ []*Tensor) []*Tensor {
		s := newStorage(g.DType(), n)
		addInto(&Tensor{storage: s, shape: dst.shape, strides: dst.strides, offset: dst.offset}, g)
		read := &Tensor{storage: s, shape: src.shape, strides: src.strides, offset: src.offset}
		uses := make(map[int]int)
		read.visit(func(off int) { uses[off]++ })
		out := newTensor(g.DType(), src.shape)
		i := 0
		read.visit(func(off int) {
			out.storage.store(i, s.load(off)/float64(uses[off]))
			i++
		})
		return []*Tensor{out}
	}
}

// reshapeRule is the backward function of an operation that only
// reshapes x (view, squeeze, unsqueeze, flatten): the gradient is g
// reshaped back.
func reshapeRule(x *Tensor) backwardFunc {
	shape := x.Shape()
	return func(g *Tensor, _ []*Tensor) []*Tensor { return []*Tensor{g.Reshape(shape...)} }
}

// identityRule is the backward function of a copy or an alias: the
// gradient passes unchanged.
func identityRule(g *Tensor, _ []*Tensor) []*Tensor { return []*Tensor{g} }

// unreduce expands the gradient of a reduction of x over dims (all of
// them if none; keepDim as the reduction had it) back to x's shape.
func unreduce(g *Tensor, shape []int, dims []int, keepDim bool) *Tensor {
	if !keepDim && len(dims) > 0 && len(shape) > 0 { // a 0-d tensor's dims 0 and -1 are itself
		reduced := make([]bool, len(shape))
		for _, d := range dims {
			reduced[wrapDim("sum", d, len(shape))] = true
		}
		for d, r := range reduced {
			if r {
				g = g.Unsqueeze(d)
			}
		}
	}
	return g.Expand(shape...)
}
