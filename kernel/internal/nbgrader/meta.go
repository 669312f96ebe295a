package nbgrader

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/notebook"
)

// Schema is the version of nbgrader's cell metadata this package reads
// and writes.
const Schema = 3

// Meta is a cell's nbgrader metadata.
type Meta struct {
	Grade    bool    // graded: a test cell, or an answer graded by hand
	Solution bool    // an answer the student writes
	Locked   bool    // read-only
	Task     bool    // a task graded by hand (a markdown cell)
	GradeID  string  // the cell's id, unique in the notebook
	Points   float64 // what a graded cell is worth
	// Visibility says when Gradescope shows a test's result to the
	// student: visible, hidden, after_due_date or after_published
	// (Visibilities); "" for Gradescope's default, visible. It is
	// tensornb's, in the nbgrader metadata of a test cell.
	Visibility string
}

// Visibilities are the values Gradescope takes for a test's visibility.
var Visibilities = []string{"visible", "hidden", "after_due_date", "after_published"}

// Of returns the cell's nbgrader metadata, and whether it has any.
func Of(c *notebook.Cell) (Meta, bool) {
	m, ok := c.Metadata["nbgrader"].(map[string]any)
	if !ok {
		return Meta{}, false
	}
	flag := func(key string) bool { b, _ := m[key].(bool); return b }
	id, _ := m["grade_id"].(string)
	points, _ := m["points"].(float64)
	visibility, _ := m["visibility"].(string)
	return Meta{Grade: flag("grade"), Solution: flag("solution"), Locked: flag("locked"), Task: flag("task"), GradeID: id, Points: points, Visibility: visibility}, true
}

// Marked reports whether the metadata gives the cell a role: a cell whose
// flags are all false is an ordinary cell, as nbgrader treats it.
func (m Meta) Marked() bool { return m.Grade || m.Solution || m.Locked || m.Task }

// Tests reports whether the cell is an autograded test cell.
func (m Meta) Tests() bool { return m.Grade && !m.Solution && !m.Task }

// Answer reports whether the student writes the cell.
func (m Meta) Answer() bool { return m.Solution }

// Kept reports whether grading puts the teacher's cell back in place of
// the student's: test and read-only cells.
func (m Meta) Kept() bool { return (m.Locked || m.Tests() || m.Task) && !m.Solution }

// set writes the metadata into the cell, as nbgrader writes it.
func (m Meta) set(c *notebook.Cell) {
	md := map[string]any{
		"grade": m.Grade, "solution": m.Solution, "locked": m.Locked, "task": m.Task,
		"grade_id": m.GradeID, "schema_version": float64(Schema),
	}
	if m.Grade || m.Task {
		md["points"] = m.Points
	}
	if m.Visibility != "" {
		md["visibility"] = m.Visibility
	}
	c.Metadata["nbgrader"] = md
}

// gradeID is what nbgrader accepts in a grade_id.
var gradeID = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// A CellError is a cell that breaks the format: N counts the notebook's
// cells from 1.
type CellError struct {
	N       int
	GradeID string
	Problem string
}

// Error names the cell and the problem.
func (e *CellError) Error() string {
	if e.GradeID != "" {
		return fmt.Sprintf("cell %d (%s): %s", e.N, e.GradeID, e.Problem)
	}
	return fmt.Sprintf("cell %d: %s", e.N, e.Problem)
}

// Validate checks nbgrader's rules for the cells' metadata and markers:
// every cell with a role has a grade_id, of letters, digits, _ and -,
// unique in the notebook; graded cells have points of at least 0 and
// only they have points; a test cell and an autograded answer are code;
// a task is markdown; solution markers stand only in answer cells, hidden
// test markers only in test cells, each region closed. It returns every
// problem it finds.
func Validate(nb *notebook.Notebook) []error {
	var errs []error
	seen := map[string]int{}
	for i, c := range nb.Cells {
		m, ok := Of(c)
		problem := func(format string, args ...any) {
			errs = append(errs, &CellError{N: i + 1, GradeID: m.GradeID, Problem: fmt.Sprintf(format, args...)})
		}
		if ok && m.Marked() {
			switch {
			case m.GradeID == "":
				problem("it has nbgrader metadata but no grade_id")
			case !gradeID.MatchString(m.GradeID):
				problem("its grade_id %q has characters other than letters, digits, _ and -", m.GradeID)
			case seen[m.GradeID] > 0:
				problem("its grade_id is also cell %d's: each must be unique", seen[m.GradeID])
			default:
				seen[m.GradeID] = i + 1
			}
			switch {
			case (m.Grade || m.Task) && m.Points < 0:
				problem("its points are %g: they must be at least 0", m.Points)
			case m.Tests() && c.Type != "code":
				problem("a test cell must be a code cell, not %s", c.Type)
			case m.Solution && !m.Grade && c.Type != "code":
				problem("an autograded answer must be a code cell, not %s (mark it graded to grade it by hand)", c.Type)
			case m.Task && c.Type != "markdown":
				problem("a task must be a markdown cell, not %s", c.Type)
			case m.Task && (m.Grade || m.Solution):
				problem("a task cannot also be graded or an answer")
			case m.Visibility != "" && !m.Tests():
				problem("only a test cell has a visibility, not this one")
			case m.Visibility != "" && !slices.Contains(Visibilities, m.Visibility):
				problem("its visibility %q is none of Gradescope's: %s", m.Visibility, strings.Join(Visibilities, ", "))
			}
		}
		if c.Type != "code" {
			continue
		}
		for _, r := range []struct {
			markers regionMarkers
			allowed bool
			role    string
		}{{solutionMarkers, ok && m.Solution, "an answer cell"}, {hiddenMarkers, ok && m.Tests(), "a test cell"}} {
			regions, err := r.markers.find(c.Source)
			switch {
			case err != nil:
				problem("%v", err)
			case len(regions) > 0 && !r.allowed:
				problem("%s stands in a cell that is not %s", r.markers.begin, r.role)
			}
		}
	}
	return errs
}
