package cell

import (
	"fmt"
	"io"
	"reflect"
	"runtime"
	"strconv"
	"strings"
)

// The compiled functions that rewritten code calls: the session gives
// them to yaegi as a package at RuntimePath, imported as RuntimeName.
// Bounds (PanicBounds) fails as Go does a guarded index (package
// rewrite's bounds.go); Recovering, which the rewrite calls before a
// statement that calls recover, tells the session that the frames a
// recovered panic unwound are not those of a later one; RangeState
// (PanicRange) and Deferred (RunDeferred) serve the lowered loops over
// functions (package rewrite's rangefunc.go); UnwrapError and AsMethod
// call the methods of compiled errors for errors.As, lowered (package
// rewrite's errors.go); Held passes a value to assert to an interface
// (package rewrite's assert.go); Clear, Recovered, Print and Println are the
// builtins clear, recover's value, print and println as Go has them
// (package rewrite's builtins.go); NilAssertion (PanicNilAssertion) fails
// as Go does an assertion of a nil interface value to an interface type
// (package rewrite's assert.go); Unrecorded refuses an argument of a
// compiled function that holds yaegi's record of a value (package
// rewrite's nested.go).
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

// A TypeAssertionError is the panic of a failed type assertion that the
// rewritten code raises itself: Go's message, a runtime.Error as Go's
// *runtime.TypeAssertionError is.
type TypeAssertionError string

// Error is the message, as Go's runtime writes it.
func (e TypeAssertionError) Error() string { return string(e) }

// RuntimeError marks a TypeAssertionError as a runtime.Error.
func (TypeAssertionError) RuntimeError() {}

// PanicNilAssertion is NilAssertion for yaegi: it panics with Go's
// message for the assertion of a nil interface value to the interface
// type named asserted, as Go's runtime writes its name.
func PanicNilAssertion(asserted string) {
	panic(TypeAssertionError("interface conversion: interface is nil, not " + asserted))
}

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

// Clear, for yaegi (package rewrite's builtins.go), is the builtin clear:
// it deletes the entries of a map, and zeroes the elements of a slice.
func Clear(x any) {
	if v := reflect.ValueOf(x); v.IsValid() {
		v.Clear()
	}
}

// Held, for yaegi (package rewrite's assert.go), returns x as it is: an
// interface value that an interpreted value of empty interface type
// holds comes back as a compiled function's result, which yaegi asserts
// to an interface type the cells wrote right.
func Held(x any) any { return x }

// Recovered, for yaegi (package rewrite's builtins.go), returns the value
// of the panic that recover stopped, v as yaegi's recover returns it:
// that of a panic of interpreted code as a reflect.Value, which it
// unwraps, and for panic(nil), or a nil interface, Go 1.21's
// *runtime.PanicNilError. A compiled panic's value (a runtime error) is
// as it was. A NotRun panics again: the cell stops.
func Recovered(v any) any {
	v = PanicValue(v)
	if n, stop := v.(*NotRun); stop {
		panic(n) // the cell cannot go on: no recover takes it
	}
	return v
}

// PanicValue returns the value of a panic as Go has it, v as yaegi gives
// it (see Recovered).
func PanicValue(v any) any {
	rv, ok := v.(reflect.Value)
	if !ok {
		return goFault(v)
	}
	if !rv.IsValid() || rv.Kind() == reflect.Interface && rv.IsNil() {
		return new(runtime.PanicNilError)
	}
	return goFault(rv.Interface())
}

// goFault returns the runtime error Go raises where yaegi's own code
// panicked as reflect does, on a nil interface's method called or a nil
// function value (reflect: call of reflect.Value.Interface on zero
// Value), or v itself.
func goFault(v any) any {
	var msg string
	switch v := v.(type) {
	case string:
		msg = v
	case error:
		msg = v.Error()
	default:
		return v
	}
	if strings.HasPrefix(msg, "reflect: call of reflect.Value.") && strings.HasSuffix(msg, " on zero Value") || msg == "reflect.Value.Call: call of nil function" {
		return RuntimeError("invalid memory address or nil pointer dereference")
	}
	return v
}

// WritePrint writes args to w as the builtin print does, or println, with
// nl set: each a value of a basic type (the rewrite passes no other),
// floats and complex numbers in the shortest form that reads back, as
// Go's runtime writes them; println puts a space between them and a
// newline after.
func WritePrint(w io.Writer, nl bool, args ...any) {
	var b []byte
	for i, a := range args {
		if nl && i > 0 {
			b = append(b, ' ')
		}
		v := reflect.ValueOf(a)
		switch v.Kind() {
		case reflect.Bool:
			b = strconv.AppendBool(b, v.Bool())
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			b = strconv.AppendInt(b, v.Int(), 10)
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			b = strconv.AppendUint(b, v.Uint(), 10)
		case reflect.Float32, reflect.Float64:
			b = strconv.AppendFloat(b, v.Float(), 'g', -1, v.Type().Bits())
		case reflect.Complex64, reflect.Complex128:
			b = append(b, strconv.FormatComplex(v.Complex(), 'g', -1, v.Type().Bits())...)
		case reflect.String:
			b = append(b, v.String()...)
		default:
			b = fmt.Append(b, a)
		}
	}
	if nl {
		b = append(b, '\n')
	}
	_, _ = w.Write(b)
}
