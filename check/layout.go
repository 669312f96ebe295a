package check

import (
	"fmt"
	"slices"

	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/tensor"
)

// Shape checks got's shape.
//
//	check.Shape(y, 4, 3)
func Shape(got *tensor.Tensor, sizes ...int) {
	raise(nilResult("Shape", got))
	if want := tensor.Shape(sizes); !slices.Equal(got.Shape(), want) {
		raise(failed("Shape", display.Layout(got), "wrong shape: yours is %v, %v was expected", got.Shape(), want))
	}
}

// Strides checks got's strides, in elements.
//
//	check.Strides(y, 1, 4) // a transposed 4×4 tensor
func Strides(got *tensor.Tensor, strides ...int) {
	raise(nilResult("Strides", got))
	if want := tensor.Strides(strides); !slices.Equal(got.Strides(), want) {
		raise(failed("Strides", display.Layout(got), "wrong strides: yours are %v, %v were expected%s", got.Strides(), want, stridesHint(got.Strides(), want)))
	}
}

// stridesHint says in words what is the matter with strides that hold
// the expected ones in another order, or none where some are wanted.
func stridesHint(got, want []int) string {
	switch {
	case len(got) == len(want) && !slices.Equal(got, want) && slices.Equal(sorted(got), sorted(want)):
		return ": the same strides in another order, as from a Transpose or Permute of the dimensions"
	case slices.Contains(want, 0) && !slices.Contains(got, 0):
		return ": a stride of 0 repeats an element without copying it, as Expand does"
	}
	return ""
}

func sorted(xs []int) []int {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s
}

// Offset checks got's storage offset, in elements.
func Offset(got *tensor.Tensor, offset int) {
	raise(nilResult("Offset", got))
	if got.StorageOffset() != offset {
		raise(failed("Offset", display.Layout(got), "wrong storage offset: yours is %d, %d was expected (the offset is the slot that holds element [0, ..., 0])", got.StorageOffset(), offset))
	}
}

// Contiguous checks that got's elements lie in its storage in row-major
// order with no gaps, as Contiguous leaves them.
func Contiguous(got *tensor.Tensor) {
	raise(nilResult("Contiguous", got))
	if !got.IsContiguous() {
		raise(failed("Contiguous", display.Layout(got), "not contiguous: a contiguous tensor of shape %v has strides %v, yours has %v (Contiguous copies a tensor into that order)", got.Shape(), contiguousStrides(got.Shape()), got.Strides()))
	}
}

// NotContiguous checks that got is not contiguous: a view such as a
// transpose, whose row-major order is not its storage's.
func NotContiguous(got *tensor.Tensor) {
	raise(nilResult("NotContiguous", got))
	if got.IsContiguous() {
		raise(failed("NotContiguous", display.Layout(got), "contiguous: your tensor's elements lie in row-major order (strides %v), and a non-contiguous view was expected", got.Strides()))
	}
}

// contiguousStrides returns the strides of a contiguous tensor of shape.
func contiguousStrides(shape []int) tensor.Strides {
	strides := make(tensor.Strides, len(shape))
	step := 1
	for d := len(shape) - 1; d >= 0; d-- {
		strides[d] = step
		step *= max(shape[d], 1)
	}
	return strides
}

// Layout checks that got has want's shape, strides and storage offset:
// that it reads its storage as want reads its own.
func Layout(got, want *tensor.Tensor) {
	mustExpected("Layout", "expected tensor", want)
	raise(nilResult("Layout", got))
	if msg := layoutDifference(got, want); msg != "" {
		raise(failed("Layout", compare(want, got), "wrong layout: %s", msg))
	}
}

// slotDifference is layoutDifference for what can be seen: whether got
// reads the slots want reads, in the same order. The stride of a
// dimension of size 1 steps nowhere, and a tensor without elements reads
// no slot, so neither counts.
func slotDifference(got, want *tensor.Tensor) string {
	if !slices.Equal(got.Shape(), want.Shape()) || got.Numel() == 0 {
		return shapeDifference(got, want)
	}
	g, w := slices.Clone(got.Strides()), slices.Clone(want.Strides())
	for d, n := range got.Shape() {
		if n == 1 {
			g[d], w[d] = 0, 0
		}
	}
	switch {
	case !slices.Equal(g, w):
		return fmt.Sprintf("your strides are %v, %v were expected%s", got.Strides(), want.Strides(), stridesHint(got.Strides(), want.Strides()))
	case got.StorageOffset() != want.StorageOffset():
		return fmt.Sprintf("your storage offset is %d, %d was expected", got.StorageOffset(), want.StorageOffset())
	}
	return ""
}

// shapeDifference says how got's shape differs from want's, or "".
func shapeDifference(got, want *tensor.Tensor) string {
	if !slices.Equal(got.Shape(), want.Shape()) {
		return fmt.Sprintf("your shape is %v, %v was expected", got.Shape(), want.Shape())
	}
	return ""
}

// layoutDifference names the first of shape, strides and offset in which
// got differs from want, or returns "".
func layoutDifference(got, want *tensor.Tensor) string {
	switch {
	case !slices.Equal(got.Shape(), want.Shape()):
		return shapeDifference(got, want)
	case !slices.Equal(got.Strides(), want.Strides()):
		return fmt.Sprintf("your strides are %v, %v were expected%s", got.Strides(), want.Strides(), stridesHint(got.Strides(), want.Strides()))
	case got.StorageOffset() != want.StorageOffset():
		return fmt.Sprintf("your storage offset is %d, %d was expected", got.StorageOffset(), want.StorageOffset())
	}
	return ""
}
