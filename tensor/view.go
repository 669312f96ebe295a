package tensor

import (
	"math"
	"slices"
)

// End stands for "to the end of the dimension" as the stop of Slice,
// like an omitted stop in Python's x[start:].
const End = math.MaxInt

// View: View returns a tensor with the given shape over the same storage,
// like PyTorch's view. One size may be -1 and is inferred. View never
// copies: if the strides cannot express the new shape it panics with
// PyTorch's error, and Reshape is the call that would copy instead.
func (x *Tensor) View(shape ...int) *Tensor {
	x.must("View")
	shape = inferSize("view", shape, x.Numel())
	strides, ok := viewStrides(x.shape, x.strides, shape)
	if !ok {
		fail("view", "view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.")
	}
	return record(x.view(shape, strides, x.offset), "ViewBackward0", []*Tensor{x}, nil, reshapeRule(x))
}

// CanView reports whether View(shape...) would succeed, that is whether
// Reshape(shape...) returns a view rather than a copy.
func (x *Tensor) CanView(shape ...int) (ok bool) {
	x.must("CanView")
	defer func() {
		if r := recover(); r != nil {
			if _, isErr := r.(*Error); !isErr {
				panic(r)
			}
			ok = false
		}
	}()
	shape = inferSize("view", shape, x.Numel())
	_, ok = viewStrides(x.shape, x.strides, shape)
	return ok
}

// viewStrides finds strides that read the elements of a tensor with the
// given shape and strides in the same order under newShape, as PyTorch's
// computeStride does. The old dimensions are grouped into runs that are
// contiguous with each other ("chunks"); every new dimension must fall
// inside one chunk.
func viewStrides(shape, strides, newShape []int) ([]int, bool) {
	out := make([]int, len(newShape))
	if len(shape) == 0 {
		for i := range out {
			out[i] = 1
		}
		return out, true
	}
	numel := Shape(shape).Numel()
	if numel == 0 {
		if slices.Equal(shape, newShape) {
			return append([]int{}, strides...), true
		}
		return contiguousStrides(newShape), true
	}
	v := len(newShape) - 1
	chunkStride := strides[len(strides)-1]
	chunkNumel, viewNumel := 1, 1
	for d := len(shape) - 1; d >= 0; d-- {
		chunkNumel *= shape[d]
		endOfChunk := d == 0 || (shape[d-1] != 1 && strides[d-1] != chunkNumel*chunkStride)
		if !endOfChunk {
			continue
		}
		for v >= 0 && (viewNumel < chunkNumel || newShape[v] == 1) {
			out[v] = viewNumel * chunkStride
			viewNumel *= newShape[v]
			v--
		}
		if viewNumel != chunkNumel {
			return nil, false
		}
		if d > 0 {
			chunkStride = strides[d-1]
			chunkNumel, viewNumel = 1, 1
		}
	}
	return out, v == -1
}

// View: Transpose returns a view with dimensions d0 and d1 swapped: their
// sizes and their strides trade places, and no element moves.
func (x *Tensor) Transpose(d0, d1 int) *Tensor {
	x.must("Transpose")
	d0 = wrapDim("transpose", d0, x.Dim())
	d1 = wrapDim("transpose", d1, x.Dim())
	shape, strides := x.Shape(), x.Strides()
	if len(shape) > 0 {
		shape[d0], shape[d1] = shape[d1], shape[d0]
		strides[d0], strides[d1] = strides[d1], strides[d0]
	}
	// The gradient of a transpose is the transpose of the gradient.
	return record(x.view(shape, strides, x.offset), "TransposeBackward0", []*Tensor{x}, nil,
		func(g *Tensor, _ []*Tensor) []*Tensor { return []*Tensor{g.Transpose(d0, d1)} })
}

// View: Permute returns a view whose dimension i is x's dimension dims[i].
func (x *Tensor) Permute(dims ...int) *Tensor {
	x.must("Permute")
	if len(dims) != x.Dim() {
		fail("permute", "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired ordering of dimensions i.e. input.dim() = %d is not equal to len(dims) = %d", x.Dim(), len(dims))
	}
	seen := make([]bool, x.Dim())
	shape, strides, inverse := make([]int, len(dims)), make([]int, len(dims)), make([]int, len(dims))
	for i, d := range dims {
		d = wrapDim("permute", d, x.Dim())
		if seen[d] {
			fail("permute", "permute(): duplicate dims are not allowed.")
		}
		seen[d] = true
		shape[i], strides[i] = x.shape[d], x.strides[d]
		inverse[d] = i
	}
	return record(x.view(shape, strides, x.offset), "PermuteBackward0", []*Tensor{x}, nil,
		func(g *Tensor, _ []*Tensor) []*Tensor { return []*Tensor{g.Permute(inverse...)} })
}

// View: T returns a view of a matrix with its rows and columns swapped,
// like PyTorch's t(); a tensor of 0 or 1 dimension comes back as a view of
// itself. More than two dimensions are refused, as by PyTorch: use
// ReverseDims for NumPy's .T (every dimension reversed), MT to transpose
// each matrix of a batch, or Permute.
func (x *Tensor) T() *Tensor {
	x.must("T")
	if x.Dim() > 2 {
		fail("t", "t() expects a tensor with <= 2 dimensions, but self is %dD", x.Dim())
	}
	return record(x.view(reversed(x.shape), reversed(x.strides), x.offset), "TBackward0", []*Tensor{x}, nil,
		func(g *Tensor, _ []*Tensor) []*Tensor { return []*Tensor{g.T()} })
}

// View: ReverseDims returns a view with the dimensions in reverse order:
// NumPy's x.T and x.transpose(), PyTorch's
// x.permute(*reversed(range(x.dim()))). For a matrix it is T.
func (x *Tensor) ReverseDims() *Tensor {
	x.must("ReverseDims")
	dims := make([]int, x.Dim())
	for i := range dims {
		dims[i] = x.Dim() - 1 - i
	}
	return x.Permute(dims...)
}

// reversed returns a copy of xs in reverse order.
func reversed(xs []int) []int {
	out := slices.Clone(xs)
	slices.Reverse(out)
	return out
}

// View: MT returns a view with the last two dimensions swapped, like
// PyTorch's .mT: the transpose of each matrix in a batch.
func (x *Tensor) MT() *Tensor {
	x.must("MT")
	if x.Dim() == 0 { // PyTorch lets a 0-d tensor be its own transpose
		return x.alias()
	}
	if x.Dim() < 2 {
		fail("mT", "tensor.mT is only supported on matrices or batches of matrices. Got %d-D tensor.", x.Dim())
	}
	return x.Transpose(-2, -1)
}

// View: MoveDim returns a view with dimension src moved to position dst and
// the other dimensions in their original order, like torch.movedim.
func (x *Tensor) MoveDim(src, dst int) *Tensor {
	x.must("MoveDim")
	src = wrapDim("movedim", src, x.Dim())
	dst = wrapDim("movedim", dst, x.Dim())
	if x.Dim() == 0 {
		return x.alias()
	}
	order := make([]int, 0, x.Dim())
	for d := range x.Dim() {
		if d != src {
			order = append(order, d)
		}
	}
	order = slices.Insert(order, dst, src)
	return x.Permute(order...)
}

// View: Squeeze returns a view without the given dimensions of size 1, or
// without all dimensions of size 1 if none are given. A listed dimension
// whose size is not 1 is kept, as in PyTorch.
func (x *Tensor) Squeeze(dims ...int) *Tensor {
	x.must("Squeeze")
	drop := make([]bool, x.Dim())
	seen := make([]bool, max(x.Dim(), 1))
	for _, d := range dims {
		d = wrapDim("squeeze", d, x.Dim())
		if seen[d] {
			fail("squeeze", "dim %d appears multiple times in the list of dims", d)
		}
		seen[d] = true
		if x.Dim() > 0 {
			drop[d] = x.shape[d] == 1
		}
	}
	if len(dims) == 0 {
		for d, size := range x.shape {
			drop[d] = size == 1
		}
	}
	var shape, strides []int
	for d := range x.shape {
		if !drop[d] {
			shape = append(shape, x.shape[d])
			strides = append(strides, x.strides[d])
		}
	}
	// PyTorch names the node by the form of squeeze called.
	name := [...]string{"SqueezeBackward0", "SqueezeBackward1", "SqueezeBackward2"}[min(len(dims), 2)]
	return record(x.view(shape, strides, x.offset), name, []*Tensor{x}, nil, reshapeRule(x))
}

// View: Unsqueeze returns a view with a new dimension of size 1 inserted at
// dim; dim may be from -(Dim()+1) to Dim().
func (x *Tensor) Unsqueeze(dim int) *Tensor {
	x.must("Unsqueeze")
	dim = wrapDim("unsqueeze", dim, x.Dim()+1)
	stride := 1
	if dim < x.Dim() {
		stride = x.shape[dim] * x.strides[dim]
	}
	shape := slices.Insert(x.Shape(), dim, 1)
	strides := slices.Insert(x.Strides(), dim, stride)
	return record(x.view(shape, strides, x.offset), "UnsqueezeBackward0", []*Tensor{x}, nil, reshapeRule(x))
}

// View: Narrow returns a view of length elements of dimension dim starting
// at start, like torch.narrow. A negative start counts from the end.
func (x *Tensor) Narrow(dim, start, length int) *Tensor {
	x.must("Narrow")
	if x.Dim() == 0 {
		fail("narrow", "narrow() cannot be applied to a 0-dim tensor.")
	}
	dim = wrapDim("narrow", dim, x.Dim())
	size := x.shape[dim]
	if start != size { // start may be the end, but otherwise must be an index
		start = wrapDim("narrow", start, size)
	}
	if length < 0 || start > size-length {
		fail("narrow", "start (%d) + length (%d) exceeds dimension size (%d).", start, length, size)
	}
	return x.Slice(dim, start, start+length, 1)
}

// View: Slice returns the view x[..., start:stop:step, ...] of dimension
// dim, with Python's rules: negative start and stop count from the end,
// both are clamped to the dimension, and End stands for an omitted stop. A
// step below 1 is an error, as in PyTorch.
//
//	a.Slice(1, 1, tensor.End, 2) // a[:, 1::2]
func (x *Tensor) Slice(dim, start, stop, step int) *Tensor {
	x.must("Slice")
	if x.Dim() == 0 {
		failIndex("slice", "slice() cannot be applied to a 0-dim tensor.")
	}
	dim = wrapDim("slice", dim, x.Dim())
	if step <= 0 {
		failValue("slice", "step must be greater than zero")
	}
	size := x.shape[dim]
	start, stop = clampSliceBound(start, size), clampSliceBound(stop, size)
	stop = max(stop, start)
	shape, strides := x.Shape(), x.Strides()
	shape[dim] = 0
	if stop > start {
		shape[dim] = (stop-start-1)/step + 1
	}
	strides[dim] *= step
	// The gradient of a slice is the slice's gradient placed into zeros.
	return record(x.view(shape, strides, x.offset+start*x.strides[dim]), "SliceBackward0", []*Tensor{x}, nil,
		intoZerosRule(x, func(z *Tensor) *Tensor { return z.Slice(dim, start, stop, step) }))
}

func clampSliceBound(i, size int) int {
	if i < 0 {
		i = max(i+size, 0)
	}
	return min(i, size)
}

// View: Select returns the view x[..., index, ...] of dimension dim, with
// that dimension removed. A negative index counts from the end.
func (x *Tensor) Select(dim, index int) *Tensor {
	x.must("Select")
	if x.Dim() == 0 {
		failIndex("select", "select() cannot be applied to a 0-dim tensor.")
	}
	dim = wrapDim("select", dim, x.Dim())
	size := x.shape[dim]
	if index < -size || index >= size {
		failIndex("select", "select(): index %d out of range for tensor of size %s at dimension %d", index, listString(x.shape), dim)
	}
	if index < 0 {
		index += size
	}
	out := x.view(slices.Delete(x.Shape(), dim, dim+1), slices.Delete(x.Strides(), dim, dim+1), x.offset+index*x.strides[dim])
	return record(out, "SelectBackward0", []*Tensor{x}, nil,
		intoZerosRule(x, func(z *Tensor) *Tensor { return z.Select(dim, index) }))
}

// View: Unfold returns a view of every window of length size along dim,
// taken every step elements, like PyTorch's unfold: dim becomes the window
// count and a new last dimension walks each window.
func (x *Tensor) Unfold(dim, size, step int) *Tensor {
	x.must("Unfold")
	dim = wrapDim("unfold", dim, x.Dim())
	length, stride := 1, 1
	if x.Dim() > 0 {
		length, stride = x.shape[dim], x.strides[dim]
	}
	if size > length {
		fail("unfold", "maximum size for tensor at dimension %d is %d but size is %d", dim, length, size)
	}
	if step <= 0 {
		fail("unfold", "step is %d but must be > 0", step)
	}
	shape, strides := append(x.Shape(), size), append(x.Strides(), stride)
	if x.Dim() > 0 {
		shape[dim] = (length-size)/step + 1
		strides[dim] *= step
	}
	if size < 0 {
		// PyTorch has no check of its own: the view it builds fails.
		fail("unfold", "Storage size calculation overflowed with sizes=%s and strides=%s", listString(shape), listString(strides))
	}
	// Overlapping windows read a slot more than once; its gradient is
	// the sum.
	return record(x.view(shape, strides, x.offset), "UnfoldBackward0", []*Tensor{x}, nil,
		intoZerosRule(x, func(z *Tensor) *Tensor { return z.Unfold(dim, size, step) }))
}

// View: Diagonal returns a view of the diagonal of the matrices spanned by
// dims dim1 and dim2, shifted by offset (above the main diagonal when
// positive), like torch.diagonal. The two dims are removed and the diagonal
// becomes the last dimension.
func (x *Tensor) Diagonal(offset, dim1, dim2 int) *Tensor {
	x.must("Diagonal")
	d1 := wrapDim("diagonal", dim1, x.Dim())
	d2 := wrapDim("diagonal", dim2, x.Dim())
	if d1 == d2 {
		fail("diagonal", "diagonal dimensions cannot be identical %d, %d", dim1, dim2)
	}
	var size int
	start := x.offset
	if offset >= 0 {
		size = max(min(x.shape[d1], x.shape[d2]-offset), 0)
		if size > 0 {
			start += offset * x.strides[d2]
		}
	} else {
		size = max(min(x.shape[d1]+offset, x.shape[d2]), 0)
		if size > 0 {
			start -= offset * x.strides[d1]
		}
	}
	var shape, strides []int
	for d := range x.shape {
		if d != d1 && d != d2 {
			shape = append(shape, x.shape[d])
			strides = append(strides, x.strides[d])
		}
	}
	shape = append(shape, size)
	strides = append(strides, x.strides[d1]+x.strides[d2])
	return record(x.view(shape, strides, start), "DiagonalBackward0", []*Tensor{x}, nil,
		intoZerosRule(x, func(z *Tensor) *Tensor { return z.Diagonal(offset, dim1, dim2) }))
}

// View: Expand returns a view in which dimensions of size 1 are stretched
// to the given sizes by giving them stride 0, so that every index along
// them reads the same element; -1 keeps a size. New leading dimensions may
// be added.
func (x *Tensor) Expand(sizes ...int) *Tensor {
	x.must("Expand")
	if len(sizes) < x.Dim() {
		fail("expand", "expand(%s{%s}, size=%s): the number of sizes provided (%d) must be greater or equal to the number of dimensions in the tensor (%d)",
			x.DType().legacyName(), listString(x.shape), listString(sizes), len(sizes), x.Dim())
	}
	shape, strides := make([]int, len(sizes)), make([]int, len(sizes))
	for i := len(sizes) - 1; i >= 0; i-- {
		d := i - (len(sizes) - x.Dim())
		size, stride := 1, 0
		if d >= 0 {
			size, stride = x.shape[d], x.strides[d]
		} else if i+1 < len(sizes) {
			stride = shape[i+1] * strides[i+1]
		}
		target := sizes[i]
		switch {
		case target == -1 && d >= 0:
			target = size
		case target == -1 && x.Dim() > 0:
			fail("expand", "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension %d", i)
		}
		// A 0-d tensor's -1 stays, and fails as a negative size below, as
		// in PyTorch.
		if size != target {
			if size != 1 {
				fail("expand", "The expanded size of the tensor (%d) must match the existing size (%d) at non-singleton dimension %d.  Target sizes: %s.  Tensor sizes: %s",
					target, size, i, listString(sizes), listString(x.shape))
			}
			size, stride = target, 0
		}
		shape[i], strides[i] = size, stride
	}
	if slices.ContainsFunc(shape, func(s int) bool { return s < 0 }) {
		// PyTorch finds a negative size that fits the geometry when it
		// multiplies the sizes, as unsigned numbers.
		fail("expand", "numel: integer multiplication overflow")
	}
	checkShape("expand", shape)
	// Every position along a stretched dimension reads the same element,
	// so that element's gradient is the sum of theirs.
	xShape := x.Shape()
	return record(x.view(shape, strides, x.offset), "ExpandBackward0", []*Tensor{x}, nil,
		func(g *Tensor, _ []*Tensor) []*Tensor { return []*Tensor{sumTo(g, xShape)} })
}

// View: ExpandAs returns x expanded to other's shape.
func (x *Tensor) ExpandAs(other *Tensor) *Tensor {
	x.must("ExpandAs")
	mustArg("ExpandAs", other)
	return x.Expand(other.shape...)
}

// View: BroadcastTo returns x broadcast to shape, like torch.broadcast_to
// and np.broadcast_to: a view with stride 0 along every stretched
// dimension.
func (x *Tensor) BroadcastTo(shape ...int) *Tensor {
	x.must("BroadcastTo")
	return x.Expand(shape...)
}

// View: AsStrided returns a view over x's storage with exactly the given
// shape, strides and storage offset, like torch.as_strided. Every element
// it addresses must lie inside the storage.
func (x *Tensor) AsStrided(shape Shape, strides Strides, offset int) *Tensor {
	x.must("AsStrided")
	if len(shape) != len(strides) {
		fail("as_strided", "mismatch in length of strides and shape")
	}
	for _, s := range strides {
		if s < 0 {
			fail("as_strided", "as_strided: Negative strides are not supported at the moment, got strides: %s", listString(strides))
		}
	}
	if offset < 0 {
		fail("as_strided", "Tensor: invalid storage offset %d", offset)
	}
	checkShape("as_strided", shape)
	// The slots needed are offset + 1 + Σ (size-1)·stride, in bytes for the
	// message; every step is checked against overflow.
	item := x.ElementSize()
	overflow := func() {
		fail("as_strided", "Storage size calculation overflowed with sizes=%s and strides=%s", listString(shape), listString(strides))
	}
	need := 0
	if shape.Numel() > 0 {
		if offset >= math.MaxInt/item {
			overflow()
		}
		need = offset + 1
		for i, size := range shape {
			if strides[i] != 0 && size-1 > (math.MaxInt/item-need)/strides[i] {
				overflow()
			}
			need += (size - 1) * strides[i]
		}
	}
	if need > x.storage.n {
		fail("as_strided", "setStorage: sizes %s, strides %s, storage offset %d, and itemsize %d requiring a storage size of %d are out of bounds for storage of size %d",
			listString(shape), listString(strides), offset, item, need*item, x.storage.NBytes())
	}
	out := x.view(append([]int{}, shape...), append([]int{}, strides...), offset)
	return record(out, "AsStridedBackward0", []*Tensor{x}, nil, geometryRule(x, out))
}

// View: Unflatten returns a view in which dimension dim is split into
// sizes, whose product must be its size; one of them may be -1.
func (x *Tensor) Unflatten(dim int, sizes ...int) *Tensor {
	x.must("Unflatten")
	if x.Dim() == 0 {
		failIndex("unflatten", "Dimension specified as %d but tensor has no dimensions", dim)
	}
	dim = wrapDim("unflatten", dim, x.Dim())
	if len(sizes) == 0 {
		fail("unflatten", "unflatten: sizes must be non-empty")
	}
	size := x.shape[dim]
	sizes = append([]int{}, sizes...)
	infer, known := -1, 1
	for i, s := range sizes {
		if s == -1 {
			if infer >= 0 {
				fail("unflatten", "unflatten got an unexpected error:\nonly one dimension can be inferred")
			}
			infer = i
		} else {
			known *= s
		}
	}
	if infer >= 0 && known == 0 && size == 0 {
		fail("unflatten", "cannot reshape tensor of 0 elements into shape %s because the unspecified dimension size -1 can be any value and is ambiguous", listString(sizes))
	}
	if infer >= 0 && known != 0 && size%known == 0 {
		sizes[infer] = size / known
		known = size
	}
	if known != size {
		fail("unflatten", "unflatten: Provided sizes %s don't multiply up to the size of dim %d (%d) in the input tensor", listString(sizes), dim, size)
	}
	return x.View(slices.Replace(x.Shape(), dim, dim+1, sizes...)...)
}

// View or copy: Flatten merges dimensions start through end (inclusive,
// default all) into one, like torch.flatten: a view when the strides allow
// it and a copy otherwise. Flatten(d, d) returns x itself.
//
//	x.Flatten()     // all dimensions
//	x.Flatten(1)    // dimensions 1 to the last
//	x.Flatten(1, 2) // dimensions 1 and 2
func (x *Tensor) Flatten(startEnd ...int) *Tensor {
	x.must("Flatten")
	start, end := 0, -1
	switch len(startEnd) {
	case 0:
	case 1:
		start = startEnd[0]
	case 2:
		start, end = startEnd[0], startEnd[1]
	default:
		failType("flatten", "flatten takes at most 2 arguments (start_dim, end_dim), got %d", len(startEnd))
	}
	start = wrapDim("flatten", start, x.Dim())
	end = wrapDim("flatten", end, x.Dim())
	if start > end {
		fail("flatten", "flatten() has invalid args: start_dim cannot come after end_dim")
	}
	if x.Dim() == 0 {
		return x.Reshape(1)
	}
	if start == end {
		return x
	}
	merged := 1
	for _, size := range x.shape[start : end+1] {
		merged *= size
	}
	shape := slices.Replace(x.Shape(), start, end+1, merged)
	return x.Reshape(shape...)
}

// View or copy: Ravel returns x as a 1-D tensor, like NumPy's ravel: a view
// when x is contiguous, a copy otherwise.
func (x *Tensor) Ravel() *Tensor {
	x.must("Ravel")
	if x.IsContiguous() {
		return x.View(-1)
	}
	return x.Contiguous().View(-1)
}

// alias returns a view of x with x's own geometry, recorded as PyTorch's
// alias (x[...] of any tensor, the transpose of a 0-d tensor).
func (x *Tensor) alias() *Tensor {
	return record(x.view(x.Shape(), x.Strides(), x.offset), "AliasBackward0", []*Tensor{x}, nil, identityRule)
}
