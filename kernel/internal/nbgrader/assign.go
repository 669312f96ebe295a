package nbgrader

import (
	"errors"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/notebook"
)

// Assign returns the student's version of a teacher's notebook: each
// answer's solution replaced by Stub (a markdown answer by AnswerStub),
// hidden tests removed, outputs and execution counts cleared, and the
// test and read-only cells marked neither editable nor deletable. The
// notebook must pass Validate; its errors are returned joined.
func Assign(teacher *notebook.Notebook) (*notebook.Notebook, error) {
	if errs := Validate(teacher); len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	nb := teacher.Clone()
	for _, c := range nb.Cells {
		if err := assignCell(c); err != nil {
			return nil, err // Validate found the markers whole
		}
	}
	return nb, nil
}

// assignCell makes one cell the student's.
func assignCell(c *notebook.Cell) error {
	if c.Type == "code" {
		c.Outputs, c.ExecutionCount = nil, nil
	}
	m, ok := Of(c)
	if !ok || !m.Marked() {
		return nil
	}
	var err error
	switch {
	case m.Solution && c.Type == "code":
		c.Source, err = stubbed(c.Source)
	case m.Solution:
		c.Source = AnswerStub
	case m.Tests():
		c.Source, err = hiddenMarkers.replace(c.Source, nil)
	}
	if m.Kept() {
		c.Metadata["editable"], c.Metadata["deletable"] = false, false
	}
	m.set(c)
	return err
}

// stubbed returns an answer's source with its solution regions replaced
// by Stub, or Stub alone if it has none.
func stubbed(source string) (string, error) {
	regions, err := solutionMarkers.find(source)
	if err != nil {
		return "", err
	}
	if len(regions) == 0 {
		return strings.Join(Stub, "\n"), nil
	}
	return solutionMarkers.replace(source, Stub)
}
