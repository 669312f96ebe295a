package tensor

import "slices"

// A Tensor is a strided view of a Storage: the element at index
// (i₀, i₁, …) lives in storage slot offset + Σ iₖ·strides[k].
//
// Every operation that only changes shape, strides or offset returns a
// Tensor over the same Storage (a view); operations that must move data
// return a Tensor over a new Storage (a copy). A Tensor's shape, strides and
// offset never change after it is made; writes change the storage.
type Tensor struct {
	storage *Storage
	shape   []int
	strides []int
	offset  int
	// base is the tensor this one is a view of (PyTorch's ._base): the
	// tensor that made the storage, or the Detach that views were taken
	// from; nil for such a tensor itself.
	base *Tensor
	// ag is the tensor's part in autograd's graph, nil if it takes none.
	ag *autograd
}

// must refuses a nil or zero *Tensor with an error that says so, rather
// than letting the method fail with a nil dereference.
func (x *Tensor) must(method string) {
	if x == nil || x.storage == nil {
		failType(method, "%s called on a nil or zero *Tensor; make tensors with tensor.New, Arange, Zeros and the like", method)
	}
}

// mustArg refuses a nil or zero *Tensor passed as an argument.
func mustArg(method string, t *Tensor) {
	if t == nil || t.storage == nil {
		failType(method, "%s called with a nil or zero *Tensor argument", method)
	}
}

// newTensor returns a tensor that owns a fresh contiguous storage.
func newTensor(dt DType, shape []int) *Tensor {
	checkShape("empty", shape)
	return &Tensor{
		storage: newStorage(dt, Shape(shape).Numel()),
		shape:   append([]int{}, shape...),
		strides: contiguousStrides(shape),
	}
}

// newUnfilled returns a tensor that owns a fresh storage laid out with the
// given strides, which must address exactly Numel() slots. The storage is
// not cleared: the caller writes every element before the tensor is seen.
func newUnfilled(dt DType, shape, strides []int) *Tensor {
	checkShape("empty", shape)
	return &Tensor{
		storage: newUnfilledStorage(dt, Shape(shape).Numel()),
		shape:   append([]int{}, shape...),
		strides: append([]int{}, strides...),
	}
}

// view returns a tensor over x's storage with new geometry, remembering the
// tensor that owns the storage as its base.
func (x *Tensor) view(shape, strides []int, offset int) *Tensor {
	base := x.base
	if base == nil {
		base = x
	}
	return &Tensor{storage: x.storage, shape: shape, strides: strides, offset: offset, base: base}
}

// DType returns the element type.
func (x *Tensor) DType() DType {
	x.must("DType")
	return x.storage.dtype
}

// Shape returns the size of each dimension.
func (x *Tensor) Shape() Shape {
	x.must("Shape")
	return append(Shape{}, x.shape...)
}

// Size returns the size of dimension dim; negative dims count from the end.
func (x *Tensor) Size(dim int) int {
	x.must("Size")
	return x.shape[x.dimIndex("size", dim)]
}

// Strides returns the strides in elements, as PyTorch's stride() does.
func (x *Tensor) Strides() Strides {
	x.must("Strides")
	return append(Strides{}, x.strides...)
}

// Stride returns the stride of dimension dim in elements.
func (x *Tensor) Stride(dim int) int {
	x.must("Stride")
	return x.strides[x.dimIndex("stride", dim)]
}

// dimIndex wraps dim for reading a per-dimension value, which a 0-d tensor
// does not have.
func (x *Tensor) dimIndex(op string, dim int) int {
	if x.Dim() == 0 {
		failIndex(op, "Dimension specified as %d but tensor has no dimensions", dim)
	}
	return wrapDim(op, dim, x.Dim())
}

// ByteStrides returns the strides in bytes, as NumPy's ndarray.strides does.
func (x *Tensor) ByteStrides() Strides {
	x.must("ByteStrides")
	s := x.Strides()
	for i := range s {
		s[i] *= x.ElementSize()
	}
	return s
}

// StorageOffset returns the storage slot of the first element, in elements.
func (x *Tensor) StorageOffset() int {
	x.must("StorageOffset")
	return x.offset
}

// Dim returns the number of dimensions.
func (x *Tensor) Dim() int {
	x.must("Dim")
	return len(x.shape)
}

// Numel returns the number of elements.
func (x *Tensor) Numel() int {
	x.must("Numel")
	return Shape(x.shape).Numel()
}

// ElementSize returns the size of one element in bytes.
func (x *Tensor) ElementSize() int {
	x.must("ElementSize")
	return x.storage.dtype.ItemSize()
}

// Device returns where the tensor's memory lives: always "cpu".
func (x *Tensor) Device() string {
	x.must("Device")
	return "cpu"
}

// Storage returns the storage the tensor reads.
func (x *Tensor) Storage() *Storage {
	x.must("Storage")
	return x.storage
}

// DataPtr returns the address of the tensor's first element (PyTorch's
// data_ptr()): the storage base plus the offset in bytes. Two views of one
// storage can have different DataPtrs; compare Storage() or use
// SharesStorage to ask whether they alias.
func (x *Tensor) DataPtr() uintptr {
	x.must("DataPtr")
	if x.storage.n == 0 {
		return 0
	}
	return x.storage.DataPtr() + uintptr(x.offset*x.ElementSize())
}

// Base returns the tensor whose storage this view reads (PyTorch's ._base),
// or nil if x is not a view.
func (x *Tensor) Base() *Tensor {
	x.must("Base")
	return x.base
}

// IsView reports whether x is a view of another tensor.
func (x *Tensor) IsView() bool {
	x.must("IsView")
	return x.base != nil
}

// IsContiguous reports whether the elements lie in row-major order with no
// gaps, by PyTorch's rule: dimensions of size 1 are ignored, and a tensor
// with no elements is contiguous.
func (x *Tensor) IsContiguous() bool {
	x.must("IsContiguous")
	if x.Numel() == 0 {
		return true
	}
	dims := identity(x.Dim())
	slices.Reverse(dims)
	return x.packedInOrder(dims)
}

// packedInOrder reports whether the dimensions, taken in the given order
// from the fastest-moving to the slowest, each step over exactly the
// elements of the ones before them: then every storage slot in the
// tensor's span is read once. Dimensions of size 1 are skipped, since their
// stride never takes effect.
func (x *Tensor) packedInOrder(dims []int) bool {
	expected := 1
	for _, d := range dims {
		if x.shape[d] == 1 {
			continue
		}
		if x.strides[d] != expected {
			return false
		}
		expected *= x.shape[d]
	}
	return true
}

// isNonOverlappingAndDense reports whether some permutation of the
// dimensions makes the tensor contiguous: every storage slot in its span is
// read exactly once.
func (x *Tensor) isNonOverlappingAndDense() bool {
	if x.IsContiguous() {
		return true
	}
	// Try the order of increasing strides, as PyTorch's check does.
	dims := identity(x.Dim())
	slices.SortStableFunc(dims, func(a, b int) int { return x.strides[a] - x.strides[b] })
	return x.packedInOrder(dims)
}

// span returns the lowest and one past the highest storage slot x reads.
// For a tensor with no elements both are x.offset.
func (x *Tensor) span() (lo, hi int) {
	lo, hi = x.offset, x.offset
	if x.Numel() == 0 {
		return lo, hi
	}
	hi++
	for i, size := range x.shape {
		step := x.strides[i] * (size - 1)
		if step < 0 {
			lo += step
		} else {
			hi += step
		}
	}
	return lo, hi
}
