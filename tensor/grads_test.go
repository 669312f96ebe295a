package tensor_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/tensor"
)

// A gradCase is a gradient fixture: a chain of operations on an input
// that requires grad, then a backward pass, in PyTorch (see run_grad_case
// in testdata/gen_fixtures.py).
type gradCase struct {
	Name         string
	Input        inputSpec
	RequiresGrad *bool `json:"requires_grad"`
	Ops          [][]any
	Backward     *inputSpec
	Times        int
	Error        *fixtureError
	Expect       *struct {
		GradFn     *string `json:"grad_fn"`
		Repr       string
		Grads      []*gradRecord
		SavedGrads map[string]*gradRecord `json:"saved_grads"`
		RootValues []value                `json:"root_values"`
		Version    int
	}
}

// A gradRecord is a gradient PyTorch computed, or null for none.
type gradRecord struct {
	Shape, Strides []int
	Values         []value
}

// runGradCase replays c and returns the result, the input, and the error
// it stopped with.
func runGradCase(t *testing.T, c gradCase) (result, root *tensor.Tensor, err *tensor.Error) {
	gradState.leaves, gradState.saved = nil, map[string]*tensor.Tensor{}
	result, err = run(t, func() *tensor.Tensor {
		root = makeInput(c.Input)
		root.SetRequiresGrad(c.RequiresGrad == nil || *c.RequiresGrad)
		x := root
		for _, op := range c.Ops {
			x = applyOp(x, root, op)
		}
		var grad *tensor.Tensor
		if c.Backward != nil {
			grad = makeInput(*c.Backward)
			if grad.Dim() == 1 && grad.Numel() == x.Numel() {
				grad = grad.Reshape(x.Shape()...) // a flat gradient, written for the result's shape
			}
		}
		t.Logf("result %v", x)
		for range max(c.Times, 1) {
			if grad == nil {
				x.Backward()
			} else {
				x.BackwardWith(grad)
			}
		}
		return x
	})
	return result, root, err
}

// Gradients of chains of operations match PyTorch's: the result's grad_fn
// and repr, the gradient of the input and of every other leaf (values,
// shape and strides), retained gradients, and the errors, word for word
// (our hints excepted).
func TestFixturesGrads(t *testing.T) {
	fx := loadFixtures(t)
	if len(fx.Grads) < 400 {
		t.Fatalf("only %d gradient fixtures", len(fx.Grads))
	}
	for _, c := range fx.Grads {
		t.Run(c.Name, func(t *testing.T) {
			got, root, err := runGradCase(t, c)
			if c.Error != nil {
				checkGradError(t, err, c.Error)
				return
			}
			if err != nil {
				t.Fatalf("PyTorch succeeds, we fail: %v", err)
			}
			e := c.Expect
			fn := ""
			if e.GradFn != nil {
				fn = *e.GradFn
			}
			if got.GradFn() != fn {
				t.Errorf("GradFn = %q, PyTorch %q", got.GradFn(), fn)
			}
			inexact := slices.ContainsFunc(c.Ops, func(op []any) bool {
				return slices.Contains([]string{"sum", "mean", "matmul"}, op[0].(string))
			})
			if !inexact && got.String() != e.Repr {
				t.Errorf("String:\n%s\nPyTorch:\n%s", got, e.Repr)
			}
			leaves := append([]*tensor.Tensor{root}, gradState.leaves...)
			if len(leaves) != len(e.Grads) {
				t.Fatalf("%d leaves, PyTorch %d", len(leaves), len(e.Grads))
			}
			for i, want := range e.Grads {
				checkGrad(t, leaves[i], want)
			}
			for name, want := range e.SavedGrads {
				checkGrad(t, gradState.saved[name], want)
			}
			checkValues(t, "input after the ops", root.Detach(), e.RootValues, false)
			if root.Version() != e.Version {
				t.Errorf("Version = %d, PyTorch %d", root.Version(), e.Version)
			}
		})
	}
}

// checkGrad compares the gradient of x with PyTorch's.
func checkGrad(t *testing.T, x *tensor.Tensor, want *gradRecord) {
	t.Helper()
	g := x.Grad()
	if want == nil || g == nil {
		if (want == nil) != (g == nil) {
			t.Fatalf("Grad = %v, PyTorch %v", g, want)
		}
		return
	}
	if !slices.Equal(g.Shape(), want.Shape) || !slices.Equal(g.Strides(), want.Strides) {
		t.Fatalf("Grad is %v strides %v, PyTorch %v strides %v", g.Shape(), g.Strides(), want.Shape, want.Strides)
	}
	checkValues(t, "grad", g, want.Values, true)
}

// checkGradError compares errors; where PyTorch's message points to
// Python (a hint to call torch.autograd.set_detect_anomaly, a line of
// Python code), ours says the same in Go's terms, and only the part
// before that is compared.
func checkGradError(t *testing.T, err *tensor.Error, want *fixtureError) {
	t.Helper()
	if err == nil {
		t.Fatalf("PyTorch raises %s: %s; we do not", want.Class, want.Message)
	}
	got, msg := err.Message, want.Message
	for _, cut := range []string{" Hint:", " If you want to use a computed variable"} {
		if i := strings.Index(msg, cut); i >= 0 && strings.HasPrefix(got, msg[:i]) {
			got, msg = got[:i], msg[:i]
		}
	}
	if err.Class != want.Class || got != msg {
		t.Fatalf("error:\n got %s: %s\nwant %s: %s", err.Class, err.Message, want.Class, want.Message)
	}
}
