package tensor

import (
	"fmt"
	"strconv"
	"strings"
)

// An Error describes a misuse of a tensor operation: a bad shape, an index
// out of range, a view the strides cannot express. Operations panic with an
// *Error, as gonum's mat package does; Try turns such a panic into an error.
//
// Where PyTorch refuses the same call, Message is PyTorch's text and Class
// is the Python exception class PyTorch raises.
type Error struct {
	Op      string // the operation that refused, e.g. "view"
	Class   string // PyTorch's exception class: RuntimeError, IndexError, ValueError, TypeError or AssertionError
	Message string
}

// The Python exception classes an Error's Class names, as PyTorch raises
// them for the same refusal.
const (
	RuntimeError = "RuntimeError" // most refusals: shapes, strides, views, dtypes
	IndexError   = "IndexError"   // an index or a dimension out of range
	ValueError   = "ValueError"   // a bad argument value: a pattern, a step
	TypeError    = "TypeError"    // an argument of the wrong kind or number
	// AssertionError is the class of a failed check of a result, as
	// torch.testing.assert_close raises it: package check's failures.
	AssertionError = "AssertionError"
)

// Error returns the message prefixed by the operation's name.
func (e *Error) Error() string { return e.Op + ": " + e.Message }

func newError(op, class, format string, args ...any) *Error {
	return &Error{Op: op, Class: class, Message: fmt.Sprintf(format, args...)}
}

// fail panics with a RuntimeError, the class of most of PyTorch's refusals.
func fail(op, format string, args ...any) {
	panic(newError(op, RuntimeError, format, args...))
}

// failIndex panics with an IndexError.
func failIndex(op, format string, args ...any) {
	panic(newError(op, IndexError, format, args...))
}

// failValue panics with a ValueError.
func failValue(op, format string, args ...any) {
	panic(newError(op, ValueError, format, args...))
}

// failType panics with a TypeError.
func failType(op, format string, args ...any) {
	panic(newError(op, TypeError, format, args...))
}

// Try calls f and returns the *Error it panicked with, or nil if it returned
// normally. Panics that are not *Error values are passed on unchanged.
//
//	err := tensor.Try(func() { y.View(-1) })
func Try(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*Error)
			if !ok {
				panic(r)
			}
			err = e
		}
	}()
	f()
	return nil
}

// listString formats ints as PyTorch formats an IntArrayRef: "[2, 3, 4]".
func listString(xs []int) string { return "[" + joinInts(xs) + "]" }

// joinInts formats ints separated by ", ".
func joinInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, ", ")
}
