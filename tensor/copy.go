package tensor

import (
	"math"
	"slices"
)

// View or copy: Reshape returns a tensor with the given shape holding x's
// elements in row-major order, like PyTorch's reshape: a view when the
// strides allow one (as View), otherwise a contiguous copy. One size may be
// -1. To learn which happened, ask CanView first or SharesStorage after.
func (x *Tensor) Reshape(shape ...int) *Tensor {
	x.must("Reshape")
	shape = inferSize("reshape", shape, x.Numel())
	if strides, ok := viewStrides(x.shape, x.strides, shape); ok {
		return record(x.view(shape, strides, x.offset), "ReshapeAliasBackward0", []*Tensor{x}, nil, reshapeRule(x))
	}
	// As in PyTorch: a contiguous clone, then a view of it.
	c := x.Contiguous()
	out := &Tensor{storage: c.storage, shape: shape, strides: contiguousStrides(shape)}
	return record(out, "UnsafeViewBackward0", []*Tensor{c}, nil, reshapeRule(c))
}

// View or copy: Contiguous returns x itself if it is contiguous, and
// otherwise a copy of its elements laid out in row-major order, like
// PyTorch's contiguous.
func (x *Tensor) Contiguous() *Tensor {
	x.must("Contiguous")
	if x.IsContiguous() {
		return x
	}
	return record(x.copyContiguous(), "CloneBackward0", []*Tensor{x}, nil, identityRule)
}

// Copy: Clone returns a copy of x with its own storage, like PyTorch's
// clone. As in PyTorch, the copy keeps x's memory order: a clone of a
// transpose is laid out as a transpose, and a tensor with gaps or repeats
// is packed densely in the order its strides walk memory.
func (x *Tensor) Clone() *Tensor {
	x.must("Clone")
	c := newUnfilled(x.DType(), x.shape, denseStridesLike(x))
	copyElements(c, x)
	return record(c, "CloneBackward0", []*Tensor{x}, nil, identityRule)
}

// Copy: FlattenCopy returns a 1-D copy of x's elements in row-major order,
// like NumPy's ndarray.flatten: unlike Flatten and Ravel, it always copies.
func (x *Tensor) FlattenCopy() *Tensor {
	x.must("FlattenCopy")
	return record(x.copyAs([]int{x.Numel()}), "CloneBackward0", []*Tensor{x}, nil, reshapeRule(x))
}

// View or copy: To returns x converted to dtype dt, or x itself if it
// already has that dtype. Floats convert to integers by truncation toward
// zero. The copy keeps x's memory order, as Clone does.
func (x *Tensor) To(dt DType) *Tensor {
	x.must("To")
	dt.check("to")
	if dt == x.DType() {
		return x
	}
	c := newUnfilled(dt, x.shape, denseStridesLike(x))
	convertElements(c, x)
	// The gradient is converted back to x's dtype on its way.
	return record(c, "ToCopyBackward0", []*Tensor{x}, nil, identityRule)
}

// Copy: Repeat returns a copy of x repeated reps[i] times along each
// dimension, like PyTorch's repeat. reps may be longer than x's shape; x is
// then treated as having leading dimensions of size 1.
func (x *Tensor) Repeat(reps ...int) *Tensor {
	x.must("Repeat")
	if len(reps) < x.Dim() {
		fail("repeat", "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
	}
	lead := len(reps) - x.Dim()
	shape := make([]int, len(reps))
	// Read x through a view of shape (r₀, s₀, r₁, s₁, …) in which each
	// repetition dimension has stride 0, and copy it out contiguously.
	var srcShape, srcStrides []int
	for i, r := range reps {
		size, stride := 1, 0
		if i >= lead {
			size, stride = x.shape[i-lead], x.strides[i-lead]
		}
		if r < 0 {
			fail("repeat", "Trying to create tensor with negative dimension %d: %s", r, listString(reps))
		}
		if size != 0 && r > math.MaxInt/size {
			fail("repeat", "repeating %s by %s gives a tensor too large to allocate", listString(x.shape), listString(reps))
		}
		shape[i] = r * size
		srcShape = append(srcShape, r, size)
		srcStrides = append(srcStrides, 0, stride)
	}
	checkShape("repeat", shape)
	out := newUnfilled(x.DType(), shape, contiguousStrides(shape))
	src := &Tensor{storage: x.storage, shape: srcShape, strides: srcStrides, offset: x.offset}
	dst := &Tensor{storage: out.storage, shape: srcShape, strides: contiguousStrides(srcShape)}
	copyElements(dst, src)
	// Each element of x was copied to every repetition: its gradient is
	// the sum of theirs, summed over the repetition dimensions.
	xShape := x.Shape()
	return record(out, "RepeatBackward0", []*Tensor{x}, nil, func(g *Tensor, _ []*Tensor) []*Tensor {
		sum := make([]int, len(reps))
		for i := range sum {
			sum[i] = 2 * i
		}
		return []*Tensor{g.Reshape(srcShape...).Sum(sum...).Reshape(xShape...)}
	})
}

// Copy: Tile returns a copy of x repeated reps[i] times along each
// dimension, like torch.tile and np.tile: if reps is shorter than x's shape
// it is padded with leading 1s.
func (x *Tensor) Tile(reps ...int) *Tensor {
	x.must("Tile")
	if len(reps) < x.Dim() {
		reps = append(slices.Repeat([]int{1}, x.Dim()-len(reps)), reps...)
	}
	return x.Repeat(reps...)
}

// copyContiguous returns a new contiguous tensor holding x's elements.
func (x *Tensor) copyContiguous() *Tensor {
	c := newUnfilled(x.DType(), x.shape, contiguousStrides(x.shape))
	copyElements(c, x)
	return c
}

// copyAs returns a new contiguous tensor of the given shape, which has as
// many elements as x, holding x's elements in row-major order.
func (x *Tensor) copyAs(shape []int) *Tensor {
	c := x.copyContiguous()
	c.shape, c.strides = shape, contiguousStrides(shape)
	return c
}

// copyElements copies src's elements into dst, which has the same shape and
// dtype and does not overlap src. Elements are moved as machine words of
// their size, whatever their type.
func copyElements(dst, src *Tensor) {
	switch dst.ElementSize() {
	case 1:
		copyWords(words[uint8](dst.storage), words[uint8](src.storage), dst, src)
	case 2:
		copyWords(words[uint16](dst.storage), words[uint16](src.storage), dst, src)
	case 4:
		copyWords(words[uint32](dst.storage), words[uint32](src.storage), dst, src)
	case 8:
		copyWords(words[uint64](dst.storage), words[uint64](src.storage), dst, src)
	}
}

// orderedLoop prepares a loop that writes dst in its memory order and reads
// src alongside.
func orderedLoop(dst, src *Tensor) *loop {
	order := memoryOrder(dst.strides)
	return newLoop(permuted(order, dst.shape), []int{dst.offset, src.offset},
		permuted(order, dst.strides), permuted(order, src.strides))
}

// A transposing copy moves elements in square tiles of tileSize×tileSize,
// so that the lines of both the source and the destination stay in cache
// while a tile is copied, and visits the tiles in groups of
// groupSize×groupSize elements, so that the pages both sides touch stay
// in the TLB while a group is copied.
const (
	tileSize  = 64
	groupSize = 256
)

func copyWords[W uint8 | uint16 | uint32 | uint64](d, s []W, dst, src *Tensor) {
	l := orderedLoop(dst, src)
	if k, ok := l.transposedPair(); ok {
		copyTiled(d, s, l, k)
		return
	}
	di, si := l.inner(0), l.inner(1)
	l.eachRow(func(offs []int, n int) {
		do, so := offs[0], offs[1]
		switch {
		case di == 1 && si == 1:
			copy(d[do:do+n], s[so:so+n])
			return
		case di == 1:
			gather(d[do:do+n], s[so:], si)
			return
		}
		for range n {
			d[do] = s[so]
			do += di
			so += si
		}
	})
}

// gather copies every step-th element of s, from the first, into d: the
// loop of copies whose source is strided and destination contiguous. It
// moves four elements a step, with one bounds check; every other element
// (step 2, as in pixel_unshuffle by 2) has a loop of its own, whose
// constant stride the compiler turns into fixed offsets, and for 32-bit
// elements an AVX-512 loop that picks sixteen from two vectors.
func gather[W uint8 | uint16 | uint32 | uint64](d, s []W, step int) {
	if d32, ok := any(d).([]uint32); ok && step == 2 {
		done := gatherEvenWords(d32, any(s).([]uint32))
		d, s = d[done:], s[2*done:]
	}
	if step == 2 && len(d) > 0 {
		s = s[:2*len(d)-1]
		for len(d) >= 4 && len(s) >= 8 {
			d[0], d[1], d[2], d[3] = s[0], s[2], s[4], s[6]
			d, s = d[4:], s[8:]
		}
	}
	for len(d) >= 4 && len(s) > 4*step {
		d[0], d[1], d[2], d[3] = s[0], s[step], s[2*step], s[3*step]
		d, s = d[4:], s[4*step:]
	}
	for j := range d {
		d[j] = s[j*step]
	}
}

// transposedPair looks for a dimension k along which the source (operand 1)
// steps through memory faster than along the innermost dimension, as in a
// transpose: copying row by row would then read the source with a large
// stride. Such a copy goes tile by tile over k and the innermost dimension.
func (l *loop) transposedPair() (int, bool) {
	inner := len(l.shape) - 1
	// A short innermost dimension (3 channels last, say) still tiles:
	// copying it row by row would pay a row's setup for every 3 elements.
	if inner < 1 || l.shape[inner] < 2 || l.numel() == 0 {
		return 0, false
	}
	best := -1
	for k := range inner {
		if l.shape[k] >= 8 && l.strides[1][k] < l.strides[1][inner] && (best < 0 || l.strides[1][k] < l.strides[1][best]) {
			best = k
		}
	}
	return best, best >= 0 && l.strides[1][inner] > 1
}

// copyTiled copies loop l tile by tile over dimension k and the innermost
// dimension; the remaining dimensions and the tile rows are shared out
// between goroutines.
func copyTiled[W uint8 | uint16 | uint32 | uint64](d, s []W, l *loop, k int) {
	inner := len(l.shape) - 1
	var outer []int
	for dim := range inner {
		if dim != k {
			outer = append(outer, dim)
		}
	}
	nk, ni := l.shape[k], l.shape[inner]
	dk, sk := l.strides[0][k], l.strides[1][k]
	di, si := l.strides[0][inner], l.strides[1][inner]
	blocks := (nk + groupSize - 1) / groupSize
	units := l.numel() / (nk * ni) * blocks
	// A few source rows read whole and written side by side (channels
	// moved last) need no tiles: each destination row takes one element
	// from each.
	interleaved := sk == 1 && di == 1 && ni <= maxInterleaved
	parallelFor(units, l.numel(), func(lo, hi int) {
		var buf [tileSize * tileSize]W
		for u := lo; u < hi; u++ {
			rest, block := u/blocks, u%blocks
			dBase, sBase := l.offsets[0], l.offsets[1]
			for j := len(outer) - 1; j >= 0; j-- {
				dim := outer[j]
				c := rest % l.shape[dim]
				rest /= l.shape[dim]
				dBase += c * l.strides[0][dim]
				sBase += c * l.strides[1][dim]
			}
			g0, g1 := block*groupSize, min(block*groupSize+groupSize, nk)
			if interleaved {
				interleave(d, dBase+g0*dk, dk, s, sBase+g0, si, g1-g0, ni)
				continue
			}
			for h0 := 0; h0 < ni; h0 += groupSize {
				h1 := min(h0+groupSize, ni)
				for i0 := g0; i0 < g1; i0 += tileSize {
					i1 := min(i0+tileSize, g1)
					for j0 := h0; j0 < h1; j0 += tileSize {
						j1 := min(j0+tileSize, h1)
						copyTile(d, dBase+i0*dk+j0*di, dk, di, s, sBase+i0*sk+j0*si, sk, si, &buf, i1-i0, j1-j0)
					}
				}
			}
		}
	})
}

// maxInterleaved is the most source rows interleave reads side by side.
const maxInterleaved = 8

// interleave copies n source rows of m elements, the j-th starting at
// so+j*si, into m destination rows of n elements, the i-th starting at
// do+i*dk: destination row i holds element i of each source row. Both
// sides are walked in memory order, the source in n streams.
func interleave[W uint8 | uint16 | uint32 | uint64](d []W, do, dk int, s []W, so, si, m, n int) {
	switch n {
	case 3:
		s0, s1, s2 := s[so:so+m], s[so+si:so+si+m], s[so+2*si:so+2*si+m]
		for i := range m {
			row := d[do+i*dk : do+i*dk+3 : do+i*dk+3]
			row[0], row[1], row[2] = s0[i], s1[i], s2[i]
		}
	case 4:
		s0, s1, s2, s3 := s[so:so+m], s[so+si:so+si+m], s[so+2*si:so+2*si+m], s[so+3*si:so+3*si+m]
		for i := range m {
			row := d[do+i*dk : do+i*dk+4 : do+i*dk+4]
			row[0], row[1], row[2], row[3] = s0[i], s1[i], s2[i], s3[i]
		}
	default:
		for i := range m {
			row := d[do+i*dk : do+i*dk+n]
			for j := range row {
				row[j] = s[so+j*si+i]
			}
		}
	}
}

// copyTile copies an m×n tile whose rows step dk, sk and columns di, si in
// the destination and source. The source is read along its fast dimension
// (rows of the tile) into buf, and the destination written along its own
// fast dimension (columns) from buf: both sides then touch whole cache lines
// in order, whereas reading a transpose directly would hop between lines
// that, at power-of-two strides, compete for the same cache sets.
func copyTile[W uint8 | uint16 | uint32 | uint64](d []W, do, dk, di int, s []W, so, sk, si int, buf *[tileSize * tileSize]W, m, n int) {
	for j := range n {
		row := buf[j*tileSize : j*tileSize+m]
		p := so + j*si
		if sk == 1 {
			copy(row, s[p:p+m])
			continue
		}
		for i := range row {
			row[i] = s[p]
			p += sk
		}
	}
	for i := range m {
		p := do + i*dk
		for j := range n {
			d[p] = buf[j*tileSize+i]
			p += di
		}
	}
}

// convertElements copies src's elements into dst, converting each to dst's
// dtype. Integer to integer conversions keep every bit of int64 values.
func convertElements(dst, src *Tensor) {
	l := orderedLoop(dst, src)
	di, si := l.inner(0), l.inner(1)
	bothInts := !dst.DType().IsFloatingPoint() && !src.DType().IsFloatingPoint()
	if bothInts && dst.DType() != Bool && src.DType() != Bool {
		get, set := intGetter(src.storage), intSetter(dst.storage)
		l.eachRow(func(offs []int, n int) {
			for j := range n {
				set(offs[0]+j*di, get(offs[1]+j*si))
			}
		})
		return
	}
	l.eachRow(func(offs []int, n int) {
		for j := range n {
			dst.storage.store(offs[0]+j*di, src.storage.load(offs[1]+j*si))
		}
	})
}

func intGetter(s *Storage) func(int) int64 {
	switch d := s.data.(type) {
	case []int64:
		return func(i int) int64 { return d[i] }
	case []int32:
		return func(i int) int64 { return int64(d[i]) }
	case []uint8:
		return func(i int) int64 { return int64(d[i]) }
	}
	panic("tensor: not an integer storage")
}

func intSetter(s *Storage) func(int, int64) {
	switch d := s.data.(type) {
	case []int64:
		return func(i int, v int64) { d[i] = v }
	case []int32:
		return func(i int, v int64) { d[i] = int32(v) }
	case []uint8:
		return func(i int, v int64) { d[i] = uint8(v) }
	}
	panic("tensor: not an integer storage")
}
