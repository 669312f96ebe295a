package tensor

import "unsafe"

// View: Chunk splits x into at most chunks views of equal size along dim
// (the last may be smaller), like PyTorch's chunk.
func (x *Tensor) Chunk(chunks, dim int) []*Tensor {
	x.must("Chunk")
	if x.Dim() == 0 {
		fail("chunk", "chunk expects at least a 1-dimensional tensor")
	}
	if chunks <= 0 {
		fail("chunk", "chunk expects `chunks` to be greater than 0, got: %d", chunks)
	}
	dim = wrapDim("chunk", dim, x.Dim())
	size := x.shape[dim]
	if size == 0 {
		// Every chunk of an empty dimension is empty; PyTorch returns them all.
		if chunks > maxSections {
			fail("chunk", "chunk expects at most %d chunks of an empty dimension, got: %d", maxSections, chunks)
		}
		return x.SplitSizes(make([]int, chunks), dim)
	}
	return x.Split((size-1)/chunks+1, dim)
}

// View: Split splits x into views of size elements along dim (the last may
// be smaller), like torch.split with an integer size.
func (x *Tensor) Split(size, dim int) []*Tensor {
	x.must("Split")
	if x.Dim() == 0 {
		fail("split", "split expects at least a 1-dimensional tensor")
	}
	if size < 0 {
		fail("split", "split expects split_size be non-negative, but got split_size=%d", size)
	}
	dim = wrapDim("split", dim, x.Dim())
	length := x.shape[dim]
	if size == 0 && length != 0 {
		fail("split", "split_size can only be 0 if dimension size is 0, but got dimension size of %d", length)
	}
	if size == 0 {
		return multipleViews("SplitBackward0", []*Tensor{x.Narrow(dim, 0, 0)})
	}
	pieces := max((length-1)/size+1, 1)
	checkAllocation("split", pieces, viewBytes)
	out := make([]*Tensor, 0, pieces)
	for start := 0; start < length || len(out) == 0; start += size {
		out = append(out, x.Narrow(dim, start, min(size, length-start)))
	}
	return multipleViews("SplitBackward0", out)
}

// View: SplitSizes splits x along dim into views of the given sizes, which
// must add up to the size of dim, like torch.split with a list of sizes.
func (x *Tensor) SplitSizes(sizes []int, dim int) []*Tensor {
	x.must("SplitSizes")
	if x.Dim() == 0 {
		fail("split_with_sizes", "split expects at least a 1-dimensional tensor")
	}
	given := dim
	dim = wrapDim("split_with_sizes", dim, x.Dim())
	total := 0
	for _, s := range sizes {
		if s < 0 {
			fail("split_with_sizes", "split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=%s", listString(sizes))
		}
		total += s
	}
	if total != x.shape[dim] {
		fail("split_with_sizes", "split_with_sizes expects split_sizes to sum exactly to %d (input tensor's size at dimension %d), but got split_sizes=%s", x.shape[dim], given, listString(sizes))
	}
	out := make([]*Tensor, len(sizes))
	start := 0
	for i, s := range sizes {
		out[i] = x.Narrow(dim, start, s)
		start += s
	}
	return multipleViews("SplitWithSizesBackward0", out)
}

// viewBytes is the memory one view in a list of them takes: the tensor
// and its pointer.
const viewBytes = int(unsafe.Sizeof(Tensor{})) + 8

// maxSections bounds the pieces TensorSplit and Chunk return when they may
// return more pieces than elements: each is a tensor, and a mistyped count
// must not exhaust memory.
const maxSections = 1 << 24

// View: TensorSplit splits x along dim into exactly sections views whose
// sizes differ by at most one, the larger ones first, like
// torch.tensor_split and np.array_split.
func (x *Tensor) TensorSplit(sections, dim int) []*Tensor {
	x.must("TensorSplit")
	if x.Dim() == 0 {
		fail("tensor_split", "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims")
	}
	if sections <= 0 {
		fail("tensor_split", "number of sections must be larger than 0, got %d", sections)
	}
	if sections > maxSections {
		fail("tensor_split", "number of sections must be at most %d, got %d", maxSections, sections)
	}
	dim = wrapDim("tensor_split", dim, x.Dim())
	size := x.shape[dim]
	base, extra := size/sections, size%sections
	out := make([]*Tensor, sections)
	start := 0
	for i := range out {
		length := base
		if i < extra {
			length++
		}
		out[i] = x.Slice(dim, start, start+length, 1)
		start += length
	}
	return out
}

// View: TensorSplitAt splits x along dim before each of the given indices,
// like torch.tensor_split with a list of indices: x[:i₀], x[i₀:i₁], …,
// x[iₙ:]. Indices follow Python's slice rules.
func (x *Tensor) TensorSplitAt(indices []int, dim int) []*Tensor {
	x.must("TensorSplitAt")
	if x.Dim() == 0 {
		fail("tensor_split", "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims")
	}
	dim = wrapDim("tensor_split", dim, x.Dim())
	out := make([]*Tensor, 0, len(indices)+1)
	start := 0
	for _, i := range indices {
		out = append(out, x.Slice(dim, start, i, 1))
		start = i
	}
	return append(out, x.Slice(dim, start, End, 1))
}

// View: Unbind returns the views x.Select(dim, i) for every i, like
// PyTorch's unbind.
func (x *Tensor) Unbind(dim int) []*Tensor {
	x.must("Unbind")
	if x.Dim() == 0 {
		failIndex("unbind", "Dimension specified as %d but tensor has no dimensions", dim)
	}
	dim = wrapDim("unbind", dim, x.Dim())
	checkAllocation("unbind", x.shape[dim], viewBytes)
	out := make([]*Tensor, x.shape[dim])
	for i := range out {
		out[i] = x.Select(dim, i)
	}
	return multipleViews("UnbindBackward0", out)
}
