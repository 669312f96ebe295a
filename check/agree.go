package check

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"

	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/internal/gradeseed"
	"github.com/tensornb/tensornb/tensor"
)

// Inputs say which inputs Agree generates, and what agreeing means.
type Inputs struct {
	// Shapes are the shapes an input may have: each input takes one.
	// List shapes with a dimension of size 1, and of size 0 where the
	// exercise allows them ([Squares] lists square ones).
	Shapes [][]int
	// DTypes are the dtypes an input may have: Float32 and Int64 if none.
	DTypes []tensor.DType
	// View asks for what [View] checks: a view of the input, laid out as
	// the reference's result is, that is reading the same slots in the
	// same order (the stride of a dimension of size 1, which steps
	// nowhere, may differ). Without it, the values are checked, as
	// [Equal] checks them.
	View bool
	// Cases is how many inputs are tried: DefaultCases if 0.
	Cases int
	// Where, if set, says which inputs the exercise takes: a generated
	// input for which it is false is not tried (the anti-diagonal of a
	// matrix whose rows lie further apart than its columns, say).
	Where func(x *tensor.Tensor) bool
}

// DefaultCases is how many inputs Agree tries unless Inputs say.
const DefaultCases = 100

// Squares returns the shapes of the square matrices of sizes from to to:
// Squares(1, 3) is (1, 1), (2, 2), (3, 3).
func Squares(from, to int) [][]int {
	var shapes [][]int
	for n := from; n <= to; n++ {
		shapes = append(shapes, []int{n, n})
	}
	return shapes
}

// Agree checks that yours agrees with reference, the exercise's own
// answer, on many inputs that it generates: tensors of in's shapes and
// dtypes laid out in every way a tensor can be — contiguous, permuted,
// sliced with steps and a storage offset, expanded with a stride of 0 —
// so that an answer right for the example it was written against (the
// strides of a contiguous 4×4 typed in) is not taken for a right answer.
//
//	lastRow := func(x *tensor.Tensor) *tensor.Tensor { return x.Select(0, x.Size(0)-1) }
//	check.Agree(LastRow, lastRow, check.Inputs{Shapes: [][]int{{1, 3}, {4, 2}, {5, 5}}, View: true})
//
// The inputs are drawn from a seed, the test cell's grade_id when
// tensornb grade runs it, so a grade reproduces. An input on which yours
// fails is shrunk to the smallest that still fails of those simpler than
// it (of a smaller shape, laid out in fewer of its ways, sliced less; one
// with elements before an empty one), and the check shows
// the two results side by side, the input's layout, and the line of Go
// that makes the input, to try yours on.
func Agree(yours, reference func(x *tensor.Tensor) *tensor.Tensor, in Inputs) {
	in = in.withDefaults()
	r := rand.New(rand.NewPCG(seed(gradeseed.ID()), 0))
	for range in.Cases {
		l := in.draw(r)
		if f := in.try(yours, reference, l); f != nil {
			for _, c := range l.simpler(in.Shapes, in.DTypes) {
				if !in.takes(c) {
					continue
				}
				if g := in.try(yours, reference, c); g != nil {
					l, f = c, g
					break
				}
			}
			raise(onInput(f, l))
		}
	}
}

// withDefaults returns in with the defaults in place of what it leaves
// out, and panics on what cannot be generated.
func (in Inputs) withDefaults() Inputs {
	if len(in.Shapes) == 0 {
		panic(&tensor.Error{Op: "check.Agree", Class: tensor.ValueError, Message: "Inputs has no Shapes: give the shapes an input may have"})
	}
	if len(in.DTypes) == 0 {
		in.DTypes = []tensor.DType{tensor.Float32, tensor.Int64}
	}
	if slices.Contains(in.DTypes, tensor.Bool) {
		panic(&tensor.Error{Op: "check.Agree", Class: tensor.ValueError, Message: "Inputs.DTypes holds bool, whose inputs cannot be told apart by their values: give number dtypes"})
	}
	if in.Cases <= 0 {
		in.Cases = DefaultCases
	}
	return in
}

// draw generates an input the exercise takes.
func (in Inputs) draw(r *rand.Rand) layout {
	for range 1000 {
		if l := generate(r, in.Shapes, in.DTypes); in.takes(l) {
			return l
		}
	}
	panic(&tensor.Error{Op: "check.Agree", Class: tensor.ValueError, Message: "Inputs.Where takes none of 1000 inputs generated: give Shapes it takes"})
}

// takes reports whether the exercise takes the input l makes: one whose
// storage's values are all different in its dtype (an 8-bit or 16-bit
// storage of many slots repeats values, which would hide a wrong slot),
// and that Where takes.
func (in Inputs) takes(l layout) bool {
	if exact, ok := exactUpTo[l.dtype]; ok && l.numel() > exact {
		return false
	}
	return in.Where == nil || in.Where(l.build())
}

// exactUpTo is how many slots of a small dtype Arange fills with values
// all different.
var exactUpTo = map[tensor.DType]int{tensor.Uint8: 256, tensor.Float16: 2048, tensor.BFloat16: 256}

// seed returns the seed of a grade_id's inputs.
func seed(gradeID string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(gradeID))
	return h.Sum64()
}

// try runs reference, then yours, on the input l makes, and returns how
// yours fails to agree, or nil. For a view, both read the one input, so
// that the picture of a failure shows one storage; for values, the
// reference's are kept apart first, out of reach of an answer that
// writes its input.
func (in Inputs) try(yours, reference func(*tensor.Tensor) *tensor.Tensor, l layout) *failure {
	x := l.build()
	var want *tensor.Tensor
	if err := tensor.Try(func() { want = reference(x) }); err != nil {
		panic(&tensor.Error{Op: "check.Agree", Class: tensor.ValueError, Message: fmt.Sprintf("the reference failed on the input %s: %v", l.goLine(), err)})
	}
	if !in.View {
		want = want.Clone()
	}
	got, err := run(yours, x)
	if err != nil {
		return failed("Agree", nil, "your function failed: %v", err)
	}
	if in.View {
		return sameView("Agree", got, x, want, slotDifference)
	}
	return sameValues("Agree", got, want, 0, 0)
}

// run calls f on x, and returns what it panicked with as an error.
func run(f func(*tensor.Tensor) *tensor.Tensor, x *tensor.Tensor) (y *tensor.Tensor, err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(error); ok {
				err = e
			} else {
				err = fmt.Errorf("panic: %v", r)
			}
		}
	}()
	return f(x), nil
}

// onInput adds to f the input it failed on: the line that makes it, in
// the message, and its layout, in the picture.
func onInput(f *failure, l layout) *failure {
	f.pictures = append([]display.Renderer{display.Layout(l.build())}, f.pictures...)
	f.message = fmt.Sprintf("on the input x := %s: %s", l.goLine(), f.message)
	return f
}
