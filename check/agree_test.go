package check_test

import (
	"strings"
	"testing"

	"github.com/tensornb/tensornb/check"
	"github.com/tensornb/tensornb/internal/gradeseed"
	"github.com/tensornb/tensornb/tensor"
)

// diagonal is the reference of the diagonal puzzle: a view.
func diagonal(x *tensor.Tensor) *tensor.Tensor { return x.Diagonal(0, 0, 1) }

// squares are the inputs of the diagonal puzzle.
var squares = check.Inputs{Shapes: check.Squares(0, 6), View: true}

// agreeError runs Agree and returns its failure, "" if it passed.
func agreeError(yours func(*tensor.Tensor) *tensor.Tensor, in check.Inputs) string {
	if err := tensor.Try(func() { check.Agree(yours, diagonal, in) }); err != nil {
		return err.Error()
	}
	return ""
}

// The teacher's answer to the diagonal puzzle passes on every generated
// layout. Answers right for the 4×4 example alone fail, each on the
// smallest input that fails, shown by the line that makes it: the
// strides of the example typed in, on a 1×1; strides that take the
// input for contiguous, on a 2×2 cut out of a 2×3; an answer that leaves
// out the storage offset, on a 1×1 one slot into its storage; a copy,
// on a 1×1.
func TestAgreeOnGeneratedLayouts(t *testing.T) {
	solution := func(x *tensor.Tensor) *tensor.Tensor {
		return x.AsStrided([]int{x.Size(0)}, []int{x.Stride(0) + x.Stride(1)}, x.StorageOffset())
	}
	if err := agreeError(solution, squares); err != "" {
		t.Fatalf("the teacher's solution failed: %v", err)
	}
	for _, c := range []struct {
		name  string
		yours func(*tensor.Tensor) *tensor.Tensor
		want  string
	}{
		{"the example's strides typed in", func(x *tensor.Tensor) *tensor.Tensor { return x.AsStrided([]int{4}, []int{5}, 0) },
			"check.Agree: on the input x := tensor.Float32.Arange(1).View(1, 1): your function failed: as_strided: "},
		{"strides of a contiguous input", func(x *tensor.Tensor) *tensor.Tensor {
			return x.AsStrided([]int{x.Size(0)}, []int{x.Size(1) + 1}, x.StorageOffset())
		}, `check.Agree: on the input x := tensor.Float32.Arange(6).View(2, 3).Index(":, 1:3"): wrong values: 1 of 2 elements differs, at [1]: yours is 4., 5. was expected`},
		{"no storage offset", func(x *tensor.Tensor) *tensor.Tensor {
			return x.AsStrided([]int{x.Size(0)}, []int{x.Stride(0) + x.Stride(1)}, 0)
		}, `check.Agree: on the input x := tensor.Float32.Arange(2).View(2, 1).Index("1:2, :"): wrong values: 1 of 1 elements differs, at [0]: yours is 0., 1. was expected`},
		{"a copy", func(x *tensor.Tensor) *tensor.Tensor { return x.Diagonal(0, 0, 1).Clone() },
			"check.Agree: on the input x := tensor.Float32.Arange(1).View(1, 1): right values, but a copy"},
	} {
		if got := agreeError(c.yours, squares); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: got\n%s\nwant it to start\n%s", c.name, got, c.want)
		}
	}
}

// Without View, Agree checks values alone: a copy with the right values
// passes, a function of other values fails.
func TestAgreeOnValues(t *testing.T) {
	values := check.Inputs{Shapes: [][]int{{2, 3}, {1, 4}, {0, 2}, {3, 1, 2}}, DTypes: []tensor.DType{tensor.Float64, tensor.Int32}}
	double := func(x *tensor.Tensor) *tensor.Tensor { return x.Add(x) }
	if err := tensor.Try(func() {
		check.Agree(func(x *tensor.Tensor) *tensor.Tensor { return x.Mul(2).Contiguous() }, double, values)
	}); err != nil {
		t.Errorf("a right copy failed: %v", err)
	}
	err := tensor.Try(func() { check.Agree(func(x *tensor.Tensor) *tensor.Tensor { return x.Add(1) }, double, values) })
	if err == nil || !strings.Contains(err.Error(), "wrong values") {
		t.Errorf("x+1 for 2x: %v, want wrong values", err)
	}
}

// The inputs come from the grade_id that tensornb grade gives the test
// cell: the same grade_id fails an answer on the same input twice, which
// a grade needs to reproduce.
func TestAgreeReproduces(t *testing.T) {
	t.Cleanup(func() { gradeseed.Set("") })
	// Wrong only for inputs whose rows are not next to each other.
	rowsApart := func(x *tensor.Tensor) *tensor.Tensor {
		if x.Dim() == 2 && x.Size(0) > 1 && x.Stride(0) != x.Size(1) {
			return x.Diagonal(0, 0, 1).Clone()
		}
		return x.Diagonal(0, 0, 1)
	}
	first := map[string]string{}
	for range 2 {
		for _, id := range []string{"diagonal_test", "antidiagonal_test"} {
			gradeseed.Set(id)
			got := agreeError(rowsApart, check.Inputs{Shapes: check.Squares(2, 5), View: true, Cases: 5})
			if got == "" {
				t.Fatalf("grade_id %s: the answer passed, wrong for rows apart", id)
			}
			if was, ok := first[id]; ok && got != was {
				t.Errorf("grade_id %s: %q, then %q", id, was, got)
			}
			first[id] = got
		}
	}
}
