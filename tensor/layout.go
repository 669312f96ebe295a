package tensor

import "slices"

// This file decides the strides of tensors that operations create, as
// PyTorch does: a result keeps the memory order of its inputs, so that
// x.T + 1 is laid out like x.T and a clone of a transpose is a transpose.

// stridePermutation orders the dimensions from the fastest-moving in memory
// to the slowest, judging by each operand's strides in turn, as PyTorch's
// TensorIterator and infer_dense_strides do: an operand with stride 0 in
// either dimension has no opinion, and equal strides put the smaller size
// first. Without any opinion the order is the row-major one.
func stridePermutation(shape []int, operands ...[]int) []int {
	n := len(shape)
	perm := make([]int, n)
	for i := range perm {
		perm[i] = n - 1 - i
	}
	order := func(d0, d1 int) int {
		for _, strides := range operands {
			s0, s1 := strides[d0], strides[d1]
			switch {
			case s0 == 0 || s1 == 0:
				continue
			case s0 < s1:
				return -1
			case s0 > s1:
				return 1
			case shape[d0] > shape[d1]:
				return 1
			}
		}
		return 0
	}
	// Insertion sort that stops at the first "keep" answer and steps over
	// the dimensions it cannot compare.
	for i := 1; i < n; i++ {
		d1 := i
		for d0 := i - 1; d0 >= 0; d0-- {
			c := order(perm[d0], perm[d1])
			if c > 0 {
				perm[d0], perm[d1] = perm[d1], perm[d0]
				d1 = d0
			} else if c < 0 {
				break
			}
		}
	}
	return perm
}

// denseStridesLike returns strides that lay out a tensor of x's shape
// densely in x's memory order, as PyTorch's empty_like does for clone and
// to: x's own strides if it is already dense, otherwise ones computed from
// the permutation, with dimensions of size 0 and 1 not widening the stride.
func denseStridesLike(x *Tensor) []int {
	if x.isNonOverlappingAndDense() {
		return x.Strides()
	}
	strides := make([]int, x.Dim())
	step := 1
	for _, d := range stridePermutation(x.shape, x.strides) {
		strides[d] = step
		if x.shape[d] > 1 {
			step *= x.shape[d]
		}
	}
	return strides
}

// elementwiseStrides returns the strides of the result of an elementwise
// operation of the given shape on inputs (before broadcasting), as PyTorch's
// TensorIterator allocates it. Inputs of one shape that are all contiguous,
// all channels-last, or all dense with the same strides give that layout;
// otherwise the result follows the memory order of the broadcast inputs,
// the first input deciding first.
func elementwiseStrides(shape []int, inputs ...*Tensor) []int {
	sameShape := true
	for _, in := range inputs {
		sameShape = sameShape && slices.Equal(in.shape, inputs[0].shape)
	}
	if sameShape {
		if strides, ok := fastLayout(inputs); ok {
			return strides
		}
	}
	operands := make([][]int, len(inputs))
	for i, in := range inputs {
		operands[i] = in.Expand(shape...).strides
	}
	perm := stridePermutation(shape, operands...)
	rowMajor := true
	for i, d := range perm {
		rowMajor = rowMajor && d == len(perm)-1-i
	}
	if rowMajor {
		return contiguousStrides(shape)
	}
	strides := make([]int, len(shape))
	step := 1
	for _, d := range perm {
		strides[d] = step
		step *= shape[d]
	}
	return strides
}

// fastLayout is TensorIterator's shortcut for inputs of one shape.
func fastLayout(inputs []*Tensor) ([]int, bool) {
	contiguous, channelsLast, dense := true, true, true
	for _, in := range inputs {
		contiguous = contiguous && in.IsContiguous()
		channelsLast = channelsLast && in.isChannelsLast()
		dense = dense && in.isNonOverlappingAndDense()
	}
	shape := inputs[0].shape
	switch {
	case contiguous:
		return contiguousStrides(shape), true
	case channelsLast:
		return channelsLastStrides(shape), true
	case dense:
		for _, in := range inputs[1:] {
			if !slices.Equal(in.strides, inputs[0].strides) {
				return nil, false
			}
		}
		return inputs[0].Strides(), true
	}
	return nil, false
}

// isChannelsLast reports whether a 4-D tensor (N, C, H, W) is laid out as
// (N, H, W, C) in memory, PyTorch's channels_last format.
func (x *Tensor) isChannelsLast() bool {
	return x.Dim() == 4 && x.packedInOrder([]int{1, 3, 2, 0})
}

// channelsLastStrides returns the channels-last strides of a 4-D shape.
func channelsLastStrides(shape []int) []int {
	strides := make([]int, 4)
	strides[1] = 1
	strides[3] = shape[1]
	strides[2] = strides[3] * shape[3]
	strides[0] = strides[2] * shape[2]
	return strides
}

// memoryOrder returns the dimensions sorted from the largest stride to the
// smallest (stable), the order in which a loop walks memory forward.
func memoryOrder(strides []int) []int {
	perm := identity(len(strides))
	slices.SortStableFunc(perm, func(a, b int) int { return strides[b] - strides[a] })
	return perm
}

// permuted returns xs reordered by perm.
func permuted(perm, xs []int) []int {
	out := make([]int, len(perm))
	for i, d := range perm {
		out[i] = xs[d]
	}
	return out
}
