package nbgrader

import (
	"fmt"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/notebook"
)

// A Verdict is how a test cell did when it ran, as tensornb grade scores
// it and as the static site's self-check shows it under the cell.
type Verdict struct {
	Passed bool    `json:"passed"`
	Points float64 `json:"points"` // Max if it passed, else 0
	Max    float64 `json:"max"`    // the cell's points
	// Feedback is "" for a test that passed, else its error as the
	// student reads it (Feedback).
	Feedback string `json:"feedback"`
}

// Judge returns the verdict of a test cell ([Meta.Tests]) from its
// outputs as nbformat stores them: it passed if none is an error, and
// earns its points (0 if its metadata gives none); otherwise it earns
// nothing, and its feedback is its first error. It reports false, with
// no verdict, if c is no test cell.
func Judge(c *notebook.Cell) (Verdict, bool) {
	m, ok := Of(c)
	if !ok || !m.Tests() {
		return Verdict{}, false
	}
	for _, out := range c.Outputs {
		if out["output_type"] == "error" {
			return Verdict{Max: m.Points, Feedback: Feedback(out)}, true
		}
	}
	return Verdict{Passed: true, Points: m.Points, Max: m.Points}, true
}

// Feedback returns an error output as the student reads it: its
// traceback's lines, whose first is the error's name and message, or
// "name: message" if it has none, or none with any text.
func Feedback(out map[string]any) string {
	var lines []string
	switch tb := out["traceback"].(type) {
	case []string:
		lines = tb
	case []any:
		for _, l := range tb {
			lines = append(lines, fmt.Sprint(l))
		}
	}
	if text := strings.Join(lines, "\n"); text != "" {
		return text
	}
	return fmt.Sprintf("%v: %v", out["ename"], out["evalue"])
}
