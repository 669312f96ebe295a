package check

import (
	"fmt"

	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/tensor"
)

// fail shows picture, if there is one, then panics with an AssertionError
// for the check op whose message is format's.
func fail(op string, picture display.Renderer, format string, args ...any) {
	if picture != nil {
		display.Show(picture)
	}
	panic(&tensor.Error{Op: "check." + op, Class: tensor.AssertionError, Message: fmt.Sprintf(format, args...)})
}

// mustTensor fails op when the result is nil, which no other fact of it
// could be checked on.
func mustTensor(op string, got *tensor.Tensor) {
	if got == nil {
		fail(op, nil, "your result is nil, not a tensor")
	}
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
