package cell

import "fmt"

// The compiled functions that rewritten code calls: the session gives
// them to yaegi as a package at RuntimePath, imported as RuntimeName.
// Bounds (PanicBounds) fails as Go does a guarded index (package
// rewrite's bounds.go); Recovering, which the rewrite calls before a
// statement that calls recover, tells the session that the frames a
// recovered panic unwound are not those of a later one; RangeState
// (PanicRange) and Deferred (RunDeferred) serve the lowered loops over
// functions (package rewrite's rangefunc.go).
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

// A RuntimeError is a panic of the rewritten code that Go's runtime
// raises itself: Go's message, a runtime.Error as Go's own is.
type RuntimeError string

// Error is the message, as Go's runtime writes it.
func (e RuntimeError) Error() string { return "runtime error: " + string(e) }

// RuntimeError marks a RuntimeError as a runtime.Error.
func (RuntimeError) RuntimeError() {}

// The states of the body of a range-over-func loop that the rewrite
// lowers, numbered as Go's compiler numbers them: the body returned
// other than by a panic (false to its iterator), is ready for the next
// value, is running or panicked, or the iterator returned; and the state
// of an iterator that recovered a panic of the body and returned.
const (
	RangeDone = iota
	RangeReady
	RangePanic
	RangeExhausted
	RangeMissingPanic
)

// rangeMessages are Go's messages for a loop whose body's state was one
// of the above where it should have been RangeReady or, after the
// iterator returned, anything but RangePanic.
var rangeMessages = [...]string{
	RangeDone:         "range function continued iteration after function for loop body returned false",
	RangePanic:        "range function continued iteration after loop body panic",
	RangeExhausted:    "range function continued iteration after whole loop exit",
	RangeMissingPanic: "range function recovered a loop body panic and did not resume panicking",
}

// PanicRange is RangeState for yaegi: it panics with Go's message for a
// loop whose body's state *state is wrong (see rangeMessages), after
// setting *state to RangePanic, as Go's lowered loop does.
func PanicRange(state *int) {
	s := *state
	*state = RangePanic
	if s < 0 || s >= len(rangeMessages) || rangeMessages[s] == "" {
		panic(fmt.Sprintf("tensornb: a range-over-func loop in the state %d", s))
	}
	panic(RuntimeError(rangeMessages[s]))
}

// RunDeferred is Deferred for yaegi: it runs the calls that the bodies of
// a function's range-over-func loops deferred, last first, each as a
// deferred call of its own: one that panics does not keep the others
// from running.
func RunDeferred(calls *[]func()) { runDeferred(*calls) }

// runDeferred runs calls, last first; see RunDeferred.
func runDeferred(calls []func()) {
	if len(calls) == 0 {
		return
	}
	defer runDeferred(calls[:len(calls)-1])
	calls[len(calls)-1]()
}
