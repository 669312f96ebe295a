package worker

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tensornb/tensornb/kernel/internal/front"
)

// The test binary is its own worker: with TENSORNB_TEST_WORKER set, it
// serves instead of testing.
func TestMain(m *testing.M) {
	if os.Getenv("TENSORNB_TEST_WORKER") != "" {
		if err := Serve("../../../..", os.NewFile(RequestsFD, "requests"), os.NewFile(EventsFD, "events"), os.NewFile(CrashFD, "crash")); err != nil {
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

// output records a cell's outputs in order. It answers input requests
// with lines, in turn, and when it has none, fails as a front end
// without stdin does, or, if wait is set, waits for the cell's end.
type output struct {
	mu    sync.Mutex
	items []string
	lines []string
	wait  bool
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
func (o *output) Input(ctx context.Context, _ string, _ bool) (string, error) {
	o.add("input")
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.lines) > 0 {
		line := o.lines[0]
		o.lines = o.lines[1:]
		return line, nil
	}
	if o.wait {
		o.mu.Unlock()
		<-ctx.Done()
		o.mu.Lock()
		return "", ctx.Err()
	}
	return "", front.ErrStdinNotImplemented
}
func (o *output) Comm(m front.CommMessage) { o.add(m.Type + ": " + string(m.Content)) }

func execute(t *testing.T, e front.Engine, code string) ([]string, error) {
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
// the next cell runs in a new worker that first replays the cells that
// completed, so what they declared is still there; the cell that ended
// the worker is not replayed (it would end the new one too).
func TestWorkerDeathsAreSurvived(t *testing.T) {
	e := newEngine(t)
	for _, c := range []struct {
		name, code, wantErr string
		interrupt           bool
	}{
		{"panic in a goroutine", "import \"time\"\ngo func() { panic(\"boom in a goroutine\") }()\ntime.Sleep(5 * time.Second)", "boom in a goroutine", false},
		{"allocation bomb", "var hoard [][]byte\nfor {\n\thoard = append(hoard, make([]byte, 1<<30))\n}", "the cell ran out of memory", false},
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
			if strings.Contains(strings.Join(append(ce.Traceback, ce.Value), "\n"), "is gone") {
				t.Errorf("the error says state is gone: %#v", ce)
			}
			items, err := execute(t, e, "alive + 1")
			if err != nil || !strings.Contains(stderr(items), "Replaying") || items[len(items)-1] != "result: 2" {
				t.Fatalf("the next cell: %q %v", items, err)
			}
			if !e.Declared("alive") {
				t.Fatal("after the replay, the engine does not know what the replayed cells declared")
			}
		})
	}
}

// executeIn runs code as the front runs In [n].
func executeIn(t *testing.T, e *Engine, n int, code string) ([]string, error) {
	t.Helper()
	out := &output{}
	ctx, cancel := context.WithTimeout(front.WithExecutionCount(context.Background(), n), 2*time.Minute)
	defer cancel()
	err := e.Execute(ctx, code, out)
	return out.items, err
}

// interrupt runs code as In [n] and interrupts it once it has started.
func interrupt(t *testing.T, e *Engine, n int, code string) {
	t.Helper()
	ctx, cancel := context.WithCancel(front.WithExecutionCount(context.Background(), n))
	defer cancel()
	time.AfterFunc(500*time.Millisecond, cancel)
	var ce *front.CellError
	if err := e.Execute(ctx, code, &output{}); !errors.As(err, &ce) || ce.Name != "Interrupted" {
		t.Fatalf("the interrupted cell: %#v", err)
	}
}

// mustRun runs cells as In [1], In [2], ... and fails the test if one
// fails, except those listed in failing.
func mustRun(t *testing.T, e *Engine, cells []string, failing ...int) {
	t.Helper()
	for i, code := range cells {
		_, err := executeIn(t, e, i+1, code)
		if err != nil && !slices.Contains(failing, i+1) {
			t.Fatalf("In [%d]: %v", i+1, err)
		}
		if err == nil && slices.Contains(failing, i+1) {
			t.Fatalf("In [%d] did not fail", i+1)
		}
	}
}

// stderr is what the outputs wrote on stderr.
func stderr(items []string) string {
	var b strings.Builder
	for _, it := range items {
		if text, ok := strings.CutPrefix(it, "stderr: "); ok {
			b.WriteString(text)
		}
	}
	return b.String()
}

// After an interrupt, the cells that completed are replayed, silently and
// in order: variables keep the values later cells gave them, functions and
// types are there, and a failed cell is not replayed.
func TestInterruptKeepsState(t *testing.T) {
	e := newEngine(t)
	mustRun(t, e, []string{
		"x := 1",
		"x++",
		"func double(n int) int { return 2 * n }",
		"type point struct{ X, Y int }\np := point{1, 2}",
		"var y int = \"a\"",
		"fmt.Println(\"printed\")\nx",
	}, 5)
	interrupt(t, e, 7, "for {\n}")
	items, err := executeIn(t, e, 8, "fmt.Println(x, double(x), p.X+p.Y)")
	if err != nil {
		t.Fatalf("%q %v", items, err)
	}
	if n := len(items); n == 0 || items[n-1] != "stdout: 2 4 3\n" || slices.ContainsFunc(items, func(s string) bool { return strings.HasPrefix(s, "stdout: printed") || strings.HasPrefix(s, "result") }) {
		t.Fatalf("outputs %q", items)
	}
	note := stderr(items)
	if !strings.Contains(note, "interrupt") || !strings.Contains(note, "In [1]–[4], [6]") || !strings.Contains(note, "done in") {
		t.Fatalf("the note: %q", note)
	}
	// The cell after the replay is not replayed again, and the next
	// interrupt replays In [8] too.
	items, err = executeIn(t, e, 9, "x")
	if err != nil || strings.Join(items, "|") != "result: 2" {
		t.Fatalf("%q %v", items, err)
	}
	interrupt(t, e, 10, "for {\n}")
	items, err = executeIn(t, e, 11, "x")
	if err != nil || !strings.Contains(stderr(items), "In [1]–[4], [6], [8], [9]") || items[len(items)-1] != "result: 2" {
		t.Fatalf("%q %v", items, err)
	}
}

// Ended is called once for each worker, with its command, after it
// ended and before the engine goes on: an interrupted cell returns, and
// Shutdown returns, only after it.
func TestEndedIsCalledForEachWorker(t *testing.T) {
	e := newEngine(t)
	var mu sync.Mutex
	var ended []int // the workers' process ids, as each ended
	e.Ended = func(cmd *exec.Cmd) {
		if cmd.ProcessState == nil {
			t.Errorf("Ended was called before the worker's end was known")
		}
		mu.Lock()
		ended = append(ended, cmd.Process.Pid)
		mu.Unlock()
	}
	count := func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(ended)
	}
	mustRun(t, e, []string{"x := 1"})
	interrupt(t, e, 2, "for {\n}")
	if n := count(); n != 1 {
		t.Fatalf("after the interrupt, Ended was called %d times, want 1", n)
	}
	mustRun(t, e, []string{"y := 2"})
	if err := e.Shutdown(false); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(ended) != 2 || ended[0] == ended[1] {
		t.Fatalf("after the shutdown, Ended was called for the workers %v, want the two workers once each", ended)
	}
}

// Without execution counts, cells are named by the order they ran in.
func TestReplayNamesCellsByOrder(t *testing.T) {
	e := newEngine(t)
	for _, code := range []string{"a := 1", "b := )", "c := 2"} {
		_, _ = execute(t, e, code)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(500*time.Millisecond, cancel)
	_ = e.Execute(ctx, "for {\n}", &output{})
	items, err := execute(t, e, "a + c")
	if err != nil || !strings.Contains(stderr(items), "cells 1, 3") || items[len(items)-1] != "result: 3" {
		t.Fatalf("%q %v", items, err)
	}
}

// A cell that fails when replayed stops the replay: the cells before it
// are rebuilt, and the note says which cell failed, why, and which cells'
// state is missing.
func TestReplayStopsAtAFailure(t *testing.T) {
	e := newEngine(t)
	path := filepath.Join(t.TempDir(), "data")
	if err := os.WriteFile(path, []byte("7"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, e, []string{
		"x := 1",
		"data, err := os.ReadFile(" + strconv.Quote(path) + ")\nif err != nil {\n\tpanic(err)\n}",
		"y := 3",
	})
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	interrupt(t, e, 4, "for {\n}")
	items, err := executeIn(t, e, 5, "x")
	note := stderr(items)
	if err != nil || items[len(items)-1] != "result: 1" || !strings.Contains(note, "In [2] failed") ||
		!strings.Contains(note, "no such file") || !strings.Contains(note, "In [2], [3]") {
		t.Fatalf("%q %v", items, err)
	}
	if _, err := executeIn(t, e, 6, "y"); err == nil || !strings.Contains(err.Error(), "undefined: y") {
		t.Fatalf("y after a replay that stopped before it: %v", err)
	}
}

// A cell that ends the interpreter when replayed stops the replay; the
// cell it was for runs in a new, empty interpreter, and the note says so.
func TestReplayEndsTheInterpreter(t *testing.T) {
	e := newEngine(t)
	flag := filepath.Join(t.TempDir(), "flag")
	mustRun(t, e, []string{
		"x := 1",
		"if _, err := os.Stat(" + strconv.Quote(flag) + "); err == nil {\n\tgo func() { panic(\"replayed\") }()\n\tselect {}\n}",
		"y := 2",
	})
	if err := os.WriteFile(flag, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	interrupt(t, e, 4, "for {\n}")
	items, err := executeIn(t, e, 5, "1 + 1")
	note := stderr(items)
	if err != nil || items[len(items)-1] != "result: 2" || !strings.Contains(note, "In [2] ended the interpreter") || !strings.Contains(note, "replayed") || !strings.Contains(note, "is gone") {
		t.Fatalf("%q %v", items, err)
	}
	if _, err := executeIn(t, e, 6, "x"); err == nil || !strings.Contains(err.Error(), "undefined: x") {
		t.Fatalf("x after a replay that ended the interpreter: %v", err)
	}
}

// slowCell is a cell that sleeps as long as the file at path says.
func slowCell(t *testing.T) (path, code string) {
	path = filepath.Join(t.TempDir(), "sleep")
	if err := os.WriteFile(path, []byte("0s"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, "text, _ := os.ReadFile(" + strconv.Quote(path) + ")\nd, _ := time.ParseDuration(string(text))\ntime.Sleep(d)"
}

// An interrupt during a replay stops it, and the cell it was for does not
// run; the cell after starts afresh.
func TestInterruptDuringReplay(t *testing.T) {
	e := newEngine(t)
	path, slow := slowCell(t)
	mustRun(t, e, []string{"x := 1", slow})
	if err := os.WriteFile(path, []byte("1h"), 0o644); err != nil {
		t.Fatal(err)
	}
	interrupt(t, e, 3, "for {\n}")
	out := &output{}
	ctx, cancel := context.WithCancel(front.WithExecutionCount(context.Background(), 4))
	defer cancel()
	time.AfterFunc(500*time.Millisecond, cancel)
	err := e.Execute(ctx, "fmt.Println(\"ran\")", out)
	var ce *front.CellError
	if !errors.As(err, &ce) || ce.Name != "Interrupted" || !strings.Contains(ce.Value, "replay") || slices.Contains(out.items, "stdout: ran\n") {
		t.Fatalf("%q %#v", out.items, err)
	}
	items, err := executeIn(t, e, 5, "x := 2\nx")
	if err != nil || items[len(items)-1] != "result: 2" || strings.Contains(stderr(items), "replay") {
		t.Fatalf("%q %v", items, err)
	}
}

// A replay that takes longer than the limit is stopped; the cell it was
// for runs in a new, empty interpreter, and the note says why.
func TestReplayLimit(t *testing.T) {
	e := newEngine(t)
	e.ReplayLimit = 10 * time.Second // far longer than In [1] takes, even on a loaded machine; far shorter than In [2]
	path, slow := slowCell(t)
	mustRun(t, e, []string{"x := 1", slow})
	if err := os.WriteFile(path, []byte("1h"), 0o644); err != nil {
		t.Fatal(err)
	}
	interrupt(t, e, 3, "for {\n}")
	items, err := executeIn(t, e, 4, "1 + 1")
	if note := stderr(items); err != nil || items[len(items)-1] != "result: 2" || !strings.Contains(note, "limit") || !strings.Contains(note, "In [2]") {
		t.Fatalf("%q %v", items, err)
	}
	if _, err := executeIn(t, e, 5, "x"); err == nil || !strings.Contains(err.Error(), "undefined: x") {
		t.Fatalf("x after a replay that was stopped: %v", err)
	}
}

// A worker that ends between cells (a goroutine's panic) is replaced, and
// the next cell says so and replays the cells before, but not the cell
// that started the goroutine.
func TestDeathBetweenCells(t *testing.T) {
	e := newEngine(t)
	flag := filepath.Join(t.TempDir(), "flag")
	mustRun(t, e, []string{
		"x := 5",
		"go func() {\n\tfor {\n\t\tif _, err := os.Stat(" + strconv.Quote(flag) + "); err == nil {\n\t\t\tpanic(\"later\")\n\t\t}\n\t\ttime.Sleep(10 * time.Millisecond)\n\t}\n}()",
	})
	e.mu.Lock()
	w := e.w
	e.mu.Unlock()
	if err := os.WriteFile(flag, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	<-w.exited
	if err := os.Remove(flag); err != nil {
		t.Fatal(err)
	}
	items, err := executeIn(t, e, 3, "x")
	note := stderr(items)
	if err != nil || items[len(items)-1] != "result: 5" || !strings.Contains(note, "a goroutine that In [2] started ended the interpreter (panic: later)") ||
		!strings.Contains(note, "without an error, In [1], with outputs hidden (not In [2]") {
		t.Fatalf("%q %v", items, err)
	}
}

// The names of the replayed cells: runs of execution counts, or of the
// order cells ran in when the front gave no count.
func TestCellNames(t *testing.T) {
	for _, c := range []struct {
		cells []cell
		want  string
	}{
		{[]cell{{count: 1}}, "In [1]"},
		{[]cell{{count: 1}, {count: 2}}, "In [1], [2]"},
		{[]cell{{count: 1}, {count: 2}, {count: 3}, {count: 5}, {count: 7}, {count: 8}, {count: 9}}, "In [1]–[3], [5], [7]–[9]"},
		{[]cell{{order: 1}, {order: 3}, {order: 4}, {order: 5}}, "cells 1, 3–5"},
		{[]cell{{order: 1}, {order: 3}, {order: 4}}, "cells 1, 3, 4"},
		{[]cell{{order: 2}}, "cell 2"},
		{[]cell{{count: 4}, {order: 6}, {count: 5}}, "In [4], cell 6, In [5]"},
	} {
		if got := names(c.cells); got != c.want {
			t.Errorf("names(%v) = %q, want %q", c.cells, got, c.want)
		}
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
	case <-time.After(2 * time.Minute): // a hang, not a speed check
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

// A cell draws a named tensor's picture through a method of display.Named,
// as the interpreter sees the compiled package.
func TestNamedPictureInACell(t *testing.T) {
	e := newEngine(t)
	items, err := execute(t, e, "import (\n\t\"github.com/tensornb/tensornb/display\"\n\t\"github.com/tensornb/tensornb/tensor\"\n)\ny := tensor.Arange(8).View(2, 2, 2)\ndisplay.Show(display.Named{Name: \"y\", Tensor: y}.Grid())")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(items, "|"); !strings.HasPrefix(got, "display: y: shape (2, 2, 2)") || !strings.Contains(got, "\ny[1, :, :]\n") {
		t.Fatalf("outputs: %q", items)
	}
}

// A cell that prints what was once the worker's in-band sync marker, then
// more than a pipe holds, ends, and its output arrives whole: the worker
// learns that a stream was sent by a means a cell cannot write to.
func TestPrintedMarkerDoesNotHang(t *testing.T) {
	e := newEngine(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a hang, not a speed check
	defer cancel()
	out := &output{}
	err := e.Execute(ctx, "fmt.Print(\"\\x00tensornb-sync\\x00\")\nfmt.Print(strings.Repeat(\"x\", 64<<10))\nfmt.Println()", out)
	if err != nil {
		t.Fatalf("the cell: %v", err)
	}
	var got strings.Builder
	for _, it := range out.items {
		text, ok := strings.CutPrefix(it, "stdout: ")
		if !ok {
			t.Fatalf("output %q", it)
		}
		got.WriteString(text)
	}
	if want := "\x00tensornb-sync\x00" + strings.Repeat("x", 64<<10) + "\n"; got.String() != want {
		t.Fatalf("stdout has %d bytes, starting %q; want %d", got.Len(), got.String()[:min(got.Len(), 40)], len(want))
	}
}

// A large cell is checked and split in time that grows with its size, not
// its square: 20,000 lines of simple statements, half of them defining a
// variable, run within a deadline they missed by far when it was
// quadratic. 11 MB of '<' is Go's syntax error at line 1, not the end of
// the interpreter.
func TestLargeCells(t *testing.T) {
	e := newEngine(t)
	var b strings.Builder
	b.WriteString("x := 0\n")
	for i := range 10000 {
		fmt.Fprintf(&b, "v%d := %d\nx += v%d\n", i, i, i)
	}
	b.WriteString("x")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a hang, not a speed check
	defer cancel()
	out := &output{}
	if err := e.Execute(ctx, b.String(), out); err != nil || strings.Join(out.items, "|") != "result: 49995000" {
		t.Fatalf("20,000 lines: %q %v", out.items, err)
	}
	out = &output{}
	err := e.Execute(ctx, strings.Repeat("<", 11<<20), out)
	var ce *front.CellError
	if !errors.As(err, &ce) || ce.Name != "CompileError" || !strings.HasPrefix(ce.Value, "cell line 1: syntax error") {
		t.Fatalf("11 MB of '<': %q %#v", out.items, err)
	}
	if items, err := execute(t, e, "x"); err != nil || strings.Join(items, "|") != "result: 49995000" {
		t.Fatalf("the cell after: %q %v", items, err)
	}
}

// A panic's frames name the cells that declared their functions by the
// execution counts the front gave them, also once they were replayed in
// a new worker.
func TestPanicFramesNameCellsByCount(t *testing.T) {
	e := newEngine(t)
	executeAs := func(count int, code string) error {
		ctx, cancel := context.WithTimeout(front.WithExecutionCount(context.Background(), count), 2*time.Minute)
		defer cancel()
		return e.Execute(ctx, code, &output{})
	}
	if err := executeAs(7, "func third(s []int) int { return s[2] }"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		count int
		code  string
	}{{8, "third([]int{1, 2})"}, {10, "third(nil)"}} {
		err := executeAs(c.count, c.code)
		var ce *front.CellError
		if !errors.As(err, &ce) || len(ce.Traceback) != 3 || ce.Traceback[1] != "Cell In[7], line 1, in third: func third(s []int) int { return s[2] }" || ce.Traceback[2] != "cell line 1: "+c.code {
			t.Fatalf("%s: %#v", c.code, err)
		}
		// The worker ends; the next cell replays the first.
		if err := executeAs(9, "import \"time\"\ngo func() { panic(\"end\") }()\ntime.Sleep(5 * time.Second)"); err == nil {
			t.Fatal("the worker did not end")
		}
	}
}

// A runtime error in interpreted code reads as Go's runtime.Error says
// it, never in the interpreter's words (reflect's), with the numbers the
// session's values show, and the cell line of the statement.
func TestRuntimeErrorsInGosWords(t *testing.T) {
	e := newEngine(t)
	for _, c := range []struct{ code, want, line string }{
		{"s := []int{1, 2, 3}\ni := 5\n_ = s[i]", "runtime error: index out of range [5] with length 3", "cell line 3: _ = s[i]"},
		{"str := \"abc\"\nk := -1\n_ = str[k]", "runtime error: index out of range [-1]", "cell line 3: _ = str[k]"},
		{"var m map[string]int\nm[\"a\"] = 1", "assignment to entry in nil map", "cell line 2: m[\"a\"] = 1"},
		{"var p *struct{ X int }\n_ = p.X", "runtime error: invalid memory address or nil pointer dereference", "cell line 2: _ = p.X"},
		{"s := []int{1, 2, 3}\nlo, hi := 2, 1\n_ = s[lo:hi]", "runtime error: slice bounds out of range [2:1]", "cell line 3: _ = s[lo:hi]"},
		{"s := make([]int, 2, 3)\nhi := 5\n_ = s[:hi]", "runtime error: slice bounds out of range [:5] with capacity 3", "cell line 3: _ = s[:hi]"},
		{"a, b := 1, 0\n_ = a / b", "runtime error: integer divide by zero", "cell line 2: _ = a / b"},
		{"var v any = \"s\"\n_ = v.(int)", "interface conversion: interface {} is string, not int", "cell line 2: _ = v.(int)"},
		{"s := []int{1, 2, 3}\nn := 0\nfor k := 0; k <= len(s); k++ {\n\tn += s[k]\n}", "runtime error: index out of range", "cell line 4: n += s[k]"},
		{"s := []int{1, 2, 3}\nn := 0\nfor k := range 4 { n += s[k] }", "runtime error: index out of range", "cell line 3: for k := range 4 { n += s[k] }"},
	} {
		_, err := execute(t, e, c.code)
		var ce *front.CellError
		if !errors.As(err, &ce) || ce.Name != "panic" || !strings.HasPrefix(ce.Value, c.want) || strings.Join(ce.Traceback, "\n") != "panic: "+ce.Value+"\n"+c.line {
			t.Errorf("%q: %#v, want %q at %q", c.code, err, c.want, c.line)
		}
	}
}

// smallMemory is the memory limit of the workers of the memory tests: far
// above what a worker needs, far below what the machine has.
const smallMemory = "TENSORNB_MEMORY_LIMIT=268435456" // 256 MiB

// outOfMemory runs code, which must run out of memory, and checks that
// the cell fails in one line that says so and contains want, and that the
// next cell replays what came before.
func outOfMemory(t *testing.T, e *Engine, code, want string) {
	t.Helper()
	if _, err := execute(t, e, "var alive = 1"); err != nil {
		t.Fatal(err)
	}
	_, err := execute(t, e, code)
	var ce *front.CellError
	if !errors.As(err, &ce) || ce.Name != "MemoryError" || !strings.HasPrefix(ce.Value, "the cell ran out of memory") || !strings.Contains(ce.Value, want) ||
		strings.Contains(ce.Value, "\n") || len(ce.Traceback) > 2 || ce.Traceback[0] != "MemoryError: "+ce.Value {
		t.Fatalf("error %#v", err)
	}
	items, err := execute(t, e, "alive + 1")
	if err != nil || !strings.Contains(stderr(items), "out of memory") || items[len(items)-1] != "result: 2" {
		t.Fatalf("the next cell: %q %v", items, err)
	}
}

// A cell that allocates more than the worker's limit ends with a one-line
// MemoryError that names the limit, not the Go runtime's traceback.
func TestOutOfMemoryIsOneLine(t *testing.T) {
	e := newEngine(t)
	e.Env = append(e.Env, smallMemory)
	outOfMemory(t, e, "var hoard [][]byte\nfor {\n\thoard = append(hoard, make([]byte, 16<<20))\n}", "(limit 256 MiB)")
}

// When the system refuses memory before the worker reaches its limit,
// the Go runtime ends the worker with "fatal error: out of memory", which
// it writes to standard error only, before its traceback: the cell says
// it ran out of memory, in one line, too.
func TestSystemOutOfMemoryIsOneLine(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector reserves more address space than the test allows")
	}
	// 3 GB of address space, a limit the worker would reach later.
	e := NewEngine("/bin/sh", "-c", `ulimit -v 3000000 && exec "$0" -test.run='^$'`, os.Args[0])
	e.Env = []string{"TENSORNB_TEST_WORKER=1", "TENSORNB_MEMORY_LIMIT=8589934592"}
	t.Cleanup(func() { _ = e.Shutdown(false) })
	outOfMemory(t, e, "var hoard [][]byte\nfor {\n\thoard = append(hoard, make([]byte, 64<<20))\n}", "out of memory")
}

// The limit counts all of the worker's memory: goroutines' stacks too,
// which are not heap.
func TestGoroutineStacksCountAsMemory(t *testing.T) {
	e := newEngine(t)
	e.Env = append(e.Env, smallMemory)
	// Each goroutine's stack holds a thousand interpreted calls, about a
	// megabyte; 400 of them pass the limit, with little heap. The cell
	// waits long enough for them to get there on a loaded machine (3 s
	// was not, once): the limit ends it as soon as they do.
	outOfMemory(t, e, "func deep(n int) int {\n\tif n == 0 {\n\t\tselect {}\n\t}\n\treturn deep(n-1) + 1\n}\nfor i := 0; i < 400; i++ {\n\tgo deep(1000)\n}\ntime.Sleep(90 * time.Second)", "(limit 256 MiB)")
}

// A goroutine that panics after its cell ended ends the worker. The next
// cell says so in one line: the panic's text, the cell that started the
// goroutine, and that the interpreter was restarted; that cell is not
// replayed, so that the goroutine does not end the new worker too.
func TestPanicAfterItsCell(t *testing.T) {
	e := newEngine(t)
	mustRun(t, e, []string{"x := 1", "go func() {\n\ttime.Sleep(100 * time.Millisecond)\n\tpanic(\"late boom\")\n}()"})
	time.Sleep(500 * time.Millisecond)
	items, err := executeIn(t, e, 3, "x")
	note := stderr(items)
	if err != nil || items[len(items)-1] != "result: 1" || strings.Count(note, "\n") != 1 || !strings.Contains(note, "panic: late boom") ||
		!strings.Contains(note, "In [2]") || !strings.Contains(note, "restarted") || strings.Contains(note, "recovered") {
		t.Fatalf("%q %v", items, err)
	}
	time.Sleep(500 * time.Millisecond)
	items, err = executeIn(t, e, 4, "x + 1")
	if err != nil || strings.Join(items, "|") != "result: 2" {
		t.Fatalf("the cell after: %q %v", items, err)
	}
}
