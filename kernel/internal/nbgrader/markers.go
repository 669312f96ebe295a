package nbgrader

import (
	"fmt"
	"strings"
)

// regionMarkers are the words that open and close a region of a cell.
type regionMarkers struct{ begin, end string }

var (
	solutionMarkers = regionMarkers{"BEGIN SOLUTION", "END SOLUTION"}
	hiddenMarkers   = regionMarkers{"BEGIN HIDDEN TESTS", "END HIDDEN TESTS"}
)

// A region is the lines first to last of a cell, from 0, both markers
// included, and the indentation of the line that opens it.
type region struct {
	first, last int
	indent      string
}

// marker reports whether line is a Go comment that holds words, as
// nbgrader finds its markers: anywhere in the line.
func marker(line, words string) bool {
	t := strings.TrimSpace(line)
	return strings.HasPrefix(t, "//") && strings.Contains(t, words)
}

// find returns the regions of source, in order. An opening marker inside
// a region, or a region left open or closed without being opened, is an
// error naming the line (from 1).
func (r regionMarkers) find(source string) ([]region, error) {
	var regions []region
	open := -1
	for i, line := range strings.Split(source, "\n") {
		switch {
		case marker(line, r.end): // "END …" is tested first: it does not hold "BEGIN …"
			if open < 0 {
				return nil, fmt.Errorf("line %d: // %s closes no // %s", i+1, r.end, r.begin)
			}
			regions[len(regions)-1].last = i
			open = -1
		case marker(line, r.begin):
			if open >= 0 {
				return nil, fmt.Errorf("line %d: // %s inside the region line %d opened", i+1, r.begin, open+1)
			}
			open = i
			regions = append(regions, region{first: i, indent: line[:len(line)-len(strings.TrimLeft(line, " \t"))]})
		}
	}
	if open >= 0 {
		return nil, fmt.Errorf("line %d: // %s is never closed by // %s", open+1, r.begin, r.end)
	}
	return regions, nil
}

// replace returns source with each of its regions replaced by the lines
// with, indented as the region's opening marker (nil removes them).
func (r regionMarkers) replace(source string, with []string) (string, error) {
	regions, err := r.find(source)
	if err != nil {
		return "", err
	}
	lines := strings.Split(source, "\n")
	var out []string
	next := 0
	for _, rg := range regions {
		out = append(out, lines[next:rg.first]...)
		for _, w := range with {
			out = append(out, rg.indent+w)
		}
		next = rg.last + 1
	}
	return strings.Join(append(out, lines[next:]...), "\n"), nil
}

// Stub is what an answer's solution becomes in the student's version,
// line by line: Go's counterpart of nbgrader's raise
// NotImplementedError(). A panic ends a function that must return, so the
// cell compiles wherever the solution stood, and running it says what is
// missing.
var Stub = []string{"// YOUR CODE HERE", `panic("not written yet")`}

// AnswerStub is what a markdown answer becomes: nbgrader's own words.
const AnswerStub = "YOUR ANSWER HERE"
