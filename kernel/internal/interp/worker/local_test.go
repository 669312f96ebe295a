package worker

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/internal/displaysink"
	"github.com/tensornb/tensornb/internal/widgetcomm"
	"github.com/tensornb/tensornb/kernel/internal/front"
	"github.com/tensornb/tensornb/kernel/internal/interp"
	"github.com/tensornb/tensornb/tensor"
)

// newLocalTest returns a Local of a server's Host, whose types come from
// the go command, as a worker's do; in a browser they come from export
// data (kernel/internal/browser tests that).
func newLocalTest(t *testing.T) *interp.Local {
	t.Helper()
	l := interp.NewLocal(Host("../../../.."))
	t.Cleanup(func() { displaysink.Set(nil); widgetcomm.SetTransport(nil) })
	return l
}

func executeLocal(t *testing.T, l *interp.Local, code string) ([]string, error) {
	t.Helper()
	out := &output{}
	err := l.Execute(context.Background(), code, out)
	return out.items, err
}

// A Local keeps state from cell to cell, and sends a cell's prints,
// displays and result in the order the cell made them, as the worker
// does; a display's id is created once, then updated.
func TestLocalKeepsOrderAndState(t *testing.T) {
	l := newLocalTest(t)
	l.Start()
	items, err := executeLocal(t, l, "import (\n\t\"fmt\"\n\t\"github.com/tensornb/tensornb/display\"\n\t\"github.com/tensornb/tensornb/tensor\"\n)\nvar a = tensor.Float32.Arange(6).View(2, 3)\nfmt.Println(\"before\")\ndisplay.Show(display.Card(a))\nfmt.Println(a.T().Strides())\na.T().Strides()")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"stdout: before\n", "display: " + display.Card(tensor.Float32.Arange(6).View(2, 3)).Bundle()[display.MIMEPlain], "stdout: (1, 3)\n", "result: (1, 3)"}
	if !slices.Equal(items, want) {
		t.Errorf("outputs:\n%q\nwant\n%q", items, want)
	}
	items, err = executeLocal(t, l, "display.Update(\"d\", display.Card(a))\ndisplay.Update(\"d\", display.Card(a.T()))\na.Shape()")
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 3 || !strings.HasPrefix(items[0], "display: ") || !strings.HasPrefix(items[1], "update d: ") || items[2] != "result: (2, 3)" {
		t.Errorf("outputs of the updates: %q", items)
	}
	_, err = executeLocal(t, l, "var b = a.View(4)")
	var ce *front.CellError
	if !errors.As(err, &ce) || ce.Name != "RuntimeError" || ce.Value != "shape '[4]' is invalid for input of size 6" {
		t.Errorf("a refused view: %#v", err)
	}
}

// What the host writes to Stdout and Stderr is the running cell's, a
// character cut between two writes arrives whole, and what is written
// between cells is the next cell's first output.
func TestLocalStreams(t *testing.T) {
	l := newLocalTest(t)
	if _, err := executeLocal(t, l, "x := 1"); err != nil {
		t.Fatal(err)
	}
	l.Stdout().Write([]byte("between \xe2\x88"))
	l.Stdout().Write([]byte("\x80 cells\n"))
	l.Stderr().Write([]byte("note\n"))
	items, err := executeLocal(t, l, "1 + 1")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"stdout: between ", "stdout: ∀ cells\n", "stderr: note\n", "result: 2"}
	if !slices.Equal(items, want) {
		t.Errorf("outputs:\n%q\nwant\n%q", items, want)
	}
}

// An interrupted cell leaves a new session behind, and says so.
func TestLocalInterrupt(t *testing.T) {
	l := newLocalTest(t)
	if _, err := executeLocal(t, l, "x := 1"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	out := &output{}
	done := make(chan error)
	go func() {
		done <- l.Execute(ctx, "import (\n\t\"fmt\"\n\t\"time\"\n)\nfmt.Println(\"looping\")\nfor {\n\ttime.Sleep(time.Millisecond)\n}", out)
	}()
	// The interrupt comes once the loop has started, as a user's does.
	for {
		out.mu.Lock()
		looping := len(out.items) > 0
		out.mu.Unlock()
		if looping {
			break
		}
		time.Sleep(time.Millisecond)
	}
	cancel()
	err := <-done
	var ce *front.CellError
	if !errors.As(err, &ce) || ce.Name != "Interrupted" {
		t.Fatalf("interrupted cell: %v", err)
	}
	_, err = executeLocal(t, l, "x")
	if !errors.As(err, &ce) || ce.Name != "CompileError" {
		t.Errorf("x after the interrupt: %v", err)
	}
}
