package check

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/tensornb/tensornb/tensor"
)

// A layout is how an input that Agree generates is made: a contiguous
// storage of a dtype, its dimensions permuted, sliced with a start and a
// step, and some of size 1 expanded, to the input's shape.
type layout struct {
	dtype tensor.DType
	shape []int
	// perm orders the input's dimensions in the storage: the storage's
	// dimension i is the input's perm[i] (the identity for row-major).
	perm []int
	// start, step and spare slice each dimension: start elements before
	// it, step between its elements, spare after it (0, 1, 0: all of it).
	start, step, spare []int
	// expanded dimensions have a stride of 0: the storage holds one
	// element of them, which Expand repeats.
	expanded []bool
}

// generate draws a layout of one of shapes and dtypes.
func generate(r *rand.Rand, shapes [][]int, dtypes []tensor.DType) layout {
	shape := shapes[r.IntN(len(shapes))]
	n := len(shape)
	l := layout{
		dtype: dtypes[r.IntN(len(dtypes))], shape: slices.Clone(shape), perm: identity(n),
		start: make([]int, n), step: ones(n), spare: make([]int, n), expanded: make([]bool, n),
	}
	if r.IntN(2) == 0 { // about half permuted
		r.Shuffle(n, func(i, j int) { l.perm[i], l.perm[j] = l.perm[j], l.perm[i] })
	}
	if r.IntN(2) == 0 { // about half sliced, in some dimensions
		for d := range n {
			if r.IntN(2) == 0 {
				l.start[d], l.step[d], l.spare[d] = r.IntN(3), 1+r.IntN(3), r.IntN(2)
			}
		}
	}
	if r.IntN(4) == 0 { // a quarter expanded, in one dimension
		if d := r.IntN(max(n, 1)); n > 0 && shape[d] != 1 {
			l.expanded[d] = true
		}
	}
	return l
}

func identity(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	return p
}

func ones(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = 1
	}
	return s
}

// sliced returns the size of dimension d before it is expanded: 1 for an
// expanded one.
func (l layout) sliced(d int) int {
	if l.expanded[d] {
		return 1
	}
	return l.shape[d]
}

// full returns the size of dimension d in the storage, before slicing.
func (l layout) full(d int) int {
	n := l.sliced(d)
	if n == 0 {
		return l.start[d] + l.spare[d]
	}
	return l.start[d] + (n-1)*l.step[d] + 1 + l.spare[d]
}

// stored returns the shape of the storage's view, in the storage's order.
func (l layout) stored() []int {
	s := make([]int, len(l.perm))
	for i, d := range l.perm {
		s[i] = l.full(d)
	}
	return s
}

// inverse returns the permutation that puts the storage's dimensions
// back in the input's order.
func (l layout) inverse() []int {
	inv := make([]int, len(l.perm))
	for i, d := range l.perm {
		inv[d] = i
	}
	return inv
}

func (l layout) permuted() bool { return !slices.Equal(l.perm, identity(len(l.perm))) }

func (l layout) slicing() bool {
	for d := range l.shape {
		if l.start[d] != 0 || l.step[d] != 1 || l.spare[d] != 0 {
			return true
		}
	}
	return false
}

func (l layout) expanding() bool { return slices.Contains(l.expanded, true) }

// numel is the number of elements of the layout's storage.
func (l layout) numel() int {
	n := 1
	for _, s := range l.stored() {
		n *= s
	}
	return n
}

// build makes the input, by the calls goLine writes.
func (l layout) build() *tensor.Tensor {
	x := l.dtype.Arange(float64(l.numel())).View(l.stored()...)
	if l.permuted() {
		x = x.Permute(l.inverse()...)
	}
	if l.slicing() {
		x = x.Index(l.indexSpec())
	}
	if l.expanding() {
		x = x.Expand(l.shape...)
	}
	return x
}

// indexSpec is the Index spec that slices the input out of the storage.
func (l layout) indexSpec() string {
	parts := make([]string, len(l.shape))
	for d := range l.shape {
		stop := l.full(d) - l.spare[d]
		switch {
		case l.start[d] == 0 && l.step[d] == 1 && l.spare[d] == 0:
			parts[d] = ":"
		case l.step[d] == 1:
			parts[d] = fmt.Sprintf("%d:%d", l.start[d], stop)
		default:
			parts[d] = fmt.Sprintf("%d:%d:%d", l.start[d], stop, l.step[d])
		}
	}
	return strings.Join(parts, ", ")
}

// goLine writes the line of Go that makes the input.
func (l layout) goLine() string {
	var b strings.Builder
	fmt.Fprintf(&b, "tensor.%s.Arange(%d).View(%s)", goName(l.dtype), l.numel(), ints(l.stored()))
	switch {
	case len(l.perm) == 2 && l.permuted():
		b.WriteString(".T()")
	case l.permuted():
		fmt.Fprintf(&b, ".Permute(%s)", ints(l.inverse()))
	}
	if l.slicing() {
		fmt.Fprintf(&b, ".Index(%q)", l.indexSpec())
	}
	if l.expanding() {
		fmt.Fprintf(&b, ".Expand(%s)", ints(l.shape))
	}
	return b.String()
}

// goName is the name of a dtype in Go: tensor.Float32.
func goName(dt tensor.DType) string {
	for _, name := range []struct {
		dt   tensor.DType
		name string
	}{{tensor.Float32, "Float32"}, {tensor.Float64, "Float64"}, {tensor.Int64, "Int64"}, {tensor.Int32, "Int32"}, {tensor.Uint8, "Uint8"}, {tensor.Float16, "Float16"}, {tensor.BFloat16, "BFloat16"}} {
		if name.dt == dt {
			return name.name
		}
	}
	return dt.String()
}

// ints writes numbers as a call's arguments: 3, 4.
func ints(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, ", ")
}

// simpler returns the layouts to try in place of l, smallest first: each
// of shapes, in the first dtype or l's, with each subset of l's ways of
// being laid out (permuted, sliced, expanded) and of its sliced
// dimensions, each slicing as l's or lightened (cuts), none heavier than
// l, each once.
func (l layout) simpler(shapes [][]int, dtypes []tensor.DType) []layout {
	var out []layout
	seen := map[string]bool{}
	for _, shape := range shapes {
		for _, dt := range []tensor.DType{dtypes[0], l.dtype} {
			for ways := range 8 {
				for cut := range cuts {
					for dims := range 1 << len(shape) {
						c, ok := l.reshaped(shape, dt, ways, cut, dims)
						if line := c.goLine(); ok && !seen[line] {
							seen[line] = true
							out = append(out, c)
						}
					}
				}
			}
		}
	}
	slices.SortStableFunc(out, func(a, b layout) int { return a.weight() - b.weight() })
	return out
}

// cuts are the ways simpler lightens a dimension's slicing: as it is; one
// element before, none between or after; the step alone; and the start
// alone.
var cuts = []func(start, step, spare int) (int, int, int){
	func(start, step, spare int) (int, int, int) { return start, step, spare },
	func(start, _, _ int) (int, int, int) { return min(start, 1), 1, 0 },
	func(_, step, _ int) (int, int, int) { return 0, step, 0 },
	func(start, _, _ int) (int, int, int) { return start, 1, 0 },
}

// reshaped returns l with shape and dtype, keeping of its ways of being
// laid out those that ways' bits say (1 permuted, 2 sliced, 4 expanded),
// as far as the shape allows, and slicing only the dimensions whose bits
// dims has, lightened by cuts[cut]; ok is false if the result is heavier
// than l.
func (l layout) reshaped(shape []int, dt tensor.DType, ways, cut, dims int) (layout, bool) {
	n := len(shape)
	c := layout{dtype: dt, shape: slices.Clone(shape), perm: identity(n), start: make([]int, n), step: ones(n), spare: make([]int, n), expanded: make([]bool, n)}
	same := n == len(l.shape)
	if ways&1 != 0 && same {
		copy(c.perm, l.perm)
	}
	for d := range n {
		if ways&2 != 0 && same && dims&(1<<d) != 0 {
			c.start[d], c.step[d], c.spare[d] = cuts[cut](l.start[d], l.step[d], l.spare[d])
		}
		c.expanded[d] = ways&4 != 0 && same && l.expanded[d] && shape[d] != 1
	}
	return c, c.weight() <= l.weight()
}

// weight orders layouts from the simplest: an input with elements before
// an empty one (whose failure says less), then fewer elements in the
// storage, then fewer ways of being laid out, then the dtype's order.
func (l layout) weight() int {
	w := l.numel()*4 + len(slices.DeleteFunc([]bool{l.permuted(), l.slicing(), l.expanding()}, func(on bool) bool { return !on }))
	if slices.Contains(l.shape, 0) {
		w += 1 << 24
	}
	return w*16 + int(l.dtype)
}
