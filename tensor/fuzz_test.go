package tensor_test

import (
	"fmt"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/tensor"
)

// FuzzViewChains decodes its input into a starting tensor and a chain of
// shape operations (see chainReader for the format), runs the chain through
// package tensor and checks every result against chainModel, an oracle that
// knows nothing of strides: it holds a tensor as its shape and its values in
// row-major order, and computes every operation with plain loops over
// logical indices, following PyTorch's rules.
//
// A step that the package refuses must panic with a *tensor.Error, and ends
// the chain. A step that it accepts must be one PyTorch accepts too, and its
// results must agree with the oracle in shape, in every element (read at
// the storage slot computed by hand from the strides, through At, and
// through Float64s), in whether they share the input's storage, and in
// contiguity. The chain ends by writing one element of the last result and
// checking that exactly the storage slot it reads changed.
func FuzzViewChains(f *testing.F) {
	for _, seed := range viewChainSeeds() {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) { runViewChain(t, data) })
}

// viewChainSeeds exercise every operation on both its success and its error
// path. Lists are encoded as their length and then their elements.
func viewChainSeeds() [][]byte {
	const end = tensor.End // Slice's stop, and an omitted bound in an Index slice
	f32, f64, i64, i32, u8, b, f16, bf16 := tensor.Float32, tensor.Float64, tensor.Int64, tensor.Int32, tensor.Uint8, tensor.Bool, tensor.Float16, tensor.BFloat16
	return [][]byte{
		// Transpose(0, 2) → Reshape(2, 4, -1) (a copy) → View(2, 12)
		viewChainInput(f32, []int{2, 3, 4},
			[]int{opTranspose, 0, 2}, []int{opReshape, 3, 2, 4, -1}, []int{opView, 2, 2, 12}),
		// Permute(2, 0, 1) → View(-1): not viewable
		viewChainInput(f64, []int{2, 3, 4},
			[]int{opPermute, 3, 2, 0, 1}, []int{opView, 1, -1}),
		// T() → Reshape(2, 6) → View(3, 4) → View(5, -1): wrong size
		viewChainInput(i64, []int{3, 4},
			[]int{opT}, []int{opReshape, 2, 2, 6}, []int{opView, 2, 3, 4}, []int{opView, 2, 5, -1}),
		// MT() → MoveDim(0, -1) → Contiguous() → View(2, -1, -1): two -1s
		viewChainInput(i32, []int{2, 3, 2},
			[]int{opMT}, []int{opMoveDim, 0, -1}, []int{opContiguous}, []int{opView, 3, 2, -1, -1}),
		// MT() of a 1-d tensor
		viewChainInput(u8, []int{4},
			[]int{opMT}),
		// Squeeze(0, -1) → Unsqueeze(1) → Squeeze(0) → Unsqueeze(-1) → Squeeze() → Squeeze(1): out of range
		viewChainInput(b, []int{1, 3, 1},
			[]int{opSqueeze, 2, 0, -1}, []int{opUnsqueeze, 1}, []int{opSqueeze, 1, 0}, []int{opUnsqueeze, -1},
			[]int{opSqueeze, 0}, []int{opSqueeze, 1, 1}),
		// Narrow(0, -4, 3) → Narrow(1, 4, 0) → Narrow(-1, 0, 1): too long
		viewChainInput(f16, []int{5, 4},
			[]int{opNarrow, 0, -4, 3}, []int{opNarrow, 1, 4, 0}, []int{opNarrow, -1, 0, 1}),
		// Slice(0, 1, End, 2) → Slice(-1, -3, -1, 1) → Slice(0, 0, 1, 0): step 0
		viewChainInput(bf16, []int{5, 4},
			[]int{opSlice, 0, 1, end, 2}, []int{opSlice, -1, -3, -1, 1}, []int{opSlice, 0, 0, 1, 0}),
		// Select(1, -1) → Select(0, 3): out of range
		viewChainInput(f32, []int{3, 4},
			[]int{opSelect, 1, -1}, []int{opSelect, 0, 3}),
		// Unfold(1, 2, 2) → Unfold(0, 3, 1): window too large
		viewChainInput(f64, []int{2, 5},
			[]int{opUnfold, 1, 2, 2}, []int{opUnfold, 0, 3, 1}),
		// Diagonal(1, 0, 1) → Diagonal(0, 1, -1): the same dimension twice
		viewChainInput(i64, []int{3, 4, 2},
			[]int{opDiagonal, 1, 0, 1}, []int{opDiagonal, 0, 1, -1}),
		// Expand(-1, 4) → Expand(2, -1, -1) → Expand(0, 0, 0): size mismatch
		viewChainInput(i32, []int{3, 1},
			[]int{opExpand, 2, -1, 4}, []int{opExpand, 3, 2, -1, -1}, []int{opExpand, 3, 0, 0, 0}),
		// AsStrided((2, 3), (4, 1), 1) → AsStrided((3,), (4,), 0) → AsStrided((3,), (-1,), 0): negative stride
		viewChainInput(u8, []int{3, 4},
			[]int{opAsStrided, 2, 2, 3, 4, 1, 1}, []int{opAsStrided, 1, 3, 4, 0}, []int{opAsStrided, 1, 3, -1, 0}),
		// AsStrided((2, 2), (1, 1), 0), overlapping → AsStrided((2, 2), (0, 1), 3): outside the storage
		viewChainInput(f32, []int{2, 2},
			[]int{opAsStrided, 2, 2, 2, 1, 1, 0}, []int{opAsStrided, 2, 2, 2, 0, 1, 3}),
		// Clone() → AsStrided (skipped on a copy) → View(6)
		viewChainInput(b, []int{2, 3},
			[]int{opClone}, []int{opAsStrided, 1, 2, 1, 0}, []int{opView, 1, 6}),
		// Chunk(2, 0)[1] → Unbind(1)[0] → Chunk(0, 0): no chunks
		viewChainInput(f16, []int{5, 2},
			[]int{opSplit, splitChunk, 1, 2, 0}, []int{opSplit, splitUnbind, 0, 1}, []int{opSplit, splitChunk, 2, 0, 0}),
		// Split(2, 0)[1] → SplitSizes({1, 1, 1}, 1)[2] → TensorSplit(3, 0)[1] → TensorSplitAt({-1, 1}, 0)[1] → Split(0, 1): size 0
		viewChainInput(bf16, []int{5, 3},
			[]int{opSplit, splitSize, 1, 2, 0}, []int{opSplit, splitSizes, 2, 3, 1, 1, 1, 1},
			[]int{opSplit, splitSections, 1, 3, 0}, []int{opSplit, splitAt, 1, 2, 0, -1, 1}, []int{opSplit, splitSize, 0, 0, 1}),
		// Chunk(3, 0)[2] of an empty dimension → Unbind(0): no results
		viewChainInput(f32, []int{0, 3},
			[]int{opSplit, splitChunk, 2, 3, 0}, []int{opSplit, splitUnbind, 0, 0}),
		// Unflatten(1, 2, -1, 2) → Unflatten(-1, 3): wrong product
		viewChainInput(f64, []int{3, 4},
			[]int{opUnflatten, 1, 3, 2, -1, 2}, []int{opUnflatten, -1, 1, 3}),
		// Transpose(1, 2) → Flatten(0, 1) (a copy) → Flatten(1) → Flatten(1, 0): start after end
		viewChainInput(i64, []int{2, 3, 4},
			[]int{opTranspose, 1, 2}, []int{opFlatten, 2, 0, 1}, []int{opFlatten, 1, 1}, []int{opFlatten, 2, 1, 0}),
		// Ravel() → Slice(0, 0, End, 2) → Ravel() (a copy) → Reshape(3, 1) → Flatten() → Reshape(2, 2): wrong size
		viewChainInput(i32, []int{2, 3},
			[]int{opRavel}, []int{opSlice, 0, 0, end, 2}, []int{opRavel}, []int{opReshape, 2, 3, 1},
			[]int{opFlatten, 0}, []int{opReshape, 2, 2, 2}),
		// T() → Contiguous() (a copy) → Contiguous() (itself) → Reshape(7): wrong size
		viewChainInput(u8, []int{2, 3},
			[]int{opT}, []int{opContiguous}, []int{opContiguous}, []int{opReshape, 1, 7}),
		// Repeat(2, 1, 2) → Repeat(1, 2): fewer reps than dimensions
		viewChainInput(b, []int{2, 2},
			[]int{opRepeat, 3, 2, 1, 2}, []int{opRepeat, 2, 1, 2}),
		// Tile(2, 2) → Tile(-1): negative
		viewChainInput(f16, []int{3},
			[]int{opTile, 2, 2, 2}, []int{opTile, 1, -1}),
		// T() → FlattenCopy() → Unflatten(0, 2, 2, 2)
		viewChainInput(bf16, []int{4, 2},
			[]int{opT}, []int{opFlattenCopy}, []int{opUnflatten, 0, 3, 2, 2, 2}),
		// Index("1:, ::2") → Index("..., 0, None") → Index("[1, 0]") → Index("4"): out of range
		viewChainInput(f32, []int{3, 4, 5},
			[]int{opIndex, 2, partSlice, 1, end, end, partSlice, end, end, 2},
			[]int{opIndex, 3, partEllipsis, partInt, 0, partNone},
			[]int{opIndex, 1, partList, 2, 1, 0}, []int{opIndex, 1, partInt, 4}),
		// Index(":, [-1, 0, 1]") → Index("1:2:3:4"): malformed
		viewChainInput(f64, []int{3, 4},
			[]int{opIndex, 2, partSlice, end, end, end, partList, 3, -1, 0, 1}, []int{opIndex, 1, partJunk, 0}),
		// Index("") → Index("::-1, 0"): negative step
		viewChainInput(i64, []int{3, 4},
			[]int{opIndex, 0}, []int{opIndex, 2, partSlice, end, end, -1, partInt, 0}),
		// IndexSelect(1, {3, 0, 3}) → IndexSelect(0, {1, 2} as Int32) → IndexSelect(0, {-1}): negative
		viewChainInput(i32, []int{3, 4},
			[]int{opIndexSelect, 1, 3, 3, 0, 3, 0}, []int{opIndexSelect, 0, 2, 1, 2, 1}, []int{opIndexSelect, 0, 1, -1, 0}),
		// a 0-d start: Unsqueeze(0) → Expand(2, 4, 5) → Clone() → Index("None") → Squeeze() → Unsqueeze(4): out of range
		viewChainInput(u8, nil,
			[]int{opUnsqueeze, 0}, []int{opExpand, 3, 2, 4, 5}, []int{opClone}, []int{opIndex, 1, partNone},
			[]int{opSqueeze, 0}, []int{opUnsqueeze, 4}),
		// Flatten() → Select(0, 0) → Transpose(0, -1) → Repeat(2, 3) → Permute(1, 0) → MoveDim(0, 1) → Permute(0, 0): duplicate
		viewChainInput(f32, nil,
			[]int{opFlatten, 0}, []int{opSelect, 0, 0}, []int{opTranspose, 0, -1}, []int{opRepeat, 2, 2, 3},
			[]int{opPermute, 2, 1, 0}, []int{opMoveDim, 0, 1}, []int{opPermute, 2, 0, 0}),
		// Unfold(0, 1, 1) → View() → MT() → T() → Narrow(0, 0, 1) of a 0-d tensor
		viewChainInput(i64, nil,
			[]int{opUnfold, 0, 1, 1}, []int{opView, 0}, []int{opMT}, []int{opT}, []int{opNarrow, 0, 0, 1}),
		// copies of transposes large enough to be copied tile by tile:
		// Repeat(2, 2) → T() → Contiguous() → T() → Clone()
		viewChainInput(f32, []int{4, 5},
			[]int{opRepeat, 2, 2, 2}, []int{opT}, []int{opContiguous}, []int{opT}, []int{opClone}),
	}
}

// The operations a chain step can be, in opcode order.
const (
	opView = iota
	opReshape
	opTranspose
	opPermute
	opT
	opMT
	opMoveDim
	opSqueeze
	opUnsqueeze
	opNarrow
	opSlice
	opSelect
	opUnfold
	opDiagonal
	opExpand
	opAsStrided
	opSplit // Chunk, Split, SplitSizes, TensorSplit, TensorSplitAt or Unbind
	opUnflatten
	opFlatten
	opRavel
	opContiguous
	opClone
	opRepeat
	opTile
	opFlattenCopy
	opIndex
	opIndexSelect
	opCount
)

// The calls behind opSplit.
const (
	splitChunk = iota
	splitSize
	splitSizes
	splitSections
	splitAt
	splitUnbind
)

// The kinds of item in an Index expression.
const (
	partInt = iota
	partSlice
	partNone
	partEllipsis
	partList
	partJunk // a malformed item
)

// junkIndexItems are items that Index must refuse to parse.
var junkIndexItems = []string{"1:2:3:4", "[1", "x", "1.5", "[0, a]"}

// Limits on what one input decodes to: the number of steps, the elements of
// the starting tensor, and the elements of a result past which the chain
// stops. Arguments that would grow a tensor past maxNumel are cut to 1.
const (
	maxChainSteps = 8
	maxRootNumel  = 500
	maxNumel      = 2048
)

// absentByte encodes tensor.End as the stop of Slice, and an omitted bound
// in an Index slice.
const absentByte = 127

// A chainReader decodes a fuzz input. Each argument is read from one byte
// b. If the small integer int8(b) lies in the argument's window it is taken
// as written, so that hand-written seeds read literally and reach every
// error path; any other byte is folded into the values the call usually
// accepts, so that random input makes long chains. Past the end of the
// input every byte reads as 0.
//
// The input is the dtype (its index in Float32, Float64, Int64, Int32,
// Uint8, Bool, Float16, BFloat16), the rank (0 to 4) and the sizes (0 to 5)
// of the starting tensor, then up to maxChainSteps operations, each an
// opcode followed by its arguments; the chain ends with the input.
type chainReader struct{ data []byte }

func (r *chainReader) done() bool { return len(r.data) == 0 }

func (r *chainReader) next() byte {
	if r.done() {
		return 0
	}
	b := r.data[0]
	r.data = r.data[1:]
	return b
}

// fold reads b as an argument with window [lo, hi]; a byte outside the
// window folds into [flo, fhi], or into the window if that range is empty.
func fold(b byte, lo, hi, flo, fhi int) int {
	if v := int(int8(b)); v >= lo && v <= hi {
		return v
	}
	if flo > fhi {
		flo, fhi = lo, hi
	}
	return flo + int(b)%(fhi-flo+1)
}

// arg reads an argument with window [lo, hi], folding other bytes into
// [flo, fhi].
func (r *chainReader) arg(lo, hi, flo, fhi int) int { return fold(r.next(), lo, hi, flo, fhi) }

// int reads an integer in [lo, hi].
func (r *chainReader) int(lo, hi int) int { return r.arg(lo, hi, lo, hi) }

// args reads count arguments with window [lo, hi], folding other bytes
// into [flo, fhi].
func (r *chainReader) args(count, lo, hi, flo, fhi int) []int {
	out := make([]int, count)
	for i := range out {
		out[i] = r.arg(lo, hi, flo, fhi)
	}
	return out
}

// optional reads an argument like arg, or reports false for absentByte.
func (r *chainReader) optional(lo, hi, flo, fhi int) (int, bool) {
	b := r.next()
	if b == absentByte {
		return 0, false
	}
	return fold(b, lo, hi, flo, fhi), true
}

// sizes reads count sizes, window [-2, 12], for a tensor of numel
// elements. A byte outside the window picks a divisor of the elements the
// sizes so far leave, or all of them for the last size, so that random
// input mostly names a shape that fits.
func (r *chainReader) sizes(count, numel int) []int {
	sizes := make([]int, count)
	rest := numel
	for i := range sizes {
		b := r.next()
		switch v := int(int8(b)); {
		case v >= -2 && v <= 12:
			sizes[i] = v
		case i == count-1:
			sizes[i] = rest
		default:
			ds := divisors(rest)
			sizes[i] = ds[int(b)%len(ds)]
		}
		if sizes[i] > 0 && rest%sizes[i] == 0 {
			rest /= sizes[i]
		}
	}
	return sizes
}

// divisors returns the divisors of n, or a few sizes if n is 0.
func divisors(n int) []int {
	if n == 0 {
		return []int{0, 1, 2}
	}
	var ds []int
	for d := 1; d <= n; d++ {
		if n%d == 0 {
			ds = append(ds, d)
		}
	}
	return ds
}

// partition reads count sizes, window [-1, total], meant to add up to
// total; a byte outside the window takes part of what is left, or all of
// it for the last size.
func (r *chainReader) partition(count, total int) []int {
	sizes := make([]int, count)
	rest := total
	for i := range sizes {
		least := 0
		if i == count-1 {
			least = rest
		}
		sizes[i] = r.arg(-1, total, least, rest)
		rest -= max(sizes[i], 0)
	}
	return sizes
}

// permutation reads count dims, window [-n-1, n], for a tensor of rank n;
// a byte outside the window names a dim not named yet, counted from the
// front or the back.
func (r *chainReader) permutation(count, n int) []int {
	dims := make([]int, count)
	unused := identityPerm(n)
	for i := range dims {
		b := r.next()
		if v := int(int8(b)); v >= -n-1 && v <= n || len(unused) == 0 {
			dims[i] = fold(b, -n-1, n, -n-1, n)
		} else {
			j := int(b) % len(unused)
			dims[i] = unused[j] - n*(int(b)/len(unused)%2)
		}
		if w, ok := wrapDim(dims[i], n); ok {
			unused = slices.DeleteFunc(unused, func(d int) bool { return d == w })
		}
	}
	return dims
}

// viewChainInput encodes a starting tensor and operations (each an opcode
// and its arguments) as chainReader reads them; tensor.End encodes as
// absentByte.
func viewChainInput(dt tensor.DType, shape []int, ops ...[]int) []byte {
	in := []int{int(dt), len(shape)}
	in = append(in, shape...)
	for _, op := range ops {
		in = append(in, op...)
	}
	out := make([]byte, len(in))
	for i, v := range in {
		out[i] = byte(int8(v))
		if v == tensor.End {
			out[i] = absentByte
		}
	}
	return out
}

// valueModulus bounds the values a tensor of dtype dt holds in the fuzz
// test: 0 to valueModulus-1 are all exact in dt.
func valueModulus(dt tensor.DType) int {
	switch dt {
	case tensor.Bool:
		return 2
	case tensor.Uint8, tensor.BFloat16:
		return 256
	}
	return 2048
}

// root decodes the starting tensor, whose elements are 0, 1, 2, … in
// row-major order (modulo valueModulus), and its model.
func (r *chainReader) root() (*tensor.Tensor, *chainModel) {
	dt := tensor.DType(r.int(0, 7))
	shape := make([]int, r.arg(0, 4, 1, 4))
	numel := 1
	for i := range shape {
		shape[i] = r.arg(0, 5, 1, 5)
		if numel*shape[i] > maxRootNumel {
			shape[i] = 1
		}
		numel *= shape[i]
	}
	m := &chainModel{shape: shape, vals: make([]float64, numel), slots: make([]int, numel)}
	for i := range m.vals {
		m.vals[i] = float64(i % valueModulus(dt))
		m.slots[i] = i
	}
	return newShaped(tensor.Float64, m.vals, shape).To(dt), m
}

// A chainStep is one decoded operation: how the package computes it, how
// the oracle does, and whether its results share the input's storage.
type chainStep struct {
	desc    string // the call, written as Go
	apply   func(x *tensor.Tensor) []*tensor.Tensor
	model   func(m *chainModel) ([]*chainModel, bool) // false if PyTorch refuses the step
	sharing sharing
	pick    int // the result the chain goes on with, modulo their number
}

// sharing says whether a step's results share the input's storage.
type sharing int

const (
	alwaysView       sharing = iota
	alwaysCopy               // a new storage
	viewIfViewable           // a view exactly when input.CanView(result shape)
	viewIfContiguous         // a view exactly when the input is contiguous
	selfIfContiguous         // the input itself when it is contiguous, else a copy
)

func one(y *tensor.Tensor) []*tensor.Tensor                 { return []*tensor.Tensor{y} }
func oneModel(m *chainModel, ok bool) ([]*chainModel, bool) { return []*chainModel{m}, ok }

// list formats ints as Go arguments, tensor.End by name.
func list(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
		if x == tensor.End {
			parts[i] = "tensor.End"
		}
	}
	return strings.Join(parts, ", ")
}

// step decodes the next operation. mem is the root's storage, which the
// oracle needs for AsStrided; it reports false for an AsStrided on a copy,
// whose storage layout is the package's choice, so the oracle skips it.
func (r *chainReader) step(m *chainModel, mem []float64) (chainStep, bool) {
	n := len(m.shape)
	dim := func() int { return r.arg(-n-1, n, -n, n-1) }
	// sizeOf is the size of dimension d, or 1 if there is none.
	sizeOf := func(d int) int {
		if w, ok := wrapDim(d, n); ok && n > 0 {
			return m.shape[w]
		}
		return 1
	}
	switch op := r.int(0, opCount-1); op {
	case opView, opReshape:
		shape := r.sizes(r.int(0, 4), len(m.vals))
		if op == opView {
			return chainStep{
				desc:  fmt.Sprintf("View(%s)", list(shape)),
				apply: func(x *tensor.Tensor) []*tensor.Tensor { return one(x.View(shape...)) },
				model: func(m *chainModel) ([]*chainModel, bool) { return oneModel(m.reshape(shape)) },
			}, true
		}
		return chainStep{
			desc:    fmt.Sprintf("Reshape(%s)", list(shape)),
			apply:   func(x *tensor.Tensor) []*tensor.Tensor { return one(x.Reshape(shape...)) },
			model:   func(m *chainModel) ([]*chainModel, bool) { return oneModel(m.reshape(shape)) },
			sharing: viewIfViewable,
		}, true
	case opTranspose:
		d0, d1 := dim(), dim()
		return chainStep{
			desc:  fmt.Sprintf("Transpose(%d, %d)", d0, d1),
			apply: func(x *tensor.Tensor) []*tensor.Tensor { return one(x.Transpose(d0, d1)) },
			model: func(m *chainModel) ([]*chainModel, bool) { return oneModel(m.transpose(d0, d1)) },
		}, true
	case opPermute:
		dims := r.permutation(r.arg(max(n-1, 0), n+1, n, n), n)
		return chainStep{
			desc:  fmt.Sprintf("Permute(%s)", list(dims)),
			apply: func(x *tensor.Tensor) []*tensor.Tensor { return one(x.Permute(dims...)) },
			model: func(m *chainModel) ([]*chainModel, bool) { return oneModel(m.permute(dims)) },
		}, true
	case opT:
		return chainStep{
			desc:  "T()",
			apply: func(x *tensor.Tensor) []*tensor.Tensor { return one(x.T()) },
			model: func(m *chainModel) ([]*chainModel, bool) { return oneModel(m.t()) },
		}, true
	case opMT:
		return chainStep{
			desc:  "MT()",
			apply: func(x *tensor.Tensor) []*tensor.Tensor { return one(x.MT()) },
			model: func(m *chainModel) ([]*chainModel, bool) { return oneModel(m.mt()) },
		}, true
	case opMoveDim:
		src, dst := dim(), dim()
		return chainStep{
			desc:  fmt.Sprintf("MoveDim(%d, %d)", src, dst),
			apply: func(x *tensor.Tensor) []*tensor.Tensor { return one(x.MoveDim(src, dst)) },
			model: func(m *chainModel) ([]*chainModel, bool) { return oneModel(m.moveDim(src, dst)) },
		}, true
	case opSqueeze:
		dims := r.args(r.int(0, 3), -n-1, n, -n, n-1)
		return chainStep{
			desc:  fmt.Sprintf("Squeeze(%s)", list(dims)),
			apply: func(x *tensor.Tensor) []*tensor.Tensor { return one(x.Squeeze(dims...)) },
			model: func(m *chainModel) ([]*chainModel, bool) { return oneModel(m.squeeze(dims)) },
		}, true
	case opUnsqueeze:
		d := r.arg(-n-2, n+1, -n-1, n)
		return chainStep{
			desc:  fmt.Sprintf("Unsqueeze(%d)", d),
			apply: func(x *tensor.Tensor) []*tensor.Tensor { return one(x.Unsqueeze(d)) },
			model: func(m *chainModel) ([]*chainModel, bool) { return oneModel(m.unsqueeze(d)) },
		}, true
	case opNarrow:
		d := dim()
		size := sizeOf(d)
		start := r.arg(-size-1, size+1, -size, size)
		length := r.arg(-1, size+1, 0, size-clampBound(start, size))
		return chainStep{
			desc:  fmt.Sprintf("Narrow(%d, %d, %d)", d, start, length),
			apply: func(x *tensor.Tensor) []*tensor.Tensor { return one(x.Narrow(d, start, length)) },
			model: func(m *chainModel) ([]*chainModel, bool) { return oneModel(m.narrow(d, start, length)) },
		}, true
	case opSlice:
		d := dim()
		size := sizeOf(d)
		start := r.int(-size-2, size+2)
		stop, ok := r.optional(-size-2, size+2, clampBound(start, size)+1, size+2)
		if !ok {
			stop = tensor.End
		}
		step := r.arg(-1, 3, 1, 3)
		return chainStep{
			desc:  fmt.Sprintf("Slice(%s)", list([]int{d, start, stop, step})),
			apply: func(x *tensor.Tensor) []*tensor.Tensor { return one(x.Slice(d, start, stop, step)) },
			model: func(m *chainModel) ([]*chainModel, bool) { return oneModel(m.slice(d, start, stop, step)) },
		}, true
	case opSelect:
		d := dim()
		size := sizeOf(d)
		i := r.arg(-size-1, size, -size, size-1)
		return chainStep{
			desc:  fmt.Sprintf("Select(%d, %d)", d, i),
			apply: func(x *tensor.Tensor) []*tensor.Tensor { return one(x.Select(d, i)) },
			model: func(m *chainModel) ([]*chainModel, bool) { return oneModel(m.selectAt(d, i)) },
		}, true
	case opUnfold:
		d := dim()
		size, step := r.arg(-1, 6, 0, min(sizeOf(d), 6)), r.arg(0, 3, 1, 3)
		return chainStep{
			desc:  fmt.Sprintf("Unfold(%d, %d, %d)", d, size, step),
			apply: func(x *tensor.Tensor) []*tensor.Tensor { return one(x.Unfold(d, size, step)) },
			model: func(m *chainModel) ([]*chainModel, bool) { return oneModel(m.unfold(d, size, step)) },
		}, true
	case opDiagonal:
		offset, d1, d2 := r.int(-3, 3), dim(), dim()
		return chainStep{
			desc:  fmt.Sprintf("Diagonal(%d, %d, %d)", offset, d1, d2),
			apply: func(x *tensor.Tensor) []*tensor.Tensor { return one(x.Diagonal(offset, d1, d2)) },
			model: func(m *chainModel) ([]*chainModel, bool) { return oneModel(m.diagonal(offset, d1, d2)) },
		}, true
	case opExpand:
		sizes := make([]int, r.arg(max(n-1, 0), n+2, n, n+2))
		lead := len(sizes) - n
		total := max(len(m.vals), 1)
		for i := range sizes {
			switch {
			case i < lead: // a new dimension
				sizes[i] = r.arg(-2, 5, 1, 3)
			case m.shape[i-lead] == 1:
				sizes[i] = r.arg(-2, 5, 1, 4)
			default:
				sizes[i] = r.arg(-2, 5, -1, -1)
			}
			if grows := i < lead || m.shape[i-lead] == 1; grows && sizes[i] > 1 {
				if total*sizes[i] > maxNumel {
					sizes[i] = 1
				} else {
					total *= sizes[i]
				}
			}
		}
		return chainStep{
			desc:  fmt.Sprintf("Expand(%s)", list(sizes)),
			apply: func(x *tensor.Tensor) []*tensor.Tensor { return one(x.Expand(sizes...)) },
			model: func(m *chainModel) ([]*chainModel, bool) { return oneModel(m.expand(sizes)) },
		}, true
	case opAsStrided:
		k := r.int(0, 3)
		shape, strides, offset := r.args(k, 0, 3, 0, 3), r.args(k, -1, 4, 0, 4), r.arg(-1, 6, 0, 6)
		return chainStep{
			desc: fmt.Sprintf("AsStrided(tensor.Shape{%s}, tensor.Strides{%s}, %d)", list(shape), list(strides), offset),
			apply: func(x *tensor.Tensor) []*tensor.Tensor {
				return one(x.AsStrided(shape, strides, offset))
			},
			model: func(m *chainModel) ([]*chainModel, bool) {
				return oneModel(asStrided(mem, shape, strides, offset))
			},
		}, m.slots != nil
	case opSplit:
		return r.split(dim, sizeOf), true
	case opUnflatten:
		d := dim()
		sizes := r.sizes(r.arg(0, 3, 1, 3), sizeOf(d))
		return chainStep{
			desc:  fmt.Sprintf("Unflatten(%d, %s)", d, list(sizes)),
			apply: func(x *tensor.Tensor) []*tensor.Tensor { return one(x.Unflatten(d, sizes...)) },
			model: func(m *chainModel) ([]*chainModel, bool) { return oneModel(m.unflatten(d, sizes)) },
		}, true
	case opFlatten:
		args := r.args(r.int(0, 2), -n-1, n, -n, n-1)
		return chainStep{
			desc:    fmt.Sprintf("Flatten(%s)", list(args)),
			apply:   func(x *tensor.Tensor) []*tensor.Tensor { return one(x.Flatten(args...)) },
			model:   func(m *chainModel) ([]*chainModel, bool) { return oneModel(m.flatten(args)) },
			sharing: viewIfViewable,
		}, true
	case opRavel:
		return chainStep{
			desc:    "Ravel()",
			apply:   func(x *tensor.Tensor) []*tensor.Tensor { return one(x.Ravel()) },
			model:   func(m *chainModel) ([]*chainModel, bool) { return oneModel(m.reshape([]int{-1})) },
			sharing: viewIfContiguous,
		}, true
	case opContiguous:
		return chainStep{
			desc:    "Contiguous()",
			apply:   func(x *tensor.Tensor) []*tensor.Tensor { return one(x.Contiguous()) },
			model:   func(m *chainModel) ([]*chainModel, bool) { return oneModel(m.same(), true) },
			sharing: selfIfContiguous,
		}, true
	case opClone:
		return chainStep{
			desc:    "Clone()",
			apply:   func(x *tensor.Tensor) []*tensor.Tensor { return one(x.Clone()) },
			model:   func(m *chainModel) ([]*chainModel, bool) { return oneModel(m.same(), true) },
			sharing: alwaysCopy,
		}, true
	case opRepeat, opTile:
		lo, hi, least := max(n-1, 0), n+2, n // Repeat needs at least n reps
		if op == opTile {
			lo, hi, least = 0, n+1, 0
		}
		reps := r.args(r.arg(lo, hi, least, hi), -1, 3, 1, 2)
		total := max(len(m.vals), 1)
		for i, rep := range reps {
			if total*rep > maxNumel {
				reps[i] = 1
			} else if rep > 0 {
				total *= rep
			}
		}
		if op == opTile {
			return chainStep{
				desc:    fmt.Sprintf("Tile(%s)", list(reps)),
				apply:   func(x *tensor.Tensor) []*tensor.Tensor { return one(x.Tile(reps...)) },
				model:   func(m *chainModel) ([]*chainModel, bool) { return oneModel(m.tile(reps)) },
				sharing: alwaysCopy,
			}, true
		}
		return chainStep{
			desc:    fmt.Sprintf("Repeat(%s)", list(reps)),
			apply:   func(x *tensor.Tensor) []*tensor.Tensor { return one(x.Repeat(reps...)) },
			model:   func(m *chainModel) ([]*chainModel, bool) { return oneModel(m.repeat(reps)) },
			sharing: alwaysCopy,
		}, true
	case opFlattenCopy:
		return chainStep{
			desc:    "FlattenCopy()",
			apply:   func(x *tensor.Tensor) []*tensor.Tensor { return one(x.FlattenCopy()) },
			model:   func(m *chainModel) ([]*chainModel, bool) { return oneModel(m.reshape([]int{-1})) },
			sharing: alwaysCopy,
		}, true
	case opIndex:
		parts := r.indexParts(n)
		texts := make([]string, len(parts))
		share := alwaysView
		for i, p := range parts {
			texts[i] = p.text
			if p.kind == partList {
				share = alwaysCopy
			}
		}
		spec := strings.Join(texts, ", ")
		return chainStep{
			desc:    fmt.Sprintf("Index(%q)", spec),
			apply:   func(x *tensor.Tensor) []*tensor.Tensor { return one(x.Index(spec)) },
			model:   func(m *chainModel) ([]*chainModel, bool) { return oneModel(m.index(parts)) },
			sharing: share,
		}, true
	case opIndexSelect:
		d := dim()
		size := sizeOf(d)
		picks := r.args(r.int(0, 4), -1, size, 0, size-1)
		index, kind := tensor.New(picks).To(tensor.Int64), "tensor.Int64"
		if r.int(0, 1) == 1 {
			index, kind = index.To(tensor.Int32), "tensor.Int32"
		}
		return chainStep{
			desc:    fmt.Sprintf("IndexSelect(%d, tensor.New([]int{%s}).To(%s))", d, list(picks), kind),
			apply:   func(x *tensor.Tensor) []*tensor.Tensor { return one(x.IndexSelect(d, index)) },
			model:   func(m *chainModel) ([]*chainModel, bool) { return oneModel(m.indexSelect(d, picks)) },
			sharing: alwaysCopy,
		}, true
	}
	panic("unreachable: the opcode is folded into range")
}

// split decodes an opSplit step: the call, its arguments and which result
// to go on with.
func (r *chainReader) split(dim func() int, sizeOf func(int) int) chainStep {
	kind := r.int(0, splitUnbind)
	pick := r.int(0, 127)
	var st chainStep
	switch kind {
	case splitChunk, splitSize, splitSections:
		arg, d := r.arg(-1, 4, 1, 4), dim()
		name, call, model := "Chunk", (*tensor.Tensor).Chunk, (*chainModel).chunk
		if kind == splitSize {
			name, call, model = "Split", (*tensor.Tensor).Split, (*chainModel).split
		} else if kind == splitSections {
			name, call, model = "TensorSplit", (*tensor.Tensor).TensorSplit, (*chainModel).tensorSplit
		}
		st = chainStep{
			desc:  fmt.Sprintf("%s(%d, %d)", name, arg, d),
			apply: func(x *tensor.Tensor) []*tensor.Tensor { return call(x, arg, d) },
			model: func(m *chainModel) ([]*chainModel, bool) { return model(m, arg, d) },
		}
	case splitSizes, splitAt:
		count := r.int(0, 3)
		d := dim()
		size := sizeOf(d)
		if kind == splitSizes {
			sizes := r.partition(count, size)
			st = chainStep{
				desc:  fmt.Sprintf("SplitSizes([]int{%s}, %d)", list(sizes), d),
				apply: func(x *tensor.Tensor) []*tensor.Tensor { return x.SplitSizes(sizes, d) },
				model: func(m *chainModel) ([]*chainModel, bool) { return m.splitSizes(sizes, d) },
			}
			break
		}
		indices := r.args(count, -size-1, size+1, -size-1, size+1)
		st = chainStep{
			desc:  fmt.Sprintf("TensorSplitAt([]int{%s}, %d)", list(indices), d),
			apply: func(x *tensor.Tensor) []*tensor.Tensor { return x.TensorSplitAt(indices, d) },
			model: func(m *chainModel) ([]*chainModel, bool) { return m.tensorSplitAt(indices, d) },
		}
	case splitUnbind:
		d := dim()
		st = chainStep{
			desc:  fmt.Sprintf("Unbind(%d)", d),
			apply: func(x *tensor.Tensor) []*tensor.Tensor { return x.Unbind(d) },
			model: func(m *chainModel) ([]*chainModel, bool) { return m.unbind(d) },
		}
	}
	st.pick = pick
	st.desc += fmt.Sprintf("[%d]", pick)
	return st
}

// An indexPart is one comma-separated item of an Index expression.
type indexPart struct {
	kind              int
	start, stop, step int   // an integer is start; a slice's omitted bounds are 0, tensor.End, 1
	list              []int // the integers of a list
	text              string
}

// indexParts decodes the items of an Index expression for a tensor of
// rank n.
func (r *chainReader) indexParts(n int) []indexPart {
	parts := make([]indexPart, r.int(0, n+2))
	for i := range parts {
		p := &parts[i]
		p.kind = r.int(0, partJunk)
		switch p.kind {
		case partInt:
			p.start = r.int(-5, 5)
			p.text = strconv.Itoa(p.start)
		case partSlice:
			p.start, p.stop, p.step = 0, tensor.End, 1
			var bounds [3]string
			for j, bound := range []*int{&p.start, &p.stop, &p.step} {
				lo, hi, flo := -6, 6, -6
				if j == 2 {
					lo, hi, flo = -1, 3, 1
				}
				if v, ok := r.optional(lo, hi, flo, hi); ok {
					*bound, bounds[j] = v, strconv.Itoa(v)
				}
			}
			p.text = bounds[0] + ":" + bounds[1]
			if bounds[2] != "" {
				p.text += ":" + bounds[2]
			}
		case partNone:
			p.text = "None"
		case partEllipsis:
			p.text = "..."
		case partList:
			p.list = r.args(r.int(0, 3), -5, 5, -5, 5)
			p.text = "[" + list(p.list) + "]"
		case partJunk:
			p.text = junkIndexItems[r.int(0, len(junkIndexItems)-1)]
		}
	}
	return parts
}

// A chainRun checks one fuzz input; chain describes the steps so far.
type chainRun struct {
	t     *testing.T
	chain []string
}

func (c *chainRun) fatalf(format string, args ...any) {
	c.t.Helper()
	c.t.Fatalf("chain: %s\n%s", strings.Join(c.chain, " → "), fmt.Sprintf(format, args...))
}

// runViewChain decodes data, runs the chain and checks every step.
func runViewChain(t *testing.T, data []byte) {
	r := &chainReader{data: data}
	root, rootModel := r.root()
	c := &chainRun{t: t, chain: []string{fmt.Sprintf("%v%v", root.DType(), root.Shape())}}
	c.check("root", root, rootModel)
	x, m := root, rootModel
	for range maxChainSteps {
		if r.done() || len(m.vals) > maxNumel {
			break
		}
		st, ok := r.step(m, rootModel.vals)
		if !ok {
			continue
		}
		c.chain = append(c.chain, st.desc)
		ys, ms, ok := c.run(st, x, m, root)
		if !ok || len(ys) == 0 {
			break
		}
		x, m = ys[st.pick%len(ys)], ms[st.pick%len(ys)]
	}
	c.checkWrite(x, m, root, rootModel, len(data))
	t.Logf("chain: %s", strings.Join(c.chain, " → "))
}

// run applies one step to x, whose model is m, and checks the results. It
// reports false if the package refused the step.
func (c *chainRun) run(st chainStep, x *tensor.Tensor, m *chainModel, root *tensor.Tensor) ([]*tensor.Tensor, []*chainModel, bool) {
	geometry := func() string { return fmt.Sprint(x.Shape(), x.Strides(), x.StorageOffset()) }
	before := geometry()
	var ys []*tensor.Tensor
	if p, stack := catchPanic(func() { ys = st.apply(x) }); p != nil {
		if _, ok := p.(*tensor.Error); !ok {
			c.fatalf("panic with %T, not *tensor.Error: %v\n%s", p, p, stack)
		}
		c.t.Logf("refused: %v", p)
		return nil, nil, false
	}
	ms, ok := st.model(m)
	if !ok {
		c.fatalf("the package accepted the last step, which PyTorch refuses")
	}
	if after := geometry(); after != before {
		c.fatalf("the input's shape, strides, offset changed from %s to %s", before, after)
	}
	if len(ys) != len(ms) {
		c.fatalf("%d results, want %d", len(ys), len(ms))
	}
	for i, y := range ys {
		what := fmt.Sprintf("result %d", i)
		c.checkSharing(what, st.sharing, x, y, ms[i])
		if !y.SharesStorage(root) {
			ms[i].slots = nil
		}
		c.check(what, y, ms[i])
	}
	return ys, ms, true
}

// catchPanic calls f and returns the value it panicked with, if any, and
// the stack at the panic.
func catchPanic(f func()) (p any, stack []byte) {
	defer func() {
		if p = recover(); p != nil {
			stack = debug.Stack()
		}
	}()
	f()
	return nil, nil
}

// addressesByHand returns the storage slot of each element of y in
// row-major order: offset + Σ iₖ·strides[k].
func addressesByHand(y *tensor.Tensor) []int {
	shape, strides := y.Shape(), y.Strides()
	addrs := make([]int, y.Numel())
	for k := range addrs {
		addrs[k] = y.StorageOffset()
		for d, i := range unravel(k, shape) {
			addrs[k] += i * strides[d]
		}
	}
	return addrs
}

// contiguousByHand is PyTorch's rule: a tensor is contiguous if it has no
// elements or if, ignoring dimensions of size 1, its strides are row-major.
func contiguousByHand(shape, strides []int) bool {
	if product(shape) == 0 {
		return true
	}
	expected := 1
	for d := len(shape) - 1; d >= 0; d-- {
		if shape[d] == 1 {
			continue
		}
		if strides[d] != expected {
			return false
		}
		expected *= shape[d]
	}
	return true
}

// check compares y with its model.
func (c *chainRun) check(what string, y *tensor.Tensor, m *chainModel) {
	c.t.Helper()
	shape, strides := []int(y.Shape()), []int(y.Strides())
	if !slices.Equal(shape, m.shape) || len(strides) != len(shape) {
		c.fatalf("%s: shape %v, strides %v; want shape %v", what, shape, strides, m.shape)
	}
	storage := y.Storage()
	for k, addr := range addressesByHand(y) {
		idx := unravel(k, shape)
		if addr < 0 || addr >= storage.Len() {
			c.fatalf("%s: element %v is at slot %d, outside the storage of %d", what, idx, addr, storage.Len())
		}
		if m.slots != nil && addr != m.slots[k] {
			c.fatalf("%s: element %v is at slot %d, want the root's slot %d", what, idx, addr, m.slots[k])
		}
		if got := storage.At(addr); got != m.vals[k] {
			c.fatalf("%s: element %v: slot %d holds %v, want %v", what, idx, addr, got, m.vals[k])
		}
		if got := y.At(idx...); got != m.vals[k] {
			c.fatalf("%s: At%v = %v, want %v", what, idx, got, m.vals[k])
		}
	}
	if got := y.Float64s(); !slices.Equal(got, m.vals) {
		c.fatalf("%s: Float64s() = %v, want %v", what, got, m.vals)
	}
	if got, want := y.IsContiguous(), contiguousByHand(shape, strides); got != want {
		c.fatalf("%s: IsContiguous() = %v with shape %v, strides %v", what, got, shape, strides)
	}
}

// checkSharing checks whether y, a result of a step on x, shares x's
// storage as the step promises.
func (c *chainRun) checkSharing(what string, rule sharing, x, y *tensor.Tensor, m *chainModel) {
	want := rule == alwaysView
	switch rule {
	case viewIfViewable:
		want = x.CanView(m.shape...)
	case viewIfContiguous, selfIfContiguous:
		want = contiguousByHand(x.Shape(), x.Strides())
	}
	if got := y.SharesStorage(x); got != want {
		c.fatalf("%s: SharesStorage(input) = %v, want %v", what, got, want)
	}
	if rule == selfIfContiguous && (y == x) != want {
		c.fatalf("%s: returned its input: %v, want %v", what, y == x, want)
	}
}

// checkWrite sets element k (modulo its size) of x, whose model is m, and
// checks that exactly the storage slot it reads changed: in the storage, in
// every element of x that reads that slot, and, while x reads the root's
// storage, in the root.
func (c *chainRun) checkWrite(x *tensor.Tensor, m *chainModel, root *tensor.Tensor, rootModel *chainModel, k int) {
	if len(m.vals) == 0 {
		return
	}
	k %= len(m.vals)
	idx := unravel(k, m.shape)
	addrs := addressesByHand(x)
	storage := x.Storage()
	before := make([]float64, storage.Len())
	for i := range before {
		before[i] = storage.At(i)
	}
	v := float64(valueModulus(x.DType())-1) - before[addrs[k]]
	set := fmt.Sprint(v)
	if len(idx) > 0 {
		set += ", " + list(idx)
	}
	c.chain = append(c.chain, "Set("+set+")")
	if p, stack := catchPanic(func() { x.Set(v, idx...) }); p != nil {
		c.fatalf("panic: %v\n%s", p, stack)
	}
	for i, old := range before {
		want := old
		if i == addrs[k] {
			want = v
		}
		if got := storage.At(i); got != want {
			c.fatalf("slot %d holds %v after the write to slot %d, want %v", i, got, addrs[k], want)
		}
	}
	want := slices.Clone(m.vals)
	for j, addr := range addrs {
		if addr == addrs[k] {
			want[j] = v
		}
	}
	if got := x.Float64s(); !slices.Equal(got, want) {
		c.fatalf("after the write: Float64s() = %v, want %v", got, want)
	}
	if m.slots != nil {
		want := slices.Clone(rootModel.vals)
		want[addrs[k]] = v
		if got := root.Float64s(); !slices.Equal(got, want) {
			c.fatalf("after the write: the root's Float64s() = %v, want %v", got, want)
		}
	}
}

// A chainModel is the oracle's picture of a tensor: its shape and its values
// in row-major order. While the tensor reads the root's storage, slots holds
// the storage slot of each value: a view reads the same slot as the element
// it shows. After a copy the storage layout is the package's choice, and
// slots is nil.
//
// Each operation follows PyTorch's rules with loops over logical indices,
// and reports false where PyTorch refuses the call. A model is never
// changed after it is made, except that the runner drops slots.
type chainModel struct {
	shape []int
	vals  []float64
	slots []int
}

// product returns the number of elements of a shape.
func product(shape []int) int {
	n := 1
	for _, s := range shape {
		n *= s
	}
	return n
}

// unravel returns the index of the k-th element of shape in row-major
// order.
func unravel(k int, shape []int) []int {
	idx := make([]int, len(shape))
	for d := len(shape) - 1; d >= 0; d-- {
		idx[d] = k % shape[d]
		k /= shape[d]
	}
	return idx
}

// ravel returns the row-major position of idx in shape.
func ravel(idx, shape []int) int {
	k := 0
	for d, i := range idx {
		if i < 0 || i >= shape[d] {
			panic(fmt.Sprintf("oracle bug: index %v outside shape %v", idx, shape))
		}
		k = k*shape[d] + i
	}
	return k
}

// wrapDim resolves a negative dim for a tensor of rank n, which must lie in
// [-n, n); a 0-d tensor accepts 0 and -1, as in PyTorch.
func wrapDim(d, n int) (int, bool) {
	n = max(n, 1)
	if d < -n || d >= n {
		return 0, false
	}
	if d < 0 {
		d += n
	}
	return d, true
}

// gather returns the model of a tensor of the given shape whose element at
// index out is m's element at from(out).
func (m *chainModel) gather(shape []int, from func(out []int) []int) *chainModel {
	g := &chainModel{shape: shape, vals: make([]float64, product(shape))}
	if m.slots != nil {
		g.slots = make([]int, len(g.vals))
	}
	for k := range g.vals {
		j := ravel(from(unravel(k, shape)), m.shape)
		g.vals[k] = m.vals[j]
		if g.slots != nil {
			g.slots[k] = m.slots[j]
		}
	}
	return g
}

// same returns an equal model: Contiguous, Clone.
func (m *chainModel) same() *chainModel {
	return m.gather(m.shape, func(out []int) []int { return out })
}

// inferShape resolves a -1 in spec as PyTorch's infer_size does, and
// reports whether the shape holds numel elements.
func inferShape(spec []int, numel int) ([]int, bool) {
	shape := slices.Clone(spec)
	infer, known := -1, 1
	for i, s := range spec {
		switch {
		case s == -1 && infer >= 0:
			return nil, false
		case s == -1:
			infer = i
		case s < 0:
			return nil, false
		default:
			known *= s
		}
	}
	if infer < 0 {
		return shape, known == numel
	}
	if known == 0 || numel%known != 0 {
		return nil, false
	}
	shape[infer] = numel / known
	return shape, true
}

// reshape keeps the values in order under a new shape: View, Reshape,
// Ravel, FlattenCopy.
func (m *chainModel) reshape(spec []int) (*chainModel, bool) {
	shape, ok := inferShape(spec, len(m.vals))
	if !ok {
		return nil, false
	}
	return &chainModel{shape: shape, vals: m.vals, slots: m.slots}, true
}

// permute makes dimension i of the result dimension dims[i] of m.
func (m *chainModel) permute(dims []int) (*chainModel, bool) {
	n := len(m.shape)
	if len(dims) != n {
		return nil, false
	}
	perm, seen := make([]int, n), make([]bool, n)
	for i, d := range dims {
		w, ok := wrapDim(d, n)
		if !ok || seen[w] {
			return nil, false
		}
		perm[i], seen[w] = w, true
	}
	shape := make([]int, n)
	for i, p := range perm {
		shape[i] = m.shape[p]
	}
	return m.gather(shape, func(out []int) []int {
		in := make([]int, n)
		for i, p := range perm {
			in[p] = out[i]
		}
		return in
	}), true
}

// identityPerm returns 0, 1, …, n-1.
func identityPerm(n int) []int {
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	return perm
}

func (m *chainModel) transpose(d0, d1 int) (*chainModel, bool) {
	n := len(m.shape)
	a, okA := wrapDim(d0, n)
	b, okB := wrapDim(d1, n)
	if !okA || !okB {
		return nil, false
	}
	if n == 0 {
		return m.same(), true
	}
	perm := identityPerm(n)
	perm[a], perm[b] = b, a
	return m.permute(perm)
}

func (m *chainModel) t() (*chainModel, bool) {
	if len(m.shape) > 2 { // PyTorch's t() refuses; ReverseDims is the reversal
		return nil, false
	}
	perm := identityPerm(len(m.shape))
	slices.Reverse(perm)
	return m.permute(perm)
}

func (m *chainModel) mt() (*chainModel, bool) {
	switch len(m.shape) {
	case 0:
		return m.same(), true
	case 1:
		return nil, false
	}
	return m.transpose(-2, -1)
}

func (m *chainModel) moveDim(src, dst int) (*chainModel, bool) {
	n := len(m.shape)
	s, okS := wrapDim(src, n)
	d, okD := wrapDim(dst, n)
	if !okS || !okD {
		return nil, false
	}
	if n == 0 {
		return m.same(), true
	}
	order := slices.DeleteFunc(identityPerm(n), func(i int) bool { return i == s })
	return m.permute(slices.Insert(order, d, s))
}

// squeeze drops the listed dimensions of size 1, or all of them if none
// are listed. PyTorch refuses a dimension listed twice.
func (m *chainModel) squeeze(dims []int) (*chainModel, bool) {
	n := len(m.shape)
	drop, seen := make([]bool, max(n, 1)), make([]bool, max(n, 1))
	for _, d := range dims {
		w, ok := wrapDim(d, n)
		if !ok || seen[w] {
			return nil, false
		}
		seen[w] = true
		drop[w] = n > 0 && m.shape[w] == 1
	}
	if len(dims) == 0 {
		for d, size := range m.shape {
			drop[d] = size == 1
		}
	}
	var shape []int
	for d, size := range m.shape {
		if !drop[d] {
			shape = append(shape, size)
		}
	}
	return m.gather(shape, func(out []int) []int {
		in := make([]int, n) // 0 in each dropped dimension
		j := 0
		for d := range in {
			if !drop[d] {
				in[d] = out[j]
				j++
			}
		}
		return in
	}), true
}

func (m *chainModel) unsqueeze(d int) (*chainModel, bool) {
	w, ok := wrapDim(d, len(m.shape)+1)
	if !ok {
		return nil, false
	}
	shape := slices.Insert(slices.Clone(m.shape), w, 1)
	return m.gather(shape, func(out []int) []int { return slices.Delete(slices.Clone(out), w, w+1) }), true
}

// pickAlong returns the entries picks of dimension d (which must be valid),
// in that order.
func (m *chainModel) pickAlong(d int, picks []int) *chainModel {
	shape := slices.Clone(m.shape)
	shape[d] = len(picks)
	return m.gather(shape, func(out []int) []int {
		in := slices.Clone(out)
		in[d] = picks[out[d]]
		return in
	})
}

// clampBound resolves a Python slice bound for a dimension of the given
// size: negative counts from the end, then it is clamped to [0, size].
func clampBound(i, size int) int {
	if i < 0 {
		i += size
	}
	return min(max(i, 0), size)
}

// slice is x[..., start:stop:step, ...] along dimension d.
func (m *chainModel) slice(d, start, stop, step int) (*chainModel, bool) {
	n := len(m.shape)
	w, ok := wrapDim(d, n)
	if n == 0 || !ok || step <= 0 {
		return nil, false
	}
	size := m.shape[w]
	picks := []int{}
	for i := clampBound(start, size); i < clampBound(stop, size); i += step {
		picks = append(picks, i)
	}
	return m.pickAlong(w, picks), true
}

// narrow is torch.narrow: start may be negative, or equal to the size.
func (m *chainModel) narrow(d, start, length int) (*chainModel, bool) {
	n := len(m.shape)
	w, ok := wrapDim(d, n)
	if n == 0 || !ok {
		return nil, false
	}
	size := m.shape[w]
	if start != size {
		if start, ok = wrapDim(start, size); !ok {
			return nil, false
		}
	}
	if length < 0 || start+length > size {
		return nil, false
	}
	return m.slice(w, start, start+length, 1)
}

// selectAt is x[..., i, ...] along dimension d, which disappears.
func (m *chainModel) selectAt(d, i int) (*chainModel, bool) {
	n := len(m.shape)
	w, ok := wrapDim(d, n)
	if n == 0 || !ok {
		return nil, false
	}
	size := m.shape[w]
	if i < -size || i >= size {
		return nil, false
	}
	if i < 0 {
		i += size
	}
	shape := slices.Delete(slices.Clone(m.shape), w, w+1)
	return m.gather(shape, func(out []int) []int { return slices.Insert(slices.Clone(out), w, i) }), true
}

// unfold replaces dimension d by its windows of the given size taken every
// step entries, and walks each window along a new last dimension.
func (m *chainModel) unfold(d, size, step int) (*chainModel, bool) {
	n := len(m.shape)
	w, ok := wrapDim(d, n)
	length := 1
	if n > 0 {
		length = m.shape[w]
	}
	if !ok || size < 0 || size > length || step <= 0 {
		return nil, false
	}
	windows := 0
	for start := 0; start+size <= length; start += step {
		windows++
	}
	if n == 0 {
		return m.gather([]int{size}, func([]int) []int { return nil }), true
	}
	shape := append(slices.Clone(m.shape), size)
	shape[w] = windows
	return m.gather(shape, func(out []int) []int {
		in := slices.Clone(out[:n])
		in[w] = out[w]*step + out[n]
		return in
	}), true
}

// diagonal takes the entries (row+i, col+i) of dimensions d1 and d2, which
// are removed, into a new last dimension.
func (m *chainModel) diagonal(offset, d1, d2 int) (*chainModel, bool) {
	n := len(m.shape)
	a, okA := wrapDim(d1, n)
	b, okB := wrapDim(d2, n)
	if !okA || !okB || a == b {
		return nil, false
	}
	row, col := max(-offset, 0), max(offset, 0)
	length := 0
	for row+length < m.shape[a] && col+length < m.shape[b] {
		length++
	}
	var shape []int
	for d, size := range m.shape {
		if d != a && d != b {
			shape = append(shape, size)
		}
	}
	shape = append(shape, length)
	return m.gather(shape, func(out []int) []int {
		i := out[len(out)-1]
		in := make([]int, n)
		j := 0
		for d := range in {
			switch d {
			case a:
				in[d] = row + i
			case b:
				in[d] = col + i
			default:
				in[d] = out[j]
				j++
			}
		}
		return in
	}), true
}

// expand stretches dimensions of size 1 and adds leading ones; -1 keeps an
// existing size.
func (m *chainModel) expand(sizes []int) (*chainModel, bool) {
	n := len(m.shape)
	lead := len(sizes) - n
	if lead < 0 {
		return nil, false
	}
	shape := make([]int, len(sizes))
	for i, s := range sizes {
		if i >= lead {
			have := m.shape[i-lead]
			if s == -1 {
				s = have
			}
			if s != have && have != 1 {
				return nil, false
			}
		}
		if s < 0 {
			return nil, false
		}
		shape[i] = s
	}
	return m.gather(shape, func(out []int) []int {
		in := make([]int, n) // 0 in each stretched dimension
		for d := range in {
			if m.shape[d] != 1 {
				in[d] = out[lead+d]
			}
		}
		return in
	}), true
}

// asStrided reads the root's storage mem at offset + Σ iₖ·strides[k]; PyTorch
// refuses negative strides and any element outside the storage.
func asStrided(mem []float64, shape, strides []int, offset int) (*chainModel, bool) {
	if len(shape) != len(strides) || offset < 0 {
		return nil, false
	}
	for d := range shape {
		if shape[d] < 0 || strides[d] < 0 {
			return nil, false
		}
	}
	m := &chainModel{shape: slices.Clone(shape), vals: make([]float64, product(shape)), slots: make([]int, product(shape))}
	for k := range m.vals {
		slot := offset
		for d, i := range unravel(k, shape) {
			slot += i * strides[d]
		}
		if slot >= len(mem) {
			return nil, false
		}
		m.vals[k], m.slots[k] = mem[slot], slot
	}
	return m, true
}

// splitSizes cuts dimension d into consecutive pieces of the given sizes.
func (m *chainModel) splitSizes(sizes []int, d int) ([]*chainModel, bool) {
	n := len(m.shape)
	w, ok := wrapDim(d, n)
	if n == 0 || !ok {
		return nil, false
	}
	total := 0
	for _, s := range sizes {
		if s < 0 {
			return nil, false
		}
		total += s
	}
	if total != m.shape[w] {
		return nil, false
	}
	var pieces []*chainModel
	start := 0
	for _, s := range sizes {
		piece, _ := m.slice(w, start, start+s, 1)
		pieces = append(pieces, piece)
		start += s
	}
	return pieces, true
}

// split cuts dimension d into pieces of size entries, the last one
// shorter; an empty dimension gives one empty piece.
func (m *chainModel) split(size, d int) ([]*chainModel, bool) {
	n := len(m.shape)
	w, ok := wrapDim(d, n)
	if n == 0 || !ok || size < 0 {
		return nil, false
	}
	length := m.shape[w]
	if size == 0 && length != 0 {
		return nil, false
	}
	sizes := []int{}
	for start := 0; start < length; start += size {
		sizes = append(sizes, min(size, length-start))
	}
	if len(sizes) == 0 {
		sizes = []int{0}
	}
	return m.splitSizes(sizes, w)
}

// chunk cuts dimension d into at most chunks pieces of ⌈size/chunks⌉; an
// empty dimension gives chunks empty pieces.
func (m *chainModel) chunk(chunks, d int) ([]*chainModel, bool) {
	n := len(m.shape)
	w, ok := wrapDim(d, n)
	if n == 0 || !ok || chunks <= 0 {
		return nil, false
	}
	size := m.shape[w]
	if size == 0 {
		return m.splitSizes(make([]int, chunks), w)
	}
	return m.split((size+chunks-1)/chunks, w)
}

// tensorSplit cuts dimension d into exactly sections pieces whose sizes
// differ by at most one, the larger first.
func (m *chainModel) tensorSplit(sections, d int) ([]*chainModel, bool) {
	n := len(m.shape)
	w, ok := wrapDim(d, n)
	if n == 0 || !ok || sections <= 0 {
		return nil, false
	}
	sizes := make([]int, sections)
	for i := range sizes {
		sizes[i] = m.shape[w] / sections
		if i < m.shape[w]%sections {
			sizes[i]++
		}
	}
	return m.splitSizes(sizes, w)
}

// tensorSplitAt cuts dimension d before each index, with Python's slice
// rules: x[:i₀], x[i₀:i₁], …, x[iₙ:].
func (m *chainModel) tensorSplitAt(indices []int, d int) ([]*chainModel, bool) {
	n := len(m.shape)
	w, ok := wrapDim(d, n)
	if n == 0 || !ok {
		return nil, false
	}
	var pieces []*chainModel
	start := 0
	for _, stop := range append(slices.Clone(indices), tensor.End) {
		piece, _ := m.slice(w, start, stop, 1)
		pieces = append(pieces, piece)
		start = stop
	}
	return pieces, true
}

// unbind selects every entry of dimension d.
func (m *chainModel) unbind(d int) ([]*chainModel, bool) {
	n := len(m.shape)
	w, ok := wrapDim(d, n)
	if n == 0 || !ok {
		return nil, false
	}
	pieces := []*chainModel{}
	for i := range m.shape[w] {
		piece, _ := m.selectAt(w, i)
		pieces = append(pieces, piece)
	}
	return pieces, true
}

// unflatten splits dimension d into sizes, one of which may be -1. PyTorch
// refuses a 0-d tensor.
func (m *chainModel) unflatten(d int, sizes []int) (*chainModel, bool) {
	n := len(m.shape)
	w, ok := wrapDim(d, n)
	if n == 0 || !ok || len(sizes) == 0 {
		return nil, false
	}
	inner, ok := inferShape(sizes, m.shape[w])
	if !ok {
		return nil, false
	}
	return m.reshape(slices.Concat(m.shape[:w], inner, m.shape[w+1:]))
}

// flatten merges dimensions start to end (by default all) into one; a 0-d
// tensor becomes 1-d.
func (m *chainModel) flatten(args []int) (*chainModel, bool) {
	start, end := 0, -1
	if len(args) > 0 {
		start = args[0]
	}
	if len(args) > 1 {
		end = args[1]
	}
	n := len(m.shape)
	s, okS := wrapDim(start, n)
	e, okE := wrapDim(end, n)
	if !okS || !okE || s > e {
		return nil, false
	}
	if n == 0 {
		return m.reshape([]int{1})
	}
	return m.reshape(slices.Concat(m.shape[:s], []int{product(m.shape[s : e+1])}, m.shape[e+1:]))
}

// repeat tiles m reps[i] times along each dimension, reps being at least
// as long as the shape (m gains leading dimensions of size 1).
func (m *chainModel) repeat(reps []int) (*chainModel, bool) {
	n := len(m.shape)
	lead := len(reps) - n
	if lead < 0 {
		return nil, false
	}
	shape := make([]int, len(reps))
	for i, r := range reps {
		if r < 0 {
			return nil, false
		}
		shape[i] = r
		if i >= lead {
			shape[i] *= m.shape[i-lead]
		}
	}
	return m.gather(shape, func(out []int) []int {
		in := make([]int, n)
		for d := range in {
			in[d] = out[lead+d] % m.shape[d]
		}
		return in
	}), true
}

// tile is repeat with reps padded by leading 1s to the rank of m.
func (m *chainModel) tile(reps []int) (*chainModel, bool) {
	for len(reps) < len(m.shape) {
		reps = append([]int{1}, reps...)
	}
	return m.repeat(reps)
}

// indexSelect picks entries of dimension d, which must be in range. A 0-d
// tensor takes exactly one index, 0, and stays 0-d.
func (m *chainModel) indexSelect(d int, picks []int) (*chainModel, bool) {
	n := len(m.shape)
	w, ok := wrapDim(d, n)
	if !ok {
		return nil, false
	}
	size := 1
	if n > 0 {
		size = m.shape[w]
	}
	for _, p := range picks {
		if p < 0 || p >= size {
			return nil, false
		}
	}
	if n == 0 {
		return m.same(), len(picks) == 1
	}
	return m.pickAlong(w, picks), true
}

// index is PyTorch's x[parts]: integers select, slices slice, None adds a
// dimension, one "..." stands for the dimensions no item names, and a list
// (one at most, as the package supports) picks entries of its dimension
// after the basic items are applied.
func (m *chainModel) index(parts []indexPart) (*chainModel, bool) {
	n := len(m.shape)
	specified, ellipses, lists := 0, 0, 0
	for _, p := range parts {
		switch p.kind {
		case partJunk:
			return nil, false
		case partInt, partSlice:
			specified++
		case partList:
			specified++
			lists++
		case partEllipsis:
			ellipses++
		}
	}
	if specified > n || ellipses > 1 || lists > 1 {
		return nil, false
	}
	y, dim, listDim := m.same(), 0, -1
	var listItems []int
	ok := true
	for _, p := range parts {
		switch p.kind {
		case partInt:
			y, ok = y.selectAt(dim, p.start)
		case partSlice:
			y, ok = y.slice(dim, p.start, p.stop, p.step)
			dim++
		case partNone:
			y, ok = y.unsqueeze(dim)
			dim++
		case partEllipsis:
			dim += n - specified
		case partList:
			listDim, listItems = dim, p.list
			dim++
		}
		if !ok {
			return nil, false
		}
	}
	if listDim < 0 {
		return y, true
	}
	size := y.shape[listDim]
	picks := make([]int, len(listItems))
	empty := size > 0 && slices.Contains(y.shape, 0) // the result reads nothing: PyTorch checks no index
	for i, v := range listItems {
		if empty {
			continue
		}
		if v < -size || v >= size {
			return nil, false
		}
		if v < 0 {
			v += size
		}
		picks[i] = v
	}
	return y.pickAlong(listDim, picks), true
}
