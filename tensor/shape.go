package tensor

import (
	"math"
	"strconv"
)

// Shape is the size of each dimension of a tensor. It prints as a Python
// tuple, the way PyTorch and NumPy users read it: (2, 3, 4), (4,), ().
type Shape []int

// Strides are the steps through storage for one step along each dimension,
// in elements (or in bytes, from ByteStrides). They print as a Python tuple.
type Strides []int

// String formats the shape as a Python tuple.
func (s Shape) String() string { return tupleString(s) }

// String formats the strides as a Python tuple.
func (s Strides) String() string { return tupleString(s) }

// Numel returns the number of elements a tensor of this shape holds.
func (s Shape) Numel() int {
	n := 1
	for _, d := range s {
		n *= d
	}
	return n
}

// tupleString formats ints as a Python tuple, with the trailing comma of
// a 1-tuple.
func tupleString(xs []int) string {
	if len(xs) == 1 {
		return "(" + strconv.Itoa(xs[0]) + ",)"
	}
	return "(" + joinInts(xs) + ")"
}

// contiguousStrides returns the row-major strides of shape. Like PyTorch, a
// dimension of size 0 or 1 does not shrink the strides before it to 0.
func contiguousStrides(shape []int) []int {
	strides := make([]int, len(shape))
	step := 1
	for i := len(shape) - 1; i >= 0; i-- {
		strides[i] = step
		step *= max(shape[i], 1)
	}
	return strides
}

// wrapDim turns a possibly negative dimension into one in [0, ndim), with
// PyTorch's error when it is out of range. A 0-d tensor accepts dims 0 and
// -1, as PyTorch does.
func wrapDim(op string, dim, ndim int) int {
	n := max(ndim, 1)
	if dim < -n || dim >= n {
		failIndex(op, "Dimension out of range (expected to be in range of [%d, %d], but got %d)", -n, n-1, dim)
	}
	if dim < 0 {
		dim += n
	}
	return dim
}

// maxElements bounds the elements of one storage: 2⁴⁰ (a terabyte of
// bytes), far beyond any machine here, and well below sizes at which Go's
// allocator would fail with a runtime error instead of a clear message.
const maxElements = 1 << 40

// checkShape rejects negative sizes and shapes whose element count would
// not fit in an int.
func checkShape(op string, shape []int) {
	n := 1
	for _, d := range shape {
		if d < 0 {
			fail(op, "Trying to create tensor with negative dimension %d: %s", d, listString(shape))
		}
		if d != 0 && n > math.MaxInt/d {
			fail(op, "shape %s is too large", listString(shape))
		}
		n *= d
	}
}

// inferSize resolves a single -1 in shape against numel, as PyTorch's
// infer_size does.
func inferSize(op string, shape []int, numel int) []int {
	out := append([]int(nil), shape...)
	infer := -1
	known := 1
	for i, d := range shape {
		switch {
		case d == -1:
			if infer >= 0 {
				fail(op, "only one dimension can be inferred")
			}
			infer = i
		case d < 0:
			fail(op, "invalid shape dimension %d", d)
		default:
			if d != 0 && known > math.MaxInt/d {
				fail(op, "shape '%s' is invalid for input of size %d", listString(shape), numel)
			}
			known *= d
		}
	}
	if infer >= 0 {
		if known == 0 {
			if numel != 0 {
				fail(op, "shape '%s' is invalid for input of size %d", listString(shape), numel)
			}
			fail(op, "cannot reshape tensor of 0 elements into shape %s because the unspecified dimension size -1 can be any value and is ambiguous", listString(shape))
		}
		if numel%known != 0 {
			fail(op, "shape '%s' is invalid for input of size %d", listString(shape), numel)
		}
		out[infer] = numel / known
		return out
	}
	if known != numel {
		fail(op, "shape '%s' is invalid for input of size %d", listString(shape), numel)
	}
	return out
}
