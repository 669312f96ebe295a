package grade_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tensornb/tensornb/check"
	"github.com/tensornb/tensornb/internal/gradeseed"
	"github.com/tensornb/tensornb/kernel/internal/grade"
	"github.com/tensornb/tensornb/kernel/internal/nbgrader"
	"github.com/tensornb/tensornb/kernel/internal/notebook"
	"github.com/tensornb/tensornb/tensor"
)

// rowsApart is a wrong answer to the diagonal puzzle that is right for
// some layouts: it copies when the rows of its input are not next to
// each other. rowsApartGo is the same function in Go.
const rowsApart = `func Diagonal(x *tensor.Tensor) *tensor.Tensor {
	if x.Size(0) > 1 && x.Stride(0) != x.Size(1) {
		return x.Diagonal(0, 0, 1).Clone()
	}
	return x.Diagonal(0, 0, 1)
}`

func rowsApartGo(x *tensor.Tensor) *tensor.Tensor {
	if x.Size(0) > 1 && x.Stride(0) != x.Size(1) {
		return x.Diagonal(0, 0, 1).Clone()
	}
	return x.Diagonal(0, 0, 1)
}

// A test cell's check.Agree draws its inputs from the cell's grade_id,
// which the grader gives the worker: graded twice, a submission fails on
// the same input, the one check.Agree gives in this process for that
// grade_id.
func TestAgreeIsSeededByGradeID(t *testing.T) {
	const id = "diagonal_layouts"
	inputs := "check.Inputs{Shapes: check.Squares(1, 5), View: true, Cases: 20}"
	teacher := &notebook.Notebook{Format: 4, FormatMinor: 5, Metadata: map[string]any{},
		Cells: []*notebook.Cell{
			cell("code", "locked", "setup", 0, "import (\n\t\"github.com/tensornb/tensornb/check\"\n\t\"github.com/tensornb/tensornb/tensor\"\n)"),
			cell("code", "answer", "diagonal", 0, "func Diagonal(x *tensor.Tensor) *tensor.Tensor {\n\t// BEGIN SOLUTION\n\treturn x.Diagonal(0, 0, 1)\n\t// END SOLUTION\n}"),
			cell("code", "tests", id, 2, "check.Agree(Diagonal, func(x *tensor.Tensor) *tensor.Tensor { return x.Diagonal(0, 0, 1) }, "+inputs+")"),
		}}
	sub, err := nbgrader.Assign(teacher)
	if err != nil {
		t.Fatal(err)
	}
	sub.Cells[1].Source = rowsApart
	path := write(t, t.TempDir(), "rows-apart.ipynb", sub)
	g, err := grade.New(teacher, grade.Options{Engine: engine, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}

	gradeseed.Set(id)
	defer gradeseed.Set("")
	in := check.Inputs{Shapes: check.Squares(1, 5), View: true, Cases: 20}
	want := tensor.Try(func() {
		check.Agree(rowsApartGo, func(x *tensor.Tensor) *tensor.Tensor { return x.Diagonal(0, 0, 1) }, in)
	})
	if want == nil {
		t.Fatal("the wrong answer passed in this process: the test cannot tell seeds apart")
	}
	line := strings.TrimPrefix(want.Error(), "check.Agree: ")
	for run := range 2 {
		r := g.Grade(context.Background(), path)
		if r.Error != "" || len(r.Tests) != 1 {
			t.Fatalf("run %d: %s, %d tests", run+1, r.Error, len(r.Tests))
		}
		if fb := r.Tests[0].Feedback; !strings.HasPrefix(fb, "AssertionError: "+line) {
			t.Errorf("run %d's feedback:\n%s\nwant it to start\nAssertionError: %s", run+1, fb, line)
		}
	}
}
