package tensor_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/tensor"
)

func TestNoGrad(t *testing.T) {
	x := tensor.New([]float32{1, 2, 3}).SetRequiresGrad(true)
	var y *tensor.Tensor
	tensor.NoGrad(func() {
		if tensor.IsGradEnabled() {
			t.Error("IsGradEnabled inside NoGrad")
		}
		y = x.Mul(2)
		x.AddInPlace(1) // an optimizer's step: allowed without grad
	})
	if !tensor.IsGradEnabled() {
		t.Error("grad stays disabled after NoGrad")
	}
	if y.RequiresGrad() || y.GradFn() != "" {
		t.Errorf("a result under NoGrad requires grad: %v", y)
	}
	if got := x.Version(); got != 1 {
		t.Errorf("Version after one in-place write = %d, want 1", got)
	}
	if !x.Equal(tensor.New([]float32{2, 3, 4})) || !x.IsLeaf() || !x.RequiresGrad() {
		t.Errorf("x after the step: %v", x)
	}
}

func TestDetachSharesStorageAndVersion(t *testing.T) {
	x := tensor.New([]float32{1, 2, 3}).SetRequiresGrad(true)
	d := x.Detach()
	if d.RequiresGrad() || !d.IsLeaf() || d.IsView() || !d.SharesStorage(x) {
		t.Fatalf("Detach: requires grad %v, leaf %v, view %v, shares %v", d.RequiresGrad(), d.IsLeaf(), d.IsView(), d.SharesStorage(x))
	}
	d.Set(10, 0)
	if x.At(0) != 10 || x.Version() != 1 {
		t.Errorf("a write through Detach: x = %v at version %d", x, x.Version())
	}
}

// Gradients accumulate across backward passes into the same Grad tensor,
// which SetGrad(nil) clears.
func TestGradAccumulates(t *testing.T) {
	x := tensor.New([]float32{1, 2}).SetRequiresGrad(true)
	x.Sum().Backward()
	first := x.Grad()
	x.Mul(3).Sum().Backward()
	if x.Grad() != first || !first.Equal(tensor.New([]float32{4, 4})) {
		t.Errorf("after two passes Grad = %v (same tensor: %v), want [4, 4]", x.Grad(), x.Grad() == first)
	}
	x.SetGrad(nil)
	if x.Grad() != nil {
		t.Error("SetGrad(nil) kept the gradient")
	}
	for _, tc := range []struct {
		g    *tensor.Tensor
		want string
	}{
		{tensor.Zeros(3), "assigned grad has data of a different size"},
		{tensor.Float64.Zeros(2), "assigned grad has data of a different type"},
	} {
		if err := tensor.Try(func() { x.SetGrad(tc.g) }); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("SetGrad(%v): %v, want %q", tc.g, err, tc.want)
		}
	}
}

// A leaf's gradient is laid out as the leaf is, when the leaf is dense.
func TestGradLayoutFollowsTheLeaf(t *testing.T) {
	x := tensor.Float32.Arange(12).Reshape(3, 4).T().Detach().SetRequiresGrad(true)
	x.Mul(2).Sum().Backward()
	if !slices.Equal(x.Grad().Strides(), x.Strides()) {
		t.Errorf("Grad strides %v, leaf strides %v", x.Grad().Strides(), x.Strides())
	}
}

func TestRetainGrad(t *testing.T) {
	x := tensor.New([]float32{1, 2, 3}).SetRequiresGrad(true)
	y := x.Mul(2).RetainGrad()
	z := x.Mul(2)
	y.Mul(y).Sum().Backward()
	if !y.Grad().Equal(tensor.New([]float32{4, 8, 12})) {
		t.Errorf("retained Grad = %v, want [4, 8, 12]", y.Grad())
	}
	if z.Grad() != nil {
		t.Error("a result that does not retain its gradient has one")
	}
	err := tensor.Try(func() { tensor.Zeros(2).RetainGrad() })
	if err == nil || !strings.Contains(err.Error(), "can't retain_grad on Tensor that has requires_grad=False") {
		t.Errorf("RetainGrad of a plain tensor: %v", err)
	}
}

// Under autograd, every in-place write bumps the version that views
// share, and a view of a leaf that requires grad refuses writes.
func TestInPlaceRules(t *testing.T) {
	x := tensor.Float32.Arange(6).SetRequiresGrad(true)
	y := x.Mul(1)
	v := y.Index(":3")
	v.AddInPlace(1)
	y.Set(7, 5)
	if y.GradFn() != "CopySlices" {
		t.Errorf("GradFn after writes through views = %q, want CopySlices", y.GradFn())
	}
	y.Fill(0)
	if y.GradFn() != "FillBackward2" {
		t.Errorf("GradFn after Fill = %q, want FillBackward2", y.GradFn())
	}
	if y.Version() != 3 || v.Version() != 3 {
		t.Errorf("versions after three writes: y %d, its view %d", y.Version(), v.Version())
	}
	y.Sum().Backward()
	if !x.Grad().Equal(tensor.Zeros(6)) {
		t.Errorf("after Fill(0) the gradient of x = %v, want zeros", x.Grad())
	}
	err := tensor.Try(func() { x.Index("1:").MulInPlace(2) })
	if err == nil || !strings.Contains(err.Error(), "a view of a leaf Variable that requires grad is being used in an in-place operation.") {
		t.Errorf("writing through a view of a leaf: %v", err)
	}
}
