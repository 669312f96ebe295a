package nbgrader_test

import (
	"testing"

	"github.com/tensornb/tensornb/kernel/internal/nbgrader"
	"github.com/tensornb/tensornb/kernel/internal/notebook"
)

// ran returns a code cell that ran with outputs, whose nbgrader
// metadata is md (none if nil), as nbformat's JSON decodes it.
func ran(md map[string]any, outputs ...map[string]any) *notebook.Cell {
	c := &notebook.Cell{Type: "code", Metadata: map[string]any{}, Outputs: outputs}
	if md != nil {
		c.Metadata["nbgrader"] = md
	}
	return c
}

// testMeta is the metadata of a test cell worth points (none if nil).
func testMeta(points any) map[string]any {
	md := map[string]any{"grade": true, "solution": false, "locked": true, "task": false, "grade_id": "t", "schema_version": 3.0}
	if points != nil {
		md["points"] = points
	}
	return md
}

var (
	printed = map[string]any{"output_type": "stream", "name": "stdout", "text": "ok\n"}
	result  = map[string]any{"output_type": "execute_result", "data": map[string]any{"text/plain": "(3, 1)"}, "metadata": map[string]any{}, "execution_count": 4.0}
)

func errorOutput(ename, evalue string, traceback any) map[string]any {
	out := map[string]any{"output_type": "error", "ename": ename, "evalue": evalue}
	if traceback != nil {
		out["traceback"] = traceback
	}
	return out
}

// Judge scores a test cell as tensornb grade does and the site's
// self-check shows: passed with its points if no output is an error,
// else no points and the first error's traceback (or "name: message"
// when it has none) as feedback; no verdict for a cell that is no test.
func TestJudge(t *testing.T) {
	for _, tc := range []struct {
		name string
		cell *notebook.Cell
		want nbgrader.Verdict
		test bool
	}{
		{"passed", ran(testMeta(2.0), printed, result), nbgrader.Verdict{Passed: true, Points: 2, Max: 2}, true},
		{"passed with no output", ran(testMeta(0.5)), nbgrader.Verdict{Passed: true, Points: 0.5, Max: 0.5}, true},
		{"failed, traceback as JSON decodes it", ran(testMeta(3.0), printed, errorOutput("CheckError", "a copy", []any{"CheckError: a copy", "want a view"})),
			nbgrader.Verdict{Max: 3, Feedback: "CheckError: a copy\nwant a view"}, true},
		{"failed, traceback as the grader records it", ran(testMeta(3.0), errorOutput("panic", "not written yet", []string{"panic: not written yet", "  at cell line 2"})),
			nbgrader.Verdict{Max: 3, Feedback: "panic: not written yet\n  at cell line 2"}, true},
		{"failed with no traceback", ran(testMeta(1.0), errorOutput("Timeout", "the cell ran past the timeout", nil)),
			nbgrader.Verdict{Max: 1, Feedback: "Timeout: the cell ran past the timeout"}, true},
		{"failed with an empty traceback", ran(testMeta(1.0), errorOutput("EngineError", "no engine", []any{})),
			nbgrader.Verdict{Max: 1, Feedback: "EngineError: no engine"}, true},
		{"failed with a traceback of no text", ran(testMeta(1.0), errorOutput("EngineError", "no engine", []any{""})),
			nbgrader.Verdict{Max: 1, Feedback: "EngineError: no engine"}, true},
		{"the first error counts", ran(testMeta(1.0), errorOutput("A", "first", []any{"A: first"}), errorOutput("B", "second", []any{"B: second"})),
			nbgrader.Verdict{Max: 1, Feedback: "A: first"}, true},
		{"points missing", ran(testMeta(nil), printed), nbgrader.Verdict{Passed: true}, true},
		{"points missing, failed", ran(testMeta(nil), errorOutput("E", "v", nil)), nbgrader.Verdict{Feedback: "E: v"}, true},
		{"no nbgrader metadata", ran(nil, errorOutput("E", "v", nil)), nbgrader.Verdict{}, false},
		{"nbgrader metadata not an object", &notebook.Cell{Type: "code", Metadata: map[string]any{"nbgrader": "yes"}}, nbgrader.Verdict{}, false},
		{"an ordinary cell", ran(map[string]any{"grade": false, "solution": false, "locked": false, "grade_id": "o"}, printed), nbgrader.Verdict{}, false},
		{"a read-only cell", ran(map[string]any{"grade": false, "solution": false, "locked": true, "grade_id": "r"}, printed), nbgrader.Verdict{}, false},
		{"an answer cell", ran(map[string]any{"grade": false, "solution": true, "grade_id": "a"}, errorOutput("E", "v", nil)), nbgrader.Verdict{}, false},
		{"an answer graded by hand", ran(map[string]any{"grade": true, "solution": true, "grade_id": "m", "points": 2.0}, printed), nbgrader.Verdict{}, false},
		{"a task", ran(map[string]any{"grade": true, "task": true, "grade_id": "k", "points": 2.0}), nbgrader.Verdict{}, false},
	} {
		got, test := nbgrader.Judge(tc.cell)
		if got != tc.want || test != tc.test {
			t.Errorf("%s: Judge gives %+v, %v; want %+v, %v", tc.name, got, test, tc.want, tc.test)
		}
	}
}
