package nbgrader

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/notebook"
)

// Foreign is a submission that is not of the assignment it is graded
// against.
type Foreign struct{ Reason string }

// Error says why.
func (f *Foreign) Error() string { return "not a submission of this assignment: " + f.Reason }

// Restore returns the notebook to grade for a submission of the teacher's
// assignment: the submission's cells in its order, each test and
// read-only cell the teacher's again (hidden tests included), whether
// the student changed it, deleted it or moved it; each answer the
// student's, under the teacher's metadata; the student's own cells as
// they are. A deleted cell comes back after the teacher's cell before it,
// a deleted answer as Stub. A second cell with one grade_id is the
// student's own. Outputs are cleared.
func Restore(teacher, submission *notebook.Notebook) (*notebook.Notebook, error) {
	if errs := Validate(teacher); len(errs) > 0 {
		return nil, fmt.Errorf("the assignment breaks nbgrader's format: %w", errs[0])
	}
	byID := map[string]*notebook.Cell{}
	var order []string // the teacher's grade_ids in order
	for _, c := range teacher.Cells {
		if m, ok := Of(c); ok && m.Marked() {
			byID[m.GradeID] = c
			order = append(order, m.GradeID)
		}
	}
	if err := belongs(submission, byID, order); err != nil {
		return nil, err
	}
	nb := submission.Clone()
	nb.Metadata["kernelspec"] = teacher.Clone().Metadata["kernelspec"]
	placed := map[string]*notebook.Cell{}
	var cells []*notebook.Cell
	for _, c := range nb.Cells {
		m, ok := Of(c)
		t, known := byID[m.GradeID]
		switch {
		case !ok || !m.Marked() || !known:
		case placed[m.GradeID] != nil:
			delete(c.Metadata, "nbgrader") // a copy: the student's own cell
		case mustMeta(t).Kept():
			c = cloneCell(t)
			placed[m.GradeID] = c
		default: // an answer: the student's, in the teacher's role
			mustMeta(t).set(c)
			placed[m.GradeID] = c
		}
		if c.Type == "code" {
			c.Outputs, c.ExecutionCount = nil, nil
		}
		cells = append(cells, c)
	}
	at := 0 // where a missing cell goes: after the teacher's cell before it
	for _, id := range order {
		if c := placed[id]; c != nil {
			at = slices.Index(cells, c) + 1
			continue
		}
		c := cloneCell(byID[id])
		if mustMeta(c).Kept() {
			c.Outputs, c.ExecutionCount = nil, nil
		} else if err := assignCell(c); err != nil { // a deleted answer, as the student got it
			return nil, err
		}
		cells = slices.Insert(cells, at, c)
		placed[id] = c
		at++
	}
	nb.Cells = cells
	return nb, nil
}

// belongs refuses a submission with none of the assignment's cells, or
// with cells whose grade_ids the assignment does not have.
func belongs(submission *notebook.Notebook, byID map[string]*notebook.Cell, order []string) error {
	var theirs, unknown []string
	for _, c := range submission.Cells {
		if m, ok := Of(c); ok && m.Marked() {
			theirs = append(theirs, m.GradeID)
			if byID[m.GradeID] == nil {
				unknown = append(unknown, m.GradeID)
			}
		}
	}
	switch {
	case len(unknown) > 0:
		return &Foreign{Reason: fmt.Sprintf("its cells %s are not the assignment's, which are %s", strings.Join(unknown, ", "), strings.Join(order, ", "))}
	case len(theirs) == 0:
		return &Foreign{Reason: fmt.Sprintf("it has none of the assignment's cells (%s)", strings.Join(order, ", "))}
	}
	return nil
}

// mustMeta returns the metadata of a cell known to have it.
func mustMeta(c *notebook.Cell) Meta {
	m, _ := Of(c)
	return m
}

// cloneCell returns a copy of c that shares nothing with it.
func cloneCell(c *notebook.Cell) *notebook.Cell {
	nb := (&notebook.Notebook{Cells: []*notebook.Cell{c}, Metadata: map[string]any{}, Format: 4, FormatMinor: 5}).Clone()
	return nb.Cells[0]
}
