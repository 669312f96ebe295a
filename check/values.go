package check

import (
	"fmt"
	"math"
	"slices"

	"github.com/tensornb/tensornb/tensor"
)

// Equal checks that got has want's dtype, shape and elements, exactly. A
// NaN in want is matched by a NaN in got.
//
//	check.Equal(x.Sum(1), tensor.New([]float32{6, 22}, 2))
func Equal(got, want *tensor.Tensor) {
	raise(sameValues("Equal", got, want, 0, 0))
}

// Close checks that got has want's dtype and shape, and elements within
// the tolerances torch.testing.assert_close takes for the dtype by
// default: |got - want| ≤ atol + rtol·|want|, with rtol 1.3e-6 and atol
// 1e-5 for float32, 1e-7 and 1e-7 for float64, 1e-3 and 1e-5 for
// float16, 1.6e-2 and 1e-5 for bfloat16, and exactness for the integer
// and bool dtypes.
func Close(got, want *tensor.Tensor) {
	mustExpected("Close", "expected tensor", want)
	rtol, atol := tolerances(want.DType())
	raise(sameValues("Close", got, want, rtol, atol))
}

// CloseWithin is Close with the relative and absolute tolerances given.
func CloseWithin(got, want *tensor.Tensor, rtol, atol float64) {
	raise(sameValues("CloseWithin", got, want, rtol, atol))
}

// tolerances returns assert_close's default rtol and atol for a dtype.
func tolerances(dt tensor.DType) (rtol, atol float64) {
	switch dt {
	case tensor.Float32:
		return 1.3e-6, 1e-5
	case tensor.Float64:
		return 1e-7, 1e-7
	case tensor.Float16:
		return 1e-3, 1e-5
	case tensor.BFloat16:
		return 1.6e-2, 1e-5
	}
	return 0, 0
}

// sameValues fails op unless got has want's dtype and shape and its
// elements lie within atol + rtol·|want| of want's (equal, for 0 and 0).
func sameValues(op string, got, want *tensor.Tensor, rtol, atol float64) *failure {
	mustExpected(op, "expected tensor", want)
	if f := nilResult(op, got); f != nil {
		return f
	}
	if !slices.Equal(got.Shape(), want.Shape()) {
		return failed(op, compare(want, got), "wrong shape: yours is %v, %v was expected", got.Shape(), want.Shape())
	}
	if got.DType() != want.DType() {
		return failed(op, compare(want, got), "wrong dtype: yours is %s, %s was expected (To changes a tensor's dtype)", got.DType(), want.DType())
	}
	if d := differences(got, want, rtol, atol); d.count > 0 {
		return failed(op, compare(want, got), "%s", d.describe(got, want, rtol, atol))
	}
	return nil
}

// A difference tally: how many elements differ, and the first.
type difference struct {
	count, of int
	first     []int // the index of the first element that differs
}

// differences compares got and want, of one shape, element by element.
func differences(got, want *tensor.Tensor, rtol, atol float64) difference {
	g, w := got.Float64s(), want.Float64s()
	d := difference{of: len(w)}
	for i := range w {
		if !within(g[i], w[i], rtol, atol) {
			if d.count == 0 {
				d.first = index(want.Shape(), i)
			}
			d.count++
		}
	}
	return d
}

// within reports whether a lies within atol + rtol·|b| of b; NaN matches
// NaN, and an infinity only itself.
func within(a, b, rtol, atol float64) bool {
	switch {
	case a == b, math.IsNaN(a) && math.IsNaN(b):
		return true
	case math.IsInf(a, 0), math.IsInf(b, 0), math.IsNaN(a), math.IsNaN(b):
		return false
	}
	return math.Abs(a-b) <= atol+rtol*math.Abs(b)
}

// describe says how got's values differ from want's.
func (d difference) describe(got, want *tensor.Tensor, rtol, atol float64) string {
	dt := want.DType()
	mine, theirs := dt.FormatElement(got.At(d.first...)), dt.FormatElement(want.At(d.first...))
	which := fmt.Sprintf("%d of %d elements differ, the first at %s", d.count, d.of, indexText(d.first))
	if d.count == 1 {
		which = fmt.Sprintf("1 of %d elements differs, at %s", d.of, indexText(d.first))
	}
	beyond := ""
	if rtol != 0 || atol != 0 {
		beyond = fmt.Sprintf(" (beyond rtol %g and atol %g)", rtol, atol)
	}
	return fmt.Sprintf("wrong values: %s: yours is %s, %s was expected%s", which, mine, theirs, beyond)
}

// index returns the index, in a tensor of shape, of the i-th element in
// row-major order.
func index(shape []int, i int) []int {
	idx := make([]int, len(shape))
	for d := len(shape) - 1; d >= 0; d-- {
		if shape[d] > 0 {
			idx[d] = i % shape[d]
			i /= shape[d]
		}
	}
	return idx
}

// indexText writes an index as Python does: [1, 2].
func indexText(idx []int) string {
	s := "["
	for i, v := range idx {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprint(v)
	}
	return s + "]"
}
