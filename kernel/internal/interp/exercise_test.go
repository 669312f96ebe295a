package interp_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/kernel/internal/front"
)

// A test cell's check runs in the instant engine: a passing one is
// quiet, and a failing one shows its picture, then fails the cell as an
// AssertionError with the check's words and the cell line.
func TestExerciseChecks(t *testing.T) {
	s, out := newSession(t)
	run(t, s, "x := tensor.Arange(6).View(2, 3)\nfunc Transposed(x *tensor.Tensor) *tensor.Tensor { return x.T().Contiguous() }")
	run(t, s, "check.View(x.T(), x, x.Transpose(0, 1))")
	if len(out.shows) != 0 {
		t.Fatalf("a passing check showed %q", out.shows)
	}
	err := s.Run(context.Background(), "y := Transposed(x)\ncheck.View(y, x, x.Transpose(0, 1))")
	var ce *front.CellError
	if !errors.As(err, &ce) {
		t.Fatalf("the failing check gave %v, want a cell error", err)
	}
	if ce.Name != "AssertionError" || !strings.HasPrefix(ce.Value, "right values, but a copy: your result lives in a new storage of 6 slots") {
		t.Errorf("got %s: %s", ce.Name, ce.Value)
	}
	if want := "cell line 2: check.View(y, x, x.Transpose(0, 1))"; !strings.Contains(strings.Join(ce.Traceback, "\n"), want) {
		t.Errorf("the traceback %q lacks %q", ce.Traceback, want)
	}
	if len(out.shows) != 1 || !strings.Contains(out.shows[0], "expected and yours side by side") {
		t.Errorf("shown: %q, want the comparison", out.shows)
	}
}
