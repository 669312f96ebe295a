package gradebook

import (
	"fmt"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/grade"
	"github.com/tensornb/tensornb/kernel/internal/nbgrader"
	"github.com/tensornb/tensornb/kernel/internal/notebook"
)

// GradescopeResults is Gradescope's results.json, which an autograder
// writes to /autograder/results/results.json: the score, and a test for
// each test cell.
type GradescopeResults struct {
	Score      float64          `json:"score"`
	Output     string           `json:"output,omitempty"`
	Visibility string           `json:"visibility"`
	Tests      []GradescopeTest `json:"tests"`
}

// A GradescopeTest is one test cell's result, as Gradescope shows it.
type GradescopeTest struct {
	Name       string  `json:"name"`
	Score      float64 `json:"score"`
	MaxScore   float64 `json:"max_score"`
	Output     string  `json:"output,omitempty"`
	Visibility string  `json:"visibility"`
}

// Gradescope returns r as Gradescope's results: each test by its
// grade_id, its points and its feedback, shown to the student as the
// teacher's test cell says (nbgrader.Meta.Visibility; visible unless it
// says). A submission that could not be graded scores 0, and the output
// says why.
func Gradescope(teacher *notebook.Notebook, r grade.Result) GradescopeResults {
	visibility := map[string]string{}
	for _, c := range teacher.Cells {
		if m, ok := nbgrader.Of(c); ok && m.Tests() && m.Visibility != "" {
			visibility[m.GradeID] = m.Visibility
		}
	}
	out := GradescopeResults{Score: r.Score, Visibility: "visible", Tests: []GradescopeTest{}}
	if r.Error != "" {
		out.Score, out.Output = 0, "The submission could not be graded: "+r.Error
		return out
	}
	for _, t := range r.Tests {
		v := visibility[t.GradeID]
		if v == "" {
			v = "visible"
		}
		out.Tests = append(out.Tests, GradescopeTest{Name: t.GradeID, Score: t.Points, MaxScore: t.MaxPoints, Output: t.Feedback, Visibility: v})
	}
	if len(r.Manual) > 0 {
		out.Output = fmt.Sprintf("Graded by hand, not in this score: %s.", strings.Join(r.Manual, ", "))
	}
	return out
}
