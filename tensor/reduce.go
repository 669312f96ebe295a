package tensor

import (
	"math"
	"slices"
)

type reduceKind int

const (
	reduceSum reduceKind = iota
	reduceMean
	reduceMax
	reduceMin
)

var reduceNames = [...]string{"sum", "mean", "max", "min"}

// Copy: Sum returns the sum of x's elements over the given dimensions, or
// over all of them if none are given, like torch.sum. The reduced
// dimensions are removed. Integer and Bool tensors sum to Int64, as in
// PyTorch. Floating-point sums accumulate in float64 and are rounded once,
// so they are at least as accurate as PyTorch's, and can differ from them
// in the last bits (which PyTorch's own results do between CPUs).
func (x *Tensor) Sum(dims ...int) *Tensor {
	x.must("Sum")
	return x.reduceGrad(reduceSum, dims, false)
}

// Copy: SumKeepDim is Sum with the reduced dimensions kept with size 1,
// ready to broadcast against x (keepdim=True).
func (x *Tensor) SumKeepDim(dims ...int) *Tensor {
	x.must("SumKeepDim")
	return x.reduceGrad(reduceSum, dims, true)
}

// Copy: Mean returns the mean over the given dimensions, or over all
// elements, like torch.mean. x must have a floating-point dtype.
func (x *Tensor) Mean(dims ...int) *Tensor {
	x.must("Mean")
	return x.reduceGrad(reduceMean, dims, false)
}

// Copy: MeanKeepDim is Mean with the reduced dimensions kept with size 1.
func (x *Tensor) MeanKeepDim(dims ...int) *Tensor {
	x.must("MeanKeepDim")
	return x.reduceGrad(reduceMean, dims, true)
}

// Copy: Max returns the largest element over the given dimensions, or over
// all elements, like torch.amax (and torch.max without a dim). NaN is
// larger than everything.
func (x *Tensor) Max(dims ...int) *Tensor {
	x.must("Max")
	return x.reduceGrad(reduceMax, dims, false)
}

// Copy: MaxKeepDim is Max with the reduced dimensions kept with size 1.
func (x *Tensor) MaxKeepDim(dims ...int) *Tensor {
	x.must("MaxKeepDim")
	return x.reduceGrad(reduceMax, dims, true)
}

// Copy: Min returns the smallest element over the given dimensions, or over
// all elements, like torch.amin. NaN is smaller than everything.
func (x *Tensor) Min(dims ...int) *Tensor {
	x.must("Min")
	return x.reduceGrad(reduceMin, dims, false)
}

// Copy: MinKeepDim is Min with the reduced dimensions kept with size 1.
func (x *Tensor) MinKeepDim(dims ...int) *Tensor {
	x.must("MinKeepDim")
	return x.reduceGrad(reduceMin, dims, true)
}

// reduceGrad computes a reduction and records it: the gradient of a sum
// reaches every element it summed, that of a mean divided by their count,
// and that of a max or min is shared by the elements that reach it.
func (x *Tensor) reduceGrad(kind reduceKind, dims []int, keepDim bool) *Tensor {
	out := x.reduce(kind, dims, keepDim)
	shape := x.Shape()
	// PyTorch's node names tell the form called: over every element, or
	// over dimensions.
	whole := len(dims) == 0 && !keepDim
	names := map[reduceKind][2]string{
		reduceSum:  {"SumBackward1", "SumBackward0"},
		reduceMean: {"MeanBackward1", "MeanBackward0"},
		reduceMax:  {"AmaxBackward0", "MaxBackward1"},
		reduceMin:  {"AminBackward0", "MinBackward1"},
	}
	name := names[kind][0]
	if whole {
		name = names[kind][1]
	}
	switch kind {
	case reduceSum, reduceMean:
		count := float64(x.Numel() / max(out.Numel(), 1))
		return record(out, name, []*Tensor{x}, nil, func(g *Tensor, _ []*Tensor) []*Tensor {
			g = unreduce(g, shape, dims, keepDim)
			if kind == reduceMean {
				g = g.Div(count)
			}
			return []*Tensor{g}
		})
	default:
		return record(out, name, []*Tensor{x}, []*Tensor{x, out}, func(g *Tensor, saved []*Tensor) []*Tensor {
			x, out := saved[0], saved[1]
			hits := x.Eq(unreduce(out, shape, dims, keepDim))
			ties := hits.SumKeepDim(dims...)
			return []*Tensor{unreduce(g, shape, dims, keepDim).Mul(hits).Div(unreduce(ties, shape, nil, true))}
		})
	}
}

// reduce computes a reduction by walking x in row-major order and adding
// each element into an accumulator that has stride 0 along the reduced
// dimensions, so that whole rows are summed at once when the last dimension
// is kept.
func (x *Tensor) reduce(kind reduceKind, dims []int, keepDim bool) *Tensor {
	name := reduceNames[kind]
	reduced := x.reducedDims(name, dims)
	if kind == reduceMean && !x.DType().IsFloatingPoint() {
		fail(name, "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: %s", typeName(x.DType()))
	}
	if kind == reduceMax || kind == reduceMin {
		if len(dims) == 0 && !keepDim && x.Numel() == 0 {
			fail(name, "%s(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.", name)
		}
		if len(dims) != 1 { // PyTorch's amax and amin, rather than max(dim)
			name = "a" + name
		}
		for d, r := range reduced {
			if r && x.shape[d] == 0 {
				failIndex(name, "%s(): Expected reduction dim %d to have non-zero size.", name, d)
			}
		}
	}
	keptShape := x.Shape()
	count := 1
	for d, r := range reduced {
		if r {
			count *= keptShape[d]
			keptShape[d] = 1
		}
	}
	accStrides := contiguousStrides(keptShape)
	for d, r := range reduced {
		if r {
			accStrides[d] = 0
		}
	}
	outType := x.DType()
	if kind == reduceSum && !outType.IsFloatingPoint() {
		outType = Int64
	}
	out := newTensor(outType, keptShape)

	in := x
	switch x.DType() {
	case Float16, BFloat16:
		in = x.To(Float32)
	case Bool:
		in = x.To(Uint8)
	}
	// A reduced dimension of stride 0 repeats one slot: it is walked once,
	// and a sum counts what it finds there that many times, so that an
	// expanded tensor reduces in the time of what it holds.
	loopShape, repeat := x.Shape(), 1
	for d, r := range reduced {
		if r && in.strides[d] == 0 && loopShape[d] > 1 {
			repeat *= loopShape[d]
			loopShape[d] = 1
		}
	}
	if kind == reduceMax || kind == reduceMin {
		repeat = 1
	}
	l := newLoop(loopShape, []int{0, in.offset}, accStrides, in.strides)
	if in.DType().IsFloatingPoint() {
		acc := reduceAs[float64](kind, in, l, out.Numel())
		for i, v := range acc {
			v *= float64(repeat)
			if kind == reduceMean {
				// PyTorch stores a 16-bit mean's sum in the dtype before
				// dividing, so a large sum overflows to infinity.
				v = outType.round(v) / float64(count)
			}
			out.storage.store(i, v)
		}
	} else {
		acc := reduceAs[int64](kind, in, l, out.Numel())
		for i := range acc {
			acc[i] *= int64(repeat) // wrapping past 2⁶³ as repeated addition does
		}
		if outType == Bool {
			for i, v := range acc {
				out.storage.store(i, float64(v))
			}
		} else {
			set := intSetter(out.storage)
			for i, v := range acc {
				set(i, v)
			}
		}
	}
	if !keepDim {
		out.shape, out.strides = removeDims(out.shape, reduced), removeDims(out.strides, reduced)
	}
	return out
}

// reducedDims marks the dimensions to reduce: the given ones, or all.
func (x *Tensor) reducedDims(name string, dims []int) []bool {
	reduced := make([]bool, x.Dim())
	seen := make([]bool, max(x.Dim(), 1))
	for _, d := range dims {
		d = wrapDim(name, d, x.Dim())
		if seen[d] {
			fail(name, "dim %d appears multiple times in the list of dims", d)
		}
		seen[d] = true
		if x.Dim() > 0 {
			reduced[d] = true
		}
	}
	if len(dims) == 0 {
		for d := range reduced {
			reduced[d] = true
		}
	}
	return reduced
}

func removeDims(xs []int, drop []bool) []int {
	var out []int
	for d, x := range xs {
		if !drop[d] {
			out = append(out, x)
		}
	}
	return out
}

// reduceAs dispatches on the input's element type and accumulates in A.
func reduceAs[A int64 | float64](kind reduceKind, in *Tensor, l *loop, n int) []A {
	switch d := in.storage.data.(type) {
	case []float32:
		return accumulate[float32, A](kind, d, l, n)
	case []float64:
		return accumulate[float64, A](kind, d, l, n)
	case []int64:
		return accumulate[int64, A](kind, d, l, n)
	case []int32:
		return accumulate[int32, A](kind, d, l, n)
	case []uint8:
		return accumulate[uint8, A](kind, d, l, n)
	}
	panic("tensor: reduction of an unexpected storage type")
}

// accumulate runs the reduction loop, each goroutine into its own
// accumulator, and combines them.
func accumulate[T number, A int64 | float64](kind reduceKind, in []T, l *loop, n int) []A {
	count := parts(l.rows(), l.numel())
	if n*count > l.numel()/4 {
		// One accumulator per goroutine would cost as much as the input.
		count = 1
	}
	accs := make([][]A, count)
	for p := range accs {
		accs[p] = make([]A, n)
		if kind == reduceMax || kind == reduceMin {
			for i := range accs[p] {
				accs[p][i] = startOf[A](kind)
			}
		}
	}
	rowLen, sa, si := l.rowLen(), l.inner(0), l.inner(1)
	runParts(l.rows(), count, func(p, lo, hi int) {
		acc := accs[p]
		// Contiguous float32 rows summed into float64 accumulators go
		// four at a time.
		if dst, src, ok := widening(acc, in); ok && (kind == reduceSum || kind == reduceMean) && sa == 1 && si == 1 {
			b := &widenBatch{acc: dst, in: src, n: rowLen}
			l.each(lo, hi, func(offs []int) { b.add(offs[0], offs[1]) })
			b.flush()
			return
		}
		l.each(lo, hi, func(offs []int) {
			accumulateRow(kind, acc, offs[0], sa, in, offs[1], si, rowLen)
		})
	})
	for _, other := range accs[1:] {
		for i, v := range other {
			accs[0][i] = combine(kind, accs[0][i], v)
		}
	}
	return accs[0]
}

// startOf is the accumulator's starting value for Max and Min: the
// opposite extreme of the accumulator type.
func startOf[A int64 | float64](kind reduceKind) A {
	var a A
	if _, isFloat := any(a).(float64); isFloat {
		if kind == reduceMax {
			return A(math.Inf(-1))
		}
		return A(math.Inf(1))
	}
	lowest, highest := int64(math.MinInt64), int64(math.MaxInt64)
	if kind == reduceMax {
		return A(lowest)
	}
	return A(highest)
}

// combine merges v into accumulator value a.
func combine[A int64 | float64](kind reduceKind, a, v A) A {
	switch kind {
	case reduceMax:
		if v > a || v != v {
			return v
		}
		return a
	case reduceMin:
		if v < a || v != v {
			return v
		}
		return a
	}
	return a + v
}

// accumulateRow folds one row of the input into the accumulator: into one
// slot when the row runs along a reduced dimension (sa == 0), into a row of
// slots otherwise.
func accumulateRow[T number, A int64 | float64](kind reduceKind, acc []A, ao, sa int, in []T, io, si, n int) {
	if sa == 0 {
		a := acc[ao]
		if kind == reduceSum || kind == reduceMean {
			for j := range n {
				a += A(in[io+j*si])
			}
		} else {
			for j := range n {
				a = combine(kind, a, A(in[io+j*si]))
			}
		}
		acc[ao] = a
		return
	}
	if kind == reduceSum || kind == reduceMean {
		if sa == 1 && si == 1 {
			if dst, src, ok := widening(acc[ao:ao+n], in[io:io+n]); ok {
				addWidened(dst, src)
				return
			}
			addRow(acc[ao:ao+n], in[io:io+n])
			return
		}
		for j := range n {
			acc[ao+j*sa] += A(in[io+j*si])
		}
		return
	}
	for j := range n {
		acc[ao+j*sa] = combine(kind, acc[ao+j*sa], A(in[io+j*si]))
	}
}

// Copy: Argmax returns the index of the largest element along dim, like
// torch.argmax, as an Int64 tensor with dim removed; with no dim, the index
// into the flattened tensor. The first of equal maxima wins, and NaN is
// larger than everything.
func (x *Tensor) Argmax(dim ...int) *Tensor {
	x.must("Argmax")
	return x.argReduce(reduceMax, dim, false)
}

// Copy: ArgmaxKeepDim is Argmax along dim with that dimension kept with
// size 1.
func (x *Tensor) ArgmaxKeepDim(dim int) *Tensor {
	x.must("ArgmaxKeepDim")
	return x.argReduce(reduceMax, []int{dim}, true)
}

// Copy: Argmin returns the index of the smallest element along dim, or into
// the flattened tensor, like torch.argmin.
func (x *Tensor) Argmin(dim ...int) *Tensor {
	x.must("Argmin")
	return x.argReduce(reduceMin, dim, false)
}

// Copy: ArgminKeepDim is Argmin along dim with that dimension kept with
// size 1.
func (x *Tensor) ArgminKeepDim(dim int) *Tensor {
	x.must("ArgminKeepDim")
	return x.argReduce(reduceMin, []int{dim}, true)
}

func (x *Tensor) argReduce(kind reduceKind, dims []int, keepDim bool) *Tensor {
	name := "arg" + reduceNames[kind]
	if len(dims) > 1 {
		failType(name, "%s(): argument 'dim' must be int, not tuple", name)
	}
	if x.DType() == Bool && x.Dim() == 0 {
		fail(name, "\"%s_cpu\" not implemented for 'Bool'", name)
	}
	if len(dims) == 0 {
		if x.Numel() == 0 {
			failIndex(name, "%s(): Expected reduction dim to be specified for input.numel() == 0.", name)
		}
		return x.Reshape(-1).argReduce(kind, []int{0}, false)
	}
	dim := wrapDim(name, dims[0], x.Dim())
	if x.DType() == Bool && x.Dim() > 0 && x.shape[dim] > 1 {
		fail(name, "\"%s_cpu\" not implemented for 'Bool'", name)
	}
	if x.Dim() == 0 {
		return Int64.Zeros()
	}
	if x.shape[dim] == 0 {
		failIndex(name, "%s(): Expected reduction dim %d to have non-zero size.", name, dim)
	}
	in := x
	if x.DType() == Float16 || x.DType() == BFloat16 {
		in = x.To(Float32)
	}
	rows := in.Select(dim, 0) // one element per output position: each row's start
	out := newTensor(Int64, rows.shape)
	idx := typed[int64](out.storage)
	n, step := in.shape[dim], in.strides[dim]
	if step == 0 { // one slot repeated: the first position holds the extreme
		n = 1
	}
	i := 0
	rows.visit(func(off int) {
		idx[i] = int64(argRow(kind, in.storage, off, step, n))
		i++
	})
	if keepDim {
		out.shape = slices.Insert(out.shape, dim, 1)
		out.strides = contiguousStrides(out.shape)
	}
	return out
}

// argRow returns the position of the extreme element among the n elements
// starting at storage slot off and step apart.
func argRow(kind reduceKind, s *Storage, off, step, n int) int {
	switch d := s.data.(type) {
	case []float32:
		return argIn(kind, d, off, step, n)
	case []float64:
		return argIn(kind, d, off, step, n)
	case []int64:
		return argIn(kind, d, off, step, n)
	case []int32:
		return argIn(kind, d, off, step, n)
	case []uint8:
		return argIn(kind, d, off, step, n)
	case []bool:
		for j := range n {
			if d[off+j*step] == (kind == reduceMax) {
				return j
			}
		}
		return 0
	}
	panic("tensor: arg reduction of an unexpected storage type")
}

func argIn[T number](kind reduceKind, d []T, off, step, n int) int {
	best, at := d[off], 0
	for j := 1; j < n && best == best; j++ {
		v := d[off+j*step]
		if v != v || (kind == reduceMax && v > best) || (kind == reduceMin && v < best) {
			best, at = v, j
		}
	}
	return at
}

// widening returns dst and src as float64 and float32 slices when they
// are, for addWidened.
func widening[T number, A int64 | float64](dst []A, src []T) ([]float64, []float32, bool) {
	d, ok := any(dst).([]float64)
	s, ok2 := any(src).([]float32)
	return d, s, ok && ok2
}

// addRows4 adds s0, s1, s2 and s3 into dst, in that order, slot by slot:
// the same sums as four calls of addRow.
func addRows4(dst []float64, s0, s1, s2, s3 []float32) {
	n := len(dst)
	s0, s1, s2, s3 = s0[:n], s1[:n], s2[:n], s3[:n]
	for j := range dst {
		dst[j] = dst[j] + float64(s0[j]) + float64(s1[j]) + float64(s2[j]) + float64(s3[j])
	}
}

// A widenBatch gathers the float32 rows a sum adds into the same run of
// float64 accumulators, four at a time, for addWidened4.
type widenBatch struct {
	acc  []float64
	in   []float32
	n    int          // the rows' length
	at   int          // the accumulators' offset for the rows gathered
	rows [4][]float32 // the rows gathered
	held int          // how many
}

// add gathers the row at offset io of the input, which adds into the
// accumulators at offset ao.
func (b *widenBatch) add(ao, io int) {
	if b.held > 0 && ao != b.at {
		b.flush()
	}
	b.at = ao
	b.rows[b.held] = b.in[io : io+b.n]
	b.held++
	if b.held == len(b.rows) {
		b.flush()
	}
}

// flush adds the rows gathered into their accumulators.
func (b *widenBatch) flush() {
	if b.held == 0 {
		return
	}
	dst := b.acc[b.at : b.at+b.n]
	if b.held == len(b.rows) {
		addWidened4(dst, &b.rows)
	} else {
		for _, row := range b.rows[:b.held] {
			addWidened(dst, row)
		}
	}
	b.held = 0
}

// addRow adds src into dst elementwise, four at a time: the loop the
// reductions over a leading dimension spend their time in.
func addRow[T number, A int64 | float64](dst []A, src []T) {
	src = src[:len(dst)]
	j := 0
	for ; j+4 <= len(dst); j += 4 {
		d, s := dst[j:j+4:j+4], src[j:j+4:j+4]
		d[0] += A(s[0])
		d[1] += A(s[1])
		d[2] += A(s[2])
		d[3] += A(s[3])
	}
	for ; j < len(dst); j++ {
		dst[j] += A(src[j])
	}
}
