package check

import (
	"fmt"

	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/tensor"
)

// A failure is a check that failed: its message, and the pictures that
// show what is wrong.
type failure struct {
	op       string
	pictures []display.Renderer
	message  string
}

// failed returns the failure of the check op whose message is format's,
// shown by picture, if it is not nil.
func failed(op string, picture display.Renderer, format string, args ...any) *failure {
	f := &failure{op: op, message: fmt.Sprintf(format, args...)}
	if picture != nil {
		f.pictures = append(f.pictures, picture)
	}
	return f
}

// raise shows f's pictures, then panics with an AssertionError for f's
// check, which the kernel shows as the cell's error; it does nothing for
// nil, a check that passed.
func raise(f *failure) {
	if f == nil {
		return
	}
	for _, p := range f.pictures {
		display.Show(p)
	}
	panic(&tensor.Error{Op: "check." + f.op, Class: tensor.AssertionError, Message: f.message})
}

// nilResult fails op when the result is nil, which no other fact of it
// could be checked on.
func nilResult(op string, got *tensor.Tensor) *failure {
	if got == nil {
		return failed(op, nil, "your result is nil, not a tensor")
	}
	return nil
}

// mustExpected panics, as a misuse of the check rather than a wrong
// answer, when the expected tensor or the input is nil.
func mustExpected(op, what string, x *tensor.Tensor) {
	if x == nil {
		panic(&tensor.Error{Op: "check." + op, Class: tensor.ValueError, Message: "the " + what + " is nil: give the check a tensor"})
	}
}

// compare is the picture of a failure: got beside want.
func compare(want, got *tensor.Tensor) display.Renderer {
	return display.Compare(display.Named{Name: "expected", Tensor: want}, display.Named{Name: "yours", Tensor: got})
}

// plural writes n and a noun, with an s when n is not 1.
func plural(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
