package gradebook_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/kernel/internal/grade"
	"github.com/tensornb/tensornb/kernel/internal/gradebook"
	"github.com/tensornb/tensornb/kernel/internal/nbgrader"
	"github.com/tensornb/tensornb/kernel/internal/notebook"
)

// results are three submissions of an assignment of two tests: one with
// full marks, one that failed the second, one not graded.
var results = []grade.Result{
	{Submission: "submitted/ada/puzzles/puzzles.ipynb", Score: 3, MaxScore: 3, Tests: []grade.Test{
		{GradeID: "row_test", Points: 1, MaxPoints: 1}, {GradeID: "diagonal_test", Points: 2, MaxPoints: 2}}},
	{Submission: "submitted/grace/puzzles/puzzles.ipynb", Score: 1, MaxScore: 3, Tests: []grade.Test{
		{GradeID: "row_test", Points: 1, MaxPoints: 1}, {GradeID: "diagonal_test", Points: 0, MaxPoints: 2, Feedback: "AssertionError: right values, but a copy\ncell line 2"}}},
	{Submission: "submitted/alan/puzzles/essay.txt", MaxScore: 3, Error: "not a Jupyter notebook of nbformat 4"},
}

func TestStudentID(t *testing.T) {
	for path, want := range map[string]string{
		"submitted/ada/puzzles/puzzles.ipynb":     "ada",
		"/course/submitted/grace/puzzles/x.ipynb": "grace",
		"class/alan/puzzles/puzzles.ipynb":        "alan",
		"class/alan/other/puzzles.ipynb":          "puzzles",
		"bob.ipynb":                               "bob",
		"submitted/puzzles.ipynb":                 "puzzles",
	} {
		if got := gradebook.StudentID(path, "puzzles"); got != want {
			t.Errorf("StudentID(%q) = %q, want %q", path, got, want)
		}
	}
}

// The CSV has Canvas's columns, a column a test with its points and the
// total under the assignment's name; a row a student, the one not
// graded left empty.
func TestWriteCSV(t *testing.T) {
	var b bytes.Buffer
	if err := gradebook.WriteCSV(&b, "puzzles", results); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatalf("not CSV: %v\n%s", err, b.String())
	}
	want := [][]string{
		{"Student", "ID", "SIS User ID", "SIS Login ID", "Section", "row_test", "diagonal_test", "puzzles"},
		{"Points Possible", "", "", "", "", "1", "2", "3"},
		{"ada", "", "", "ada", "", "1", "2", "3"},
		{"grace", "", "", "grace", "", "1", "0", "1"},
		{"alan", "", "", "alan", "", "", "", ""},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d:\n%s", len(rows), len(want), b.String())
	}
	for i := range want {
		if strings.Join(rows[i], "|") != strings.Join(want[i], "|") {
			t.Errorf("row %d: %q, want %q", i, rows[i], want[i])
		}
	}
}

// Gradescope's results: the score, and each test with its points, its
// feedback, and the visibility the teacher's test cell gives it.
func TestGradescope(t *testing.T) {
	teacher := &notebook.Notebook{Cells: []*notebook.Cell{
		{Type: "code", Metadata: map[string]any{"nbgrader": map[string]any{"grade_id": "row_test", "grade": true, "solution": false, "points": 1.0}}},
		{Type: "code", Metadata: map[string]any{"nbgrader": map[string]any{"grade_id": "diagonal_test", "grade": true, "solution": false, "points": 2.0, "visibility": "after_due_date"}}},
	}}
	data, err := json.Marshal(gradebook.Gradescope(teacher, results[1]))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Score      *float64 `json:"score"`
		Visibility string   `json:"visibility"`
		Tests      []struct {
			Name       string   `json:"name"`
			Score      *float64 `json:"score"`
			MaxScore   *float64 `json:"max_score"`
			Output     string   `json:"output"`
			Visibility string   `json:"visibility"`
		} `json:"tests"`
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if got.Score == nil || *got.Score != 1 || got.Visibility != "visible" || len(got.Tests) != 2 {
		t.Fatalf("results.json: %s", data)
	}
	for i, w := range []struct {
		name, visibility, output string
		score, max               float64
	}{{"row_test", "visible", "", 1, 1}, {"diagonal_test", "after_due_date", "AssertionError: right values, but a copy\ncell line 2", 0, 2}} {
		g := got.Tests[i]
		if g.Name != w.name || g.Visibility != w.visibility || g.Output != w.output || g.Score == nil || *g.Score != w.score || g.MaxScore == nil || *g.MaxScore != w.max {
			t.Errorf("test %d: %s", i, data)
		}
	}
	bad, _ := json.Marshal(gradebook.Gradescope(teacher, results[2]))
	if !strings.Contains(string(bad), `"score":0`) || !strings.Contains(string(bad), "could not be graded: not a Jupyter notebook") {
		t.Errorf("a submission not graded: %s", bad)
	}
}

// A visibility that Gradescope does not take, or on a cell that is no
// test, breaks the format.
func TestVisibilityIsValidated(t *testing.T) {
	nb := &notebook.Notebook{Cells: []*notebook.Cell{
		{Type: "code", Source: "check.That(true, \"\")", Metadata: map[string]any{"nbgrader": map[string]any{"grade_id": "a", "grade": true, "solution": false, "points": 1.0, "visibility": "secret"}}},
		{Type: "code", Source: "x := 1", Metadata: map[string]any{"nbgrader": map[string]any{"grade_id": "b", "locked": true, "visibility": "hidden"}}},
	}}
	errs := nbgrader.Validate(nb)
	if len(errs) != 2 || !strings.Contains(errs[0].Error(), `visibility "secret" is none of Gradescope's`) || !strings.Contains(errs[1].Error(), "only a test cell has a visibility") {
		t.Errorf("errors: %v", errs)
	}
}

// A GitHub Classroom step prints a line a test and the points, and has
// full marks only with every test passed.
func TestClassroom(t *testing.T) {
	for i, want := range []struct {
		out  string
		full bool
	}{
		{"row_test: 1/1 passed\ndiagonal_test: 2/2 passed\nPoints 3/3\n", true},
		{"row_test: 1/1 passed\ndiagonal_test: 0/2 AssertionError: right values, but a copy\nPoints 1/3\n", false},
		{"not graded: not a Jupyter notebook of nbformat 4\nPoints 0/3\n", false},
	} {
		var b bytes.Buffer
		full, err := gradebook.Classroom(&b, results[i])
		if err != nil || full != want.full || b.String() != want.out {
			t.Errorf("result %d: full %v, err %v, printed\n%s\nwant full %v, printed\n%s", i, full, err, b.String(), want.full, want.out)
		}
	}
}

// A step of one test prints that test's line and points, and has full
// marks with that test passed, whatever the others did.
func TestClassroomTest(t *testing.T) {
	row, diagonal := gradebook.TestCell{GradeID: "row_test", Points: 1}, gradebook.TestCell{GradeID: "diagonal_test", Points: 2}
	for _, c := range []struct {
		result int
		test   gradebook.TestCell
		out    string
		full   bool
	}{
		{1, row, "row_test: 1/1 passed\nPoints 1/1\n", true},
		{1, diagonal, "diagonal_test: 0/2 AssertionError: right values, but a copy\nPoints 0/2\n", false},
		{2, diagonal, "not graded: not a Jupyter notebook of nbformat 4\nPoints 0/2\n", false},
		{0, gradebook.TestCell{GradeID: "hankel_test", Points: 3}, "not graded: the submission has no test cell hankel_test\nPoints 0/3\n", false},
	} {
		var b bytes.Buffer
		full, err := gradebook.ClassroomTest(&b, results[c.result], c.test)
		if err != nil || full != c.full || b.String() != c.out {
			t.Errorf("result %d, %s: full %v, err %v, printed\n%s\nwant full %v, printed\n%s", c.result, c.test.GradeID, full, err, b.String(), c.full, c.out)
		}
	}
}

// The workflow has a step a test cell, each running -classroom -test on
// it and worth its points, and a reporter that reads every step.
func TestWorkflow(t *testing.T) {
	var b bytes.Buffer
	tests := []gradebook.TestCell{{"row_test", 1}, {"2nd test", 2.5}}
	if err := gradebook.Workflow(&b, "teacher/ps 1.ipynb", "ps1.ipynb", tests); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"      - id: row_test\n        uses: classroom-resources/autograding-command-grader@v1\n        with:\n          test-name: \"row_test\"\n" +
			"          command: \"$HOME/.local/bin/tensornb grade -image none -classroom -test row_test 'teacher/ps 1.ipynb' ps1.ipynb\"\n          max-score: 1\n",
		"      - id: _2nd_test\n",
		"          test-name: \"2nd test\"\n",
		"-classroom -test '2nd test' 'teacher/ps 1.ipynb' ps1.ipynb\"\n          max-score: 2.5\n",
		"          ROW_TEST_RESULTS: \"${{ steps.row_test.outputs.result }}\"\n          _2ND_TEST_RESULTS: \"${{ steps._2nd_test.outputs.result }}\"\n",
		"          runners: row_test,_2nd_test\n",
		"sudo apt-get install -y -q libzmq3-dev",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the workflow has no %q:\n%s", want, out)
		}
	}
}
