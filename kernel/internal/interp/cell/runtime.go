package cell

import "fmt"

// The compiled functions that rewritten code calls: the session gives
// them to yaegi as a package at RuntimePath, imported as RuntimeName.
// Bounds (PanicBounds) fails as Go does a guarded index (package
// rewrite's bounds.go); Recovering, which the rewrite calls before a
// statement that calls recover, tells the session that the frames a
// recovered panic unwound are not those of a later one; UnwrapError and
// AsMethod call the methods of compiled errors for errors.As, lowered
// (package rewrite's errors.go).
const (
	RuntimePath = "github.com/tensornb/tensornb/kernel/internal/interp/tensornbruntime"
	RuntimeName = "tensornbRuntime"
)

// A BoundsCode is a kind of Go's bounds errors, whose message with
// operands x and y BoundsMessage writes.
type BoundsCode int

// The kinds of bounds errors, as the Go runtime's boundsError numbers
// them.
const (
	BoundsIndex BoundsCode = iota
	BoundsSliceAlen
	BoundsSliceAcap
	BoundsSliceB
	BoundsSlice3Alen
	BoundsSlice3Acap
	BoundsSlice3B
	BoundsSlice3C
)

// BoundsMessage is Go's message for a bounds error of kind code with
// operands x and y, as the runtime's boundsError writes it; with a
// negative x, y is left out.
func BoundsMessage(code BoundsCode, x, y int64) string {
	if x < 0 {
		return fmt.Sprintf([...]string{
			BoundsIndex:      "index out of range [%d]",
			BoundsSliceAlen:  "slice bounds out of range [:%d]",
			BoundsSliceAcap:  "slice bounds out of range [:%d]",
			BoundsSliceB:     "slice bounds out of range [%d:]",
			BoundsSlice3Alen: "slice bounds out of range [::%d]",
			BoundsSlice3Acap: "slice bounds out of range [::%d]",
			BoundsSlice3B:    "slice bounds out of range [:%d:]",
			BoundsSlice3C:    "slice bounds out of range [%d::]",
		}[code], x)
	}
	return fmt.Sprintf([...]string{
		BoundsIndex:      "index out of range [%d] with length %d",
		BoundsSliceAlen:  "slice bounds out of range [:%d] with length %d",
		BoundsSliceAcap:  "slice bounds out of range [:%d] with capacity %d",
		BoundsSliceB:     "slice bounds out of range [%d:%d]",
		BoundsSlice3Alen: "slice bounds out of range [::%d] with length %d",
		BoundsSlice3Acap: "slice bounds out of range [::%d] with capacity %d",
		BoundsSlice3B:    "slice bounds out of range [:%d:%d]",
		BoundsSlice3C:    "slice bounds out of range [%d:%d:]",
	}[code], x, y)
}

// A BoundsError is a failed guard's panic: Go's message for the bounds,
// a runtime.Error as Go's own is.
type BoundsError string

// Error is the message, as Go's runtime writes it.
func (e BoundsError) Error() string { return "runtime error: " + string(e) }

// RuntimeError marks a BoundsError as a runtime.Error.
func (BoundsError) RuntimeError() {}

// PanicBounds is Bounds for yaegi: it panics with Go's message for a
// failed bounds check of kind code with operands x and y.
func PanicBounds(code, x, y int) {
	panic(BoundsError(BoundsMessage(BoundsCode(code), int64(x), int64(y))))
}

// UnwrapError, for yaegi (package rewrite's errors.go), returns
// what err's compiled Unwrap method gives, next for Unwrap() error, all
// and many set for Unwrap() []error; nothing if err has neither, as a
// value of an interpreted type has, which yaegi passes to compiled code
// in a wrapper with its Error method alone.
func UnwrapError(err error) (next error, all []error, many bool) {
	switch x := err.(type) {
	case interface{ Unwrap() error }:
		return x.Unwrap(), nil, false
	case interface{ Unwrap() []error }:
		return nil, x.Unwrap(), true
	}
	return nil, nil, false
}

// AsMethod, for yaegi (package rewrite's errors.go), reports whether
// err has a compiled As method, and it says err matches target.
func AsMethod(err error, target any) bool {
	x, ok := err.(interface{ As(any) bool })
	return ok && x.As(target)
}
