package browser

import (
	"encoding/json"
	"fmt"

	"github.com/tensornb/tensornb/kernel/internal/nbgrader"
	"github.com/tensornb/tensornb/kernel/internal/notebook"
)

// Verdict returns how a test cell of an exercise did, for the page to
// show under it: nbgrader.Judge, the rule tensornb grade scores by, of a
// cell whose nbgrader metadata and outputs (as nbformat stores them) are
// the JSON metadata and outputs, as the page holds them. metadata may be
// empty or null, for a cell that has none. It returns nil, with no error,
// if the cell is no test cell.
func Verdict(metadata, outputs []byte) (*nbgrader.Verdict, error) {
	var m any
	if len(metadata) > 0 {
		if err := json.Unmarshal(metadata, &m); err != nil {
			return nil, fmt.Errorf("the cell's nbgrader metadata: %w", err)
		}
	}
	var outs []map[string]any
	if len(outputs) > 0 {
		if err := json.Unmarshal(outputs, &outs); err != nil {
			return nil, fmt.Errorf("the cell's outputs: %w", err)
		}
	}
	c := &notebook.Cell{Type: "code", Metadata: map[string]any{"nbgrader": m}, Outputs: outs}
	v, ok := nbgrader.Judge(c)
	if !ok {
		return nil, nil
	}
	return &v, nil
}
