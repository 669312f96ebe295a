package explain

import (
	"errors"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/tensor"
)

// refusal returns the *tensor.Error f panics with.
func refusal(t *testing.T, f func()) *tensor.Error {
	t.Helper()
	var e *tensor.Error
	if !errors.As(tensor.Try(f), &e) {
		t.Fatal("the call was not refused")
	}
	return e
}

// A refused operation is PyTorch's exception, its message, a hint where
// the message suggests Python, and where it happened.
func TestTensorError(t *testing.T) {
	e := refusal(t, func() { tensor.Arange(24).View(2, 3, 4).Transpose(1, 2).View(-1) })
	ce := TensorError(e, "cell line 2: y.View(-1)")
	want := []string{
		"RuntimeError: " + e.Message,
		"hint: in Go, .reshape(...) is the method Reshape(...)",
		"cell line 2: y.View(-1)",
	}
	if ce.Name != "RuntimeError" || ce.Value != e.Message || strings.Join(ce.Traceback, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got %q %q %q", ce.Name, ce.Value, ce.Traceback)
	}
	e = refusal(t, func() { tensor.Arange(3).Index("5") })
	ce = TensorError(e, "")
	if ce.Name != "IndexError" || ce.Value != "index 5 is out of bounds for dimension 0 with size 3" || len(ce.Traceback) != 1 {
		t.Fatalf("got %q %q %q", ce.Name, ce.Value, ce.Traceback)
	}
}

// Every Python spelling in the table is in a message the tensor package
// gives, and gets its hint.
func TestPythonHints(t *testing.T) {
	bools := func() *tensor.Tensor { return tensor.New([]bool{true, false}) }
	for _, c := range []struct {
		call func()
		hint string
	}{
		{func() { tensor.Arange(6).View(2, 3).T().View(-1) }, "Reshape(...)"},
		{func() { tensor.Zeros(1, 3).Expand(2, 3).AddInPlace(1) }, "Clone()"},
		{func() {
			x := tensor.Float32.Arange(3).SetRequiresGrad(true)
			y := x.Mul(x).Sum()
			y.Backward()
			y.Backward()
		}, "Backward()"},
		{func() { tensor.Scalar(1.0).Index("0") }, "Item()"},
		{func() { bools().Neg() }, "m.Eq(false)"},
		{func() { bools().Sub(bools()) }, "a.Ne(b)"},
		{func() { tensor.Ones(2).RetainGrad() }, "SetRequiresGrad(true)"},
		{func() { tensor.Ones(2).SetRequiresGrad(true).Mul(2).SetRequiresGrad(false) }, "set with the method SetRequiresGrad"},
		{func() {
			x := tensor.Ones(2, 3).SetRequiresGrad(true).Mul(1)
			var v *tensor.Tensor
			tensor.NoGrad(func() { v = x.T() })
			v.MulInPlace(2)
		}, "tensor.NoGrad(func() { ... })"},
		{func() { tensor.Cat(nil, 0) }, "tensor.Cat"},
	} {
		e := refusal(t, c.call)
		if h := PythonHint(e.Message); !strings.HasPrefix(h, "hint: in Go, ") || !strings.Contains(h, c.hint) {
			t.Errorf("%q: hint %q, want one with %q", e.Message, h, c.hint)
		}
	}
	if h := PythonHint("index 5 is out of bounds for dimension 0 with size 3"); h != "" {
		t.Errorf("a hint for a message without Python: %q", h)
	}
	// The hints' Go calls do what the Python ones do.
	if got := bools().Eq(false).String(); got != "tensor([False,  True])" {
		t.Errorf("m.Eq(false) = %s", got)
	}
	if got := bools().Ne(tensor.New([]bool{true, true})).String(); got != "tensor([False,  True])" {
		t.Errorf("a.Ne(b) = %s", got)
	}
}

// Indexing a tensor as in Python gets the Go calls, with the variable and
// the index as written; other compile errors get no hint.
func TestIndexHint(t *testing.T) {
	for _, c := range []struct{ msg, src, want string }{
		{"cannot index x (variable of type *tensor.Tensor)", "x[0]", `hint: a tensor is indexed with x.Index("0") or x.Select(0, 0)`},
		{"invalid operation: cannot index acts (variable of type *tensor.Tensor)", "y := acts[2][1]", `hint: a tensor is indexed with acts.Index("2") or acts.Select(0, 2)`},
		{"cannot index x (variable of type *tensor.Tensor)", "x[i+1]", `hint: a tensor is indexed with x.Index("...") or x.Select(0, i+1)`},
		{"cannot slice x (variable of type *tensor.Tensor)", "x[1:3]", `hint: a tensor is sliced with x.Index("1:3") or x.Slice(0, 1, 3, 1)`},
		{"cannot slice x (variable of type *tensor.Tensor)", "x[:2]", `hint: a tensor is sliced with x.Index(":2") or x.Slice(0, 0, 2, 1)`},
		{"cannot index x.T() (value of type *tensor.Tensor)", "x.T()[0]", `hint: a tensor is indexed with x.T().Index("0") or x.T().Select(0, 0)`},
		{"cannot index n (variable of type int)", "n[0]", ""},
		{"undefined: x", "x[0]", ""},
	} {
		if got := IndexHint(c.msg, c.src); got != c.want {
			t.Errorf("IndexHint(%q, %q) = %q, want %q", c.msg, c.src, got, c.want)
		}
	}
}
