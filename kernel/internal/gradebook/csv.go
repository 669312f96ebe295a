package gradebook

import (
	"encoding/csv"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/grade"
)

// StudentID returns the student a submission is of, from its path: the
// folder after "submitted" in nbgrader's layout
// (submitted/STUDENT/ASSIGNMENT/NOTEBOOK.ipynb, which nbgrader's
// zipcollect makes), else the folder two above the notebook if the one
// above is named as assignment is, else the notebook's name without
// .ipynb.
func StudentID(path, assignment string) string {
	parts := strings.Split(filepath.ToSlash(filepath.Clean(path)), "/")
	for i, p := range parts[:len(parts)-1] {
		if p == "submitted" && i+1 < len(parts)-1 {
			return parts[i+1]
		}
	}
	if n := len(parts); n >= 3 && assignment != "" && parts[n-2] == assignment {
		return parts[n-3]
	}
	return strings.TrimSuffix(parts[len(parts)-1], ".ipynb")
}

// canvasColumns are the columns Canvas's gradebook import reads a student
// by; Moodle's import maps any of them to a user field.
var canvasColumns = []string{"Student", "ID", "SIS User ID", "SIS Login ID", "Section"}

// WriteCSV writes a gradebook as Canvas exports one: after the header, a
// row "Points Possible" with each column's points, then a row a
// submission: its student (StudentID, as the student's name and SIS
// login), the points of each test, under its grade_id, and the total,
// under the assignment's name. A header holds a name alone: Canvas reads
// "Name (123)" as the assignment of id 123. A submission that could not
// be graded has its cells empty, which an import leaves alone.
func WriteCSV(w io.Writer, assignment string, results []grade.Result) error {
	tests := testColumns(results)
	header := append([]string{}, canvasColumns...)
	possible := []string{"Points Possible", "", "", "", ""}
	var max float64
	for _, t := range tests {
		header = append(header, t.GradeID)
		possible = append(possible, number(t.MaxPoints))
		max += t.MaxPoints
	}
	header = append(header, assignment)
	possible = append(possible, number(max))
	out := csv.NewWriter(w)
	if err := out.WriteAll([][]string{header, possible}); err != nil {
		return err
	}
	for _, r := range results {
		id := StudentID(r.Submission, assignment)
		row := []string{id, "", "", id, ""}
		points := map[string]float64{}
		for _, t := range r.Tests {
			points[t.GradeID] = t.Points
		}
		for _, t := range tests {
			row = append(row, graded(r, number(points[t.GradeID])))
		}
		row = append(row, graded(r, number(r.Score)))
		if err := out.Write(row); err != nil {
			return err
		}
	}
	out.Flush()
	return out.Error()
}

// testColumns returns the tests of the assignment, in order, from the
// first result that was graded.
func testColumns(results []grade.Result) []grade.Test {
	for _, r := range results {
		if r.Error == "" {
			return r.Tests
		}
	}
	return nil
}

// graded returns s, or "" for a submission that was not graded.
func graded(r grade.Result, s string) string {
	if r.Error != "" {
		return ""
	}
	return s
}

// number writes points as a gradebook does: 2, 1.5.
func number(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
