package check_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/check"
	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/internal/displaysink"
	"github.com/tensornb/tensornb/tensor"
)

// outcome runs f, catching the picture it shows and the error it panics
// with.
func outcome(t *testing.T, f func()) (pictures []display.Bundle, err *tensor.Error) {
	t.Helper()
	displaysink.Set(func(b map[string]string, _ string, _ bool) error {
		pictures = append(pictures, b)
		return nil
	})
	defer displaysink.Set(nil)
	e := tensor.Try(f)
	if e != nil && !errors.As(e, &err) {
		t.Fatalf("not a *tensor.Error: %v", e)
	}
	return pictures, err
}

func TestChecks(t *testing.T) {
	x := tensor.Float32.Arange(16).View(4, 4)
	diag := x.Diagonal(0, 0, 1)
	var y *tensor.Tensor
	cases := []struct {
		name string
		f    func()
		// want is the start of the failure's message; "" for a pass.
		want    string
		picture string // a line the picture's text holds, if one is shown
	}{
		{"view passes", func() { check.View(x.AsStrided([]int{4}, []int{5}, 0), x, diag) }, "", ""},
		{"copy of the right values", func() { check.View(diag.Contiguous(), x, diag) },
			"right values, but a copy: your result lives in a new storage of 4 slots; a view of the input was asked for (View, Transpose", "storage     S1: 16 × float32  S2: 4 × float32  ≠"},
		{"view with other strides", func() { check.View(x.AsStrided([]int{4}, []int{4}, 0), x, diag) },
			"wrong values: 3 of 4 elements differ, the first at [1]: yours is 4., 5. was expected", "strides     (5,)              (4,)              ≠"},
		{"same values, another layout", func() {
			z := tensor.Zeros(4, 4)
			check.View(z.AsStrided([]int{4}, []int{1}, 0), z, z.Diagonal(0, 0, 1))
		}, "right values, read from the input's storage, but in another layout: your strides are (1,), (5,) were expected", ""},
		{"wrong shape", func() { check.View(x.Select(0, 0), x, x.Select(0, 0).View(2, 2)) }, "wrong shape: yours is (4,), (2, 2) was expected", "shape       (2, 2)            (4,)              ≠"},
		{"wrong dtype", func() { check.Equal(x.To(tensor.Float64), x) }, "wrong dtype: yours is float64, float32 was expected", ""},
		{"nil result", func() { check.View(y, x, diag) }, "your result is nil, not a tensor", ""},
		{"equal passes, NaN matches NaN", func() {
			n := tensor.New([]float64{1, 0}, 2).Div(tensor.New([]float64{1, 0}, 2))
			check.Equal(n, n.Clone())
		}, "", ""},
		{"one element differs", func() { check.Equal(tensor.New([]int64{1, 2, 3}, 3), tensor.New([]int64{1, 2, 4}, 3)) },
			"wrong values: 1 of 3 elements differs, at [2]: yours is 3, 4 was expected", "3≠"},
		{"close within float32's tolerance", func() { check.Close(tensor.New([]float32{1.000001}, 1), tensor.New([]float32{1}, 1)) }, "", ""},
		{"close beyond it", func() { check.Close(tensor.New([]float32{1.001}, 1), tensor.New([]float32{1}, 1)) }, "wrong values: 1 of 1 elements differs, at [0]: yours is 1.001, 1. was expected (beyond rtol 1.3e-06 and atol 1e-05)", ""},
		{"close within given tolerances", func() { check.CloseWithin(tensor.New([]float32{1.001}, 1), tensor.New([]float32{1}, 1), 0, 0.01) }, "", ""},
		{"view of", func() { check.ViewOf(x.T(), x) }, "", ""},
		{"copy, not a view of", func() { check.ViewOf(x.T().Contiguous(), x) }, "a copy: your result lives in a new storage of 16 slots", "input and yours: separate storages (S1, S2)"},
		{"strides", func() { check.Strides(x.T(), 1, 4) }, "", ""},
		{"strides in another order", func() { check.Strides(x, 1, 4) }, "wrong strides: yours are (4, 1), (1, 4) were expected: the same strides in another order, as from a Transpose or Permute of the dimensions", "strides    (4, 1) elements"},
		{"a stride of 0 wanted", func() { check.Strides(x.Select(0, 0).View(1, 4).Repeat(3, 1), 0, 1) }, "wrong strides: yours are (4, 1), (0, 1) were expected: a stride of 0 repeats an element without copying it, as Expand does", ""},
		{"shape", func() { check.Shape(x, 4, 4) }, "", ""},
		{"wrong shape alone", func() { check.Shape(x, 16) }, "wrong shape: yours is (4, 4), (16,) was expected", ""},
		{"offset", func() { check.Offset(x.Select(0, 1), 4) }, "", ""},
		{"wrong offset", func() { check.Offset(x.Select(0, 1), 1) }, "wrong storage offset: yours is 4, 1 was expected", ""},
		{"contiguous", func() { check.Contiguous(x) }, "", ""},
		{"not contiguous, wanted", func() { check.Contiguous(x.T()) }, "not contiguous: a contiguous tensor of shape (4, 4) has strides (4, 1), yours has (1, 4)", ""},
		{"contiguous, not wanted", func() { check.NotContiguous(x) }, "contiguous: your tensor's elements lie in row-major order (strides (4, 1))", ""},
		{"layout", func() { check.Layout(x.T(), x.Transpose(0, 1)) }, "", ""},
		{"wrong layout", func() { check.Layout(x.T().Contiguous(), x.T()) }, "wrong layout: your strides are (4, 1), (1, 4) were expected", ""},
		{"no copy", func() { check.NoCopy(func() { y = x.T().Unsqueeze(0) }) }, "", ""},
		{"copies", func() { check.NoCopy(func() { y = x.T().Contiguous().Clone() }) }, "your code allocated 2 new storages where only views were asked for", ""},
		{"that", func() { check.That(1+1 == 2, "arithmetic") }, "", ""},
		{"that fails", func() { check.That(false, "Split should give %d parts", 3) }, "Split should give 3 parts", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pictures, err := outcome(t, c.f)
			if c.want == "" {
				if err != nil {
					t.Fatalf("failed: %v", err)
				}
				if len(pictures) > 0 {
					t.Errorf("a passing check showed a picture:\n%s", pictures[0].String())
				}
				return
			}
			if err == nil {
				t.Fatalf("passed; want a failure starting %q", c.want)
			}
			if err.Class != tensor.AssertionError || !strings.HasPrefix(err.Message, c.want) {
				t.Errorf("failed with %s %q\nwant AssertionError starting %q", err.Class, err.Message, c.want)
			}
			if c.picture == "" {
				return
			}
			if len(pictures) != 1 {
				t.Fatalf("showed %d pictures, want 1", len(pictures))
			}
			if text := pictures[0].String(); !strings.Contains(text, c.picture) {
				t.Errorf("the picture lacks %q:\n%s", c.picture, text)
			}
		})
	}
}

// TestMisuse: a nil input or expected tensor is the check's misuse, a
// ValueError, not a wrong answer.
func TestMisuse(t *testing.T) {
	x := tensor.Arange(4)
	_, err := outcome(t, func() { check.View(x, nil, x) })
	if err == nil || err.Class != tensor.ValueError || !strings.Contains(err.Message, "the input is nil") {
		t.Errorf("got %v, want a ValueError naming the input", err)
	}
}
