package interp

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/kernel/front"
)

// shown records what cells send to display.
type shown struct {
	mu      sync.Mutex
	results []string // text/plain of each result
	shows   []string // text/plain of each display
}

func (s *shown) Display(b display.Bundle, _ string, result bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if result {
		s.results = append(s.results, b[display.MIMEPlain])
	} else {
		s.shows = append(s.shows, b[display.MIMEPlain])
	}
	return nil
}

func newSession(t *testing.T) (*Session, *shown) {
	t.Helper()
	s, err := NewSession()
	if err != nil {
		t.Fatal(err)
	}
	out := &shown{}
	display.SetSink(out)
	t.Cleanup(func() { display.SetSink(nil) })
	return s, out
}

func run(t *testing.T, s *Session, code string) {
	t.Helper()
	if err := s.Run(context.Background(), code); err != nil {
		t.Fatalf("cell %q: %v", code, err)
	}
}

// Values live on from cell to cell: a write through a view in one cell is
// seen through the original in the next, as in a Python notebook.
func TestStateAcrossCells(t *testing.T) {
	s, out := newSession(t)
	run(t, s, "import \"github.com/tensornb/tensornb/tensor\"\nvar a = tensor.Float32.Arange(12).View(3, 4)\nb := a.T()")
	run(t, s, "b.Set(60, 2, 1)")
	run(t, s, "a.At(1, 2)")
	if len(out.results) != 1 || out.results[0] != "60" {
		t.Fatalf("results %q, want [60]", out.results)
	}
}

// A cell that ends with an expression shows its value; one that ends with
// a call of a function returning nothing runs it and shows nothing.
func TestLastExpressionIsTheResult(t *testing.T) {
	s, out := newSession(t)
	run(t, s, "import \"github.com/tensornb/tensornb/tensor\"\nx := tensor.Float32.Arange(24).View(2, 3, 4)\nx.Transpose(1, 2).Strides()")
	run(t, s, "func hello() {}\nhello()")
	run(t, s, "// a comment first\n1 + 2")
	if strings.Join(out.results, "|") != "(12, 1, 4)|3" {
		t.Fatalf("results %q", out.results)
	}
}

// Running a cell again, imports and all, works: an import the session has
// is not imported twice, and a function declared again replaces the old.
func TestRunningACellAgain(t *testing.T) {
	s, out := newSession(t)
	cell := "import \"fmt\"\nfunc f() string { return fmt.Sprint(1) }\nf()"
	run(t, s, cell)
	run(t, s, strings.Replace(cell, "Sprint(1)", "Sprint(2)", 1))
	if strings.Join(out.results, "|") != `"1"|"2"` {
		t.Fatalf("results %q", out.results)
	}
}

// A panic is the cell's error, with the panic's message as GoNB reports it.
func TestPanicIsTheCellsError(t *testing.T) {
	s, _ := newSession(t)
	run(t, s, "import \"github.com/tensornb/tensornb/tensor\"")
	err := s.Run(context.Background(), "y := tensor.Arange(24).View(2, 3, 4).Transpose(1, 2)\ny.View(-1)")
	var ce *front.CellError
	if !errors.As(err, &ce) || ce.Name != "panic" || !strings.HasPrefix(ce.Value, "view: view size is not compatible") {
		t.Fatalf("error %#v", err)
	}
	if !strings.Contains(strings.Join(ce.Traceback, "\n"), "cell line 2: y.View(-1)") {
		t.Fatalf("traceback %q", ce.Traceback)
	}
}
