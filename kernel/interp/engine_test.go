package interp

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tensornb/tensornb/kernel/front"
)

// The test binary is its own worker: with TENSORNB_TEST_WORKER set, it
// serves instead of testing.
func TestMain(m *testing.M) {
	if os.Getenv("TENSORNB_TEST_WORKER") != "" {
		if err := Serve("../..", os.NewFile(RequestsFD, "requests"), os.NewFile(EventsFD, "events"), os.NewFile(CrashFD, "crash")); err != nil {
			os.Stderr.WriteString(err.Error())
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func newEngine(t *testing.T) *Engine {
	t.Helper()
	e := NewEngine(os.Args[0], "-test.run=^$")
	e.Env = []string{"TENSORNB_TEST_WORKER=1"}
	t.Cleanup(func() { _ = e.Shutdown(false) })
	return e
}

// output records a cell's outputs in order.
type output struct {
	mu    sync.Mutex
	items []string
}

func (o *output) add(s string) {
	o.mu.Lock()
	o.items = append(o.items, s)
	o.mu.Unlock()
}
func (o *output) Stream(name, text string) { o.add(name + ": " + text) }
func (o *output) Display(data, _ map[string]any, id string, update bool) {
	if update {
		o.add("update " + id + ": " + data["text/plain"].(string))
		return
	}
	o.add("display: " + data["text/plain"].(string))
}
func (o *output) Result(data, _ map[string]any) { o.add("result: " + data["text/plain"].(string)) }
func (o *output) ClearOutput(bool)              {}
func (o *output) Input(string, bool) (string, error) {
	return "", errors.New("no input")
}
func (o *output) Comm(string, json.RawMessage) {}

func execute(t *testing.T, e *Engine, code string) ([]string, error) {
	t.Helper()
	out := &output{}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	err := e.Execute(ctx, code, out)
	return out.items, err
}

// Prints from interpreted and compiled code, displays and the result come
// in the order the cell made them, and state lives on to the next cell.
func TestWorkerKeepsOrderAndState(t *testing.T) {
	e := newEngine(t)
	items, err := execute(t, e, "import (\n\t\"fmt\"\n\t\"github.com/tensornb/tensornb/display\"\n\t\"github.com/tensornb/tensornb/tensor\"\n)\nvar a = tensor.Float32.Arange(6).View(2, 3)\nfmt.Println(\"before\")\ndisplay.Show(display.Card(a))\nfmt.Println(a)\na.T().Strides()")
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(items, "|")
	if !strings.HasPrefix(got, "stdout: before\n|display: dtype") || !strings.Contains(got, "|stdout: tensor([[0., 1., 2.],\n        [3., 4., 5.]])\n|result: (1, 3)") {
		t.Fatalf("outputs: %q", items)
	}
	if _, err := execute(t, e, "a.T().Set(60, 2, 1)"); err != nil {
		t.Fatal(err)
	}
	items, err = execute(t, e, "a.At(1, 2)")
	if err != nil || strings.Join(items, "|") != "result: 60" {
		t.Fatalf("the write through a view in the cell before: %q %v", items, err)
	}
	if !e.Declared("a") || e.Declared("b") || e.Declared("fmt") {
		t.Fatalf("declared: a %v, b %v, fmt %v", e.Declared("a"), e.Declared("b"), e.Declared("fmt"))
	}
}

// A panic in a goroutine, memory exhausted, or an endless loop that is
// interrupted ends the worker, not the engine: the cell reports it, and
// the next cell runs in a new worker that says its state is gone.
func TestWorkerDeathsAreSurvived(t *testing.T) {
	e := newEngine(t)
	for _, c := range []struct {
		name, code, wantErr string
		interrupt           bool
	}{
		{"panic in a goroutine", "import \"time\"\ngo func() { panic(\"boom in a goroutine\") }()\ntime.Sleep(5 * time.Second)", "boom in a goroutine", false},
		{"allocation bomb", "var hoard [][]byte\nfor {\n\thoard = append(hoard, make([]byte, 1<<30))\n}", "memory: the cell allocated more than", false},
		{"endless loop, interrupted", "for {\n}", "interrupted", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := execute(t, e, "var alive = 1"); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if c.interrupt {
				time.AfterFunc(500*time.Millisecond, cancel)
			}
			err := e.Execute(ctx, c.code, &output{})
			var ce *front.CellError
			if !errors.As(err, &ce) || !strings.Contains(strings.Join(append(ce.Traceback, ce.Value), "\n"), c.wantErr) {
				t.Fatalf("error %#v", err)
			}
			items, err := execute(t, e, "1 + 1")
			if err != nil || len(items) != 2 || !strings.Contains(items[0], "what earlier cells declared is gone") || items[1] != "result: 2" {
				t.Fatalf("the next cell: %q %v", items, err)
			}
			if e.Declared("alive") {
				t.Fatal("a new worker knows what the old one declared")
			}
		})
	}
}

// A process a cell started, holding the worker's pipes, does not keep an
// interrupt from returning.
func TestInterruptWithAChildProcess(t *testing.T) {
	e := newEngine(t)
	if _, err := execute(t, e, "p, err := os.StartProcess(\"/bin/sleep\", []string{\"sleep\", \"20\"}, &os.ProcAttr{})\n_, _ = p, err"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(500*time.Millisecond, cancel)
	returned := make(chan error, 1)
	go func() { returned <- e.Execute(ctx, "for {\n}", &output{}) }()
	select {
	case err := <-returned:
		var ce *front.CellError
		if !errors.As(err, &ce) || ce.Name != "Interrupted" {
			t.Fatalf("error %#v", err)
		}
	case <-time.After(30 * time.Second): // a hang, not a speed check
		t.Fatal("the interrupt did not return while a child process of the cell lived")
	}
}

// The first display.Update of an id creates the output; later ones update
// it, in later cells too.
func TestUpdates(t *testing.T) {
	e := newEngine(t)
	items, err := execute(t, e, "display.Update(\"progress\", display.Bundle{\"text/plain\": \"1\"})\ndisplay.Update(\"progress\", display.Bundle{\"text/plain\": \"2\"})")
	if err != nil || strings.Join(items, "|") != "display: 1|update progress: 2" {
		t.Fatalf("outputs %q, %v", items, err)
	}
	items, err = execute(t, e, "display.Update(\"progress\", display.Bundle{\"text/plain\": \"3\"})")
	if err != nil || strings.Join(items, "|") != "update progress: 3" {
		t.Fatalf("outputs %q, %v", items, err)
	}
}
