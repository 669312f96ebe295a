package cellpanic

import (
	"strings"
	"testing"

	"github.com/tensornb/tensornb/tensor"
)

// The engine reads back what Report wrote: the error and the position,
// also once GoNB has put the cell's line before the position.
func TestParseReadsTheReportLine(t *testing.T) {
	e := &tensor.Error{Op: "view", Class: tensor.RuntimeError, Message: "view size is not compatible: use .reshape(...) instead"}
	for _, c := range []struct{ written, read string }{
		{"/tmp/gonb_1a2b/main.go:12", "/tmp/gonb_1a2b/main.go:12"},
		{"", ""},
	} {
		line := reportLine(e, c.written)
		if c.written != "" {
			// What the engine gets from GoNB, colours already removed.
			line = strings.Replace(line, c.written, "[[ Cell [3] Line 2 ]] "+c.written, 1)
			c.read = "[[ Cell [3] Line 2 ]] " + c.read
		}
		got, at, ok := Parse(line)
		if !ok || *got != *e || at != c.read {
			t.Fatalf("Parse(%q) = %+v %q %v", line, got, at, ok)
		}
	}
	if _, _, ok := Parse("tensornb said: something else"); ok {
		t.Fatal("Parse read a line Report did not write")
	}
}

// No colon comes before the position on the report's line: GoNB v0.11.4
// panics, and takes the cell's declarations with it, on a line of
// standard error that names a position in its main.go after two colons
// not followed by a number (as "tensornb: tensor.Error {"Op": ...} at
// /tmp/gonb_1/main.go:12", the line Report wrote before, did).
func TestNoColonBeforeThePosition(t *testing.T) {
	at := "/tmp/gonb_1a2b/main.go:12"
	line := reportLine(&tensor.Error{Op: "index", Class: tensor.IndexError, Message: "index 5 is out of bounds for dimension 0 with size 3"}, at)
	before, _, found := strings.Cut(line, at)
	if !found || strings.Contains(before, ":") {
		t.Fatalf("the report's line %q has a colon before the position", line)
	}
}
