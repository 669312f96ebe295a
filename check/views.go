package check

import (
	"fmt"

	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/internal/storagecount"
	"github.com/tensornb/tensornb/tensor"
)

// makers says which calls make views and which copy, for a student told
// that a copy was made where a view was asked for.
const makers = "View, Transpose, Permute, Slice, Select, Index, Expand and AsStrided make views; Contiguous and Clone copy, and so does Reshape when the strides cannot express the new shape"

// ViewOf checks that got is a view of input: that it reads input's
// storage rather than a storage of its own.
//
//	check.ViewOf(y, x)
func ViewOf(got, input *tensor.Tensor) {
	mustExpected("ViewOf", "input", input)
	raise(nilResult("ViewOf", got))
	if !got.SharesStorage(input) {
		picture := display.Views(display.Named{Name: "input", Tensor: input}, display.Named{Name: "yours", Tensor: got})
		raise(failed("ViewOf", picture, "a copy: %s; a view of the input was asked for (%s)", lives(got), makers))
	}
}

// lives says where got's elements live, when that is not its input's
// storage.
func lives(got *tensor.Tensor) string {
	return fmt.Sprintf("your result lives in a new storage of %s", plural(int64(got.Storage().Len()), "slot"))
}

// View checks a view exercise whole, in the order a student can act on:
// got must have want's dtype, shape and values (as Equal), read input's
// storage (as ViewOf), and read it as want does (as Layout). want is the
// answer, made from input by views.
//
//	check.View(y, x, x.Transpose(0, 1))
//
// A copy with the right values fails with "right values, but a copy", and
// a view of input that reads other slots, or the same in another order,
// with the layout that differs.
func View(got, input, want *tensor.Tensor) {
	raise(sameView("View", got, input, want, layoutDifference))
}

// sameView fails op unless got has want's values (as Equal), reads
// input's storage and reads it as want does, as differ says.
func sameView(op string, got, input, want *tensor.Tensor, differ func(got, want *tensor.Tensor) string) *failure {
	mustExpected(op, "input", input)
	mustExpected(op, "expected tensor", want)
	if f := sameValues(op, got, want, 0, 0); f != nil {
		return f
	}
	if !got.SharesStorage(input) {
		return failed(op, compare(want, got), "right values, but a copy: %s; a view of the input was asked for (%s)", lives(got), makers)
	}
	if msg := differ(got, want); msg != "" {
		return failed(op, compare(want, got), "right values, read from the input's storage, but in another layout: %s", msg)
	}
	return nil
}

// NoCopy runs f and checks that it allocated no storage: that it made
// views only. Storages made by other goroutines while f runs count too.
//
//	check.NoCopy(func() { y = Diagonal(x) })
func NoCopy(f func()) {
	before := storagecount.Allocated()
	f()
	if n := storagecount.Allocated() - before; n > 0 {
		raise(failed("NoCopy", nil, "your code allocated %s where only views were asked for (%s)", plural(n, "new storage"), makers))
	}
}
