//go:build !js

package browser

import (
	"encoding/json"
	"reflect"
	"testing"
)

// testMeta is the nbgrader metadata of a test cell worth 2 points.
const testMeta = `{"grade": true, "solution": false, "locked": true, "task": false, "grade_id": "t", "points": 2, "schema_version": 3}`

// verdictCases are cells as a page holds them: their nbgrader metadata
// ("" for none: undefined) and outputs, as JSON, and the verdict that
// Verdict gives (null: no test cell).
var verdictCases = []struct{ nbgrader, outputs, want string }{
	{testMeta, `[{"output_type": "stream", "name": "stdout", "text": "ok\n"}]`, `{"passed": true, "points": 2, "max": 2, "feedback": ""}`},
	{testMeta, `[{"output_type": "error", "ename": "CheckError", "evalue": "a copy", "traceback": ["CheckError: a copy", "want a view"]}]`,
		`{"passed": false, "points": 0, "max": 2, "feedback": "CheckError: a copy\nwant a view"}`},
	{`{"grade": true, "grade_id": "t"}`, `[{"output_type": "error", "ename": "EngineError", "evalue": "no engine", "traceback": []}]`,
		`{"passed": false, "points": 0, "max": 0, "feedback": "EngineError: no engine"}`},
	{`{"grade": true, "solution": true, "grade_id": "a", "points": 1}`, `[]`, `null`},
	{`null`, `[{"output_type": "error", "ename": "E", "evalue": "v"}]`, `null`},
	{``, `[]`, `null`},
}

// Verdict judges a cell the page holds as nbgrader.Judge does.
func TestVerdict(t *testing.T) {
	for _, c := range verdictCases {
		v, err := Verdict([]byte(c.nbgrader), []byte(c.outputs))
		if err != nil {
			t.Errorf("Verdict(%s, %s): %v", c.nbgrader, c.outputs, err)
			continue
		}
		got, _ := json.Marshal(v)
		if !sameJSON(t, string(got), c.want) {
			t.Errorf("Verdict(%s, %s) = %s, want %s", c.nbgrader, c.outputs, got, c.want)
		}
	}
	if _, err := Verdict([]byte(testMeta), []byte(`{"output_type": "error"}`)); err == nil {
		t.Error("Verdict of outputs that are not a list gave no error")
	}
}

// sameJSON reports whether the JSON texts a and b hold the same value.
func sameJSON(t *testing.T, a, b string) bool {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal([]byte(a), &va); err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	if err := json.Unmarshal([]byte(b), &vb); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return reflect.DeepEqual(va, vb)
}
