package nbgrader_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/kernel/internal/nbgrader"
	"github.com/tensornb/tensornb/kernel/internal/notebook"
)

// cell makes a cell; role is "" (ordinary), "locked", "answer",
// "manual" (a markdown answer graded by hand) or "tests".
func cell(typ, role, id, source string) *notebook.Cell {
	c := &notebook.Cell{Type: typ, Source: source, Metadata: map[string]any{}}
	if typ == "code" {
		n := 3
		c.ExecutionCount = &n
		c.Outputs = []map[string]any{{"output_type": "stream", "name": "stdout", "text": "old output\n"}}
	}
	md := map[string]any{"grade_id": id, "schema_version": 3.0, "grade": false, "solution": false, "locked": false, "task": false}
	switch role {
	case "":
		return c
	case "locked":
		md["locked"] = true
	case "answer":
		md["solution"] = true
	case "manual":
		md["solution"], md["grade"], md["points"] = true, true, 1.0
	case "tests":
		md["grade"], md["locked"], md["points"] = true, true, 2.0
	}
	c.Metadata["nbgrader"] = md
	return c
}

const diagonal = `// Diagonal returns the diagonal of a square x, as a view.
func Diagonal(x *tensor.Tensor) *tensor.Tensor {
	// BEGIN SOLUTION
	n := x.Size(0)
	return x.AsStrided([]int{n}, []int{n + 1}, 0)
	// END SOLUTION
}`

const diagonalTests = `x := tensor.Arange(9).View(3, 3)
check.View(Diagonal(x), x, x.Diagonal(0, 0, 1))
// BEGIN HIDDEN TESTS
y := tensor.Arange(16).View(4, 4)
check.View(Diagonal(y), y, y.Diagonal(0, 0, 1))
// END HIDDEN TESTS`

func teacher() *notebook.Notebook {
	return &notebook.Notebook{Format: 4, FormatMinor: 5, Metadata: map[string]any{"kernelspec": map[string]any{"name": "tensornb", "display_name": "Go (tensornb)"}},
		Cells: []*notebook.Cell{
			cell("markdown", "", "", "# Puzzles"),
			cell("code", "locked", "setup", `import "github.com/tensornb/tensornb/tensor"`),
			cell("code", "answer", "diagonal", diagonal),
			cell("code", "tests", "diagonal_tests", diagonalTests),
			cell("code", "answer", "whole", "var every = 2"),
			cell("markdown", "manual", "why", "Because a stride of n+1 steps over a row and a column."),
		}}
}

func TestAssign(t *testing.T) {
	src := teacher()
	nb, err := nbgrader.Assign(src)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"# Puzzles",
		`import "github.com/tensornb/tensornb/tensor"`,
		"// Diagonal returns the diagonal of a square x, as a view.\nfunc Diagonal(x *tensor.Tensor) *tensor.Tensor {\n\t// YOUR CODE HERE\n\tpanic(\"not written yet\")\n}",
		"x := tensor.Arange(9).View(3, 3)\ncheck.View(Diagonal(x), x, x.Diagonal(0, 0, 1))",
		"// YOUR CODE HERE\npanic(\"not written yet\")",
		"YOUR ANSWER HERE",
	}
	for i, c := range nb.Cells {
		if c.Source != want[i] {
			t.Errorf("cell %d:\n%s\nwant:\n%s", i+1, c.Source, want[i])
		}
		if c.Type == "code" && (c.Outputs != nil || c.ExecutionCount != nil) {
			t.Errorf("cell %d kept its outputs", i+1)
		}
		locked := i == 1 || i == 3
		if e, d := c.Metadata["editable"], c.Metadata["deletable"]; locked != (e == false && d == false) {
			t.Errorf("cell %d: editable %v, deletable %v", i+1, e, d)
		}
	}
	if errs := nbgrader.Validate(nb); len(errs) > 0 {
		t.Errorf("the student's version breaks the format: %v", errs)
	}
	if src.Cells[2].Source != diagonal || src.Cells[3].Outputs == nil {
		t.Error("Assign changed the teacher's notebook")
	}
}

func TestValidate(t *testing.T) {
	for name, c := range map[string]struct {
		cells []*notebook.Cell
		want  string
	}{
		"no grade_id":           {[]*notebook.Cell{cell("code", "answer", "", "x := 1")}, "cell 1: it has nbgrader metadata but no grade_id"},
		"grade_id's characters": {[]*notebook.Cell{cell("code", "answer", "a b", "x := 1")}, "has characters other than letters"},
		"a grade_id twice": {[]*notebook.Cell{cell("code", "answer", "a", "x := 1"), cell("code", "tests", "a", "y := 2")},
			"cell 2 (a): its grade_id is also cell 1's"},
		"markdown tests":        {[]*notebook.Cell{cell("markdown", "tests", "t", "text")}, "a test cell must be a code cell, not markdown"},
		"solution outside":      {[]*notebook.Cell{cell("code", "", "", "// BEGIN SOLUTION\nx := 1\n// END SOLUTION")}, "BEGIN SOLUTION stands in a cell that is not an answer cell"},
		"hidden tests outside":  {[]*notebook.Cell{cell("code", "answer", "a", "// BEGIN HIDDEN TESTS\n// END HIDDEN TESTS")}, "BEGIN HIDDEN TESTS stands in a cell that is not a test cell"},
		"left open":             {[]*notebook.Cell{cell("code", "answer", "a", "x := 1\n// BEGIN SOLUTION\nx = 2")}, "cell 1 (a): line 2: // BEGIN SOLUTION is never closed by // END SOLUTION"},
		"closed without opener": {[]*notebook.Cell{cell("code", "answer", "a", "// END SOLUTION")}, "line 1: // END SOLUTION closes no // BEGIN SOLUTION"},
		"nested":                {[]*notebook.Cell{cell("code", "answer", "a", "// BEGIN SOLUTION\n// BEGIN SOLUTION\n// END SOLUTION")}, "line 2: // BEGIN SOLUTION inside the region line 1 opened"},
	} {
		nb := &notebook.Notebook{Cells: c.cells, Metadata: map[string]any{}}
		errs := nbgrader.Validate(nb)
		if len(errs) == 0 || !strings.Contains(errs[0].Error(), c.want) {
			t.Errorf("%s: got %v, want %q", name, errs, c.want)
		}
		if _, err := nbgrader.Assign(nb); err == nil {
			t.Errorf("%s: Assign took a notebook that breaks the format", name)
		}
	}
}

// sources returns the cells' sources.
func sources(nb *notebook.Notebook) []string {
	var s []string
	for _, c := range nb.Cells {
		s = append(s, c.Source)
	}
	return s
}

func TestRestore(t *testing.T) {
	src := teacher()
	student, err := nbgrader.Assign(src)
	if err != nil {
		t.Fatal(err)
	}
	// The student answers, changes the test cell, adds a cell of their
	// own, copies the test cell, and deletes the cell of the second
	// answer.
	answer := "func Diagonal(x *tensor.Tensor) *tensor.Tensor { return x.Diagonal(0, 0, 1) }"
	student.Cells[2].Source = answer
	student.Cells[3].Source = "// no tests here"
	own := cell("code", "", "", "helper := 1")
	copied := cell("code", "tests", "diagonal_tests", "fake := true")
	student.Cells = []*notebook.Cell{student.Cells[0], student.Cells[1], student.Cells[2], own, student.Cells[3], copied, student.Cells[5]}

	graded, err := nbgrader.Restore(src, student)
	if err != nil {
		t.Fatal(err)
	}
	// The deleted answer comes back right after the teacher's cell before
	// it, the test cell, ahead of the student's copy of that.
	want := []string{"# Puzzles", `import "github.com/tensornb/tensornb/tensor"`, answer, "helper := 1", diagonalTests,
		"// YOUR CODE HERE\npanic(\"not written yet\")", "fake := true", "YOUR ANSWER HERE"}
	if got := sources(graded); strings.Join(got, "\n--\n") != strings.Join(want, "\n--\n") {
		t.Errorf("restored:\n%s\nwant:\n%s", strings.Join(got, "\n--\n"), strings.Join(want, "\n--\n"))
	}
	if _, ok := nbgrader.Of(graded.Cells[6]); ok {
		t.Error("the copy of the test cell kept its nbgrader metadata")
	}
	if m, _ := nbgrader.Of(graded.Cells[5]); m.GradeID != "whole" || !m.Solution {
		t.Errorf("the deleted answer came back as %+v", m)
	}
	for i, c := range graded.Cells {
		if c.Type == "code" && c.Outputs != nil {
			t.Errorf("cell %d kept outputs", i+1)
		}
	}
}

func TestForeign(t *testing.T) {
	other := &notebook.Notebook{Metadata: map[string]any{}, Cells: []*notebook.Cell{cell("code", "answer", "fizz", "x := 1")}}
	plain := &notebook.Notebook{Metadata: map[string]any{}, Cells: []*notebook.Cell{cell("code", "", "", "x := 1")}}
	for name, c := range map[string]struct {
		nb   *notebook.Notebook
		want string
	}{
		"another assignment's": {other, "its cells fizz are not the assignment's, which are setup, diagonal, diagonal_tests, whole, why"},
		"no assignment's":      {plain, "it has none of the assignment's cells (setup, diagonal, diagonal_tests, whole, why)"},
	} {
		_, err := nbgrader.Restore(teacher(), c.nb)
		var f *nbgrader.Foreign
		if !errors.As(err, &f) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want a Foreign saying %q", name, err, c.want)
		}
	}
}
