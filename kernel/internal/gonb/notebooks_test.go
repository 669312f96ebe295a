package gonb

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tensornb/tensornb/kernel/internal/front"
	"github.com/tensornb/tensornb/kernel/internal/tools"
)

// A notebookCell is what a cell of one of GoNB's test notebooks must
// print on the compiled engine: lines, the cell's whole output, each
// containing the string at its place. The strings are those GoNB's own
// test of the notebook matches (TestHello, TestInit, TestVarTuple and
// TestFunctions in internal/nbtests/nbtests_test.go of GoNB's module),
// in the same order; a cell with no lines is one GoNB's test says
// nothing of, which must only run without error.
type notebookCell struct {
	lines []string
	// loose matches the strings in order anywhere in the output, as
	// GoNB's test does for the Markdown %ls shows.
	loose bool
}

// GoNB's test notebooks under examples/tests, at the pinned version, run
// on the compiled engine as on GoNB: every cell without error and with
// the output GoNB's tests expect, and GoNB alive throughout (the cells
// `//gonb:%%` and `//gonb:%exec f -x=13` of hello.ipynb used to end it).
func TestGoNBNotebooks(t *testing.T) {
	for _, nb := range []struct {
		name  string
		cells []notebookCell
	}{
		{"hello", []notebookCell{
			// TestGoFlags matches this form of GoNB's answer to %goflags.
			{lines: []string{`%goflags=["--cover" "--covermode=set"]`}},
			{lines: []string{"Hello World!"}},
			{lines: []string{"Works with //gonb:"}},
			{lines: []string{"Got x=17"}},
			{lines: []string{"Got x=13"}},
		}},
		{"init", []notebookCell{
			{lines: []string{`%goflags=["--cover" "--covermode=set"]`}},
			{lines: []string{"init_a"}},
			{lines: []string{"init_a", "init_b"}},
			{lines: []string{"init: v0", "init_a", "init_b"}},
			{lines: []string{"init: v1", "init_a", "init_b"}},
			{lines: []string{"removed func init_a", "removed func init_b"}},
			{lines: []string{"init: v1", "Done"}},
		}},
		{"vartuple", []notebookCell{
			{lines: []string{"a=3, c=7"}},
			{lines: []string{"Variables", "a", "c", "Functions"}, loose: true},
			{lines: []string{"c=1.5"}},
			{lines: []string{`. key "a" not found in any definition, not removed`}},
		}},
		{"functions", []notebookCell{
			{lines: []string{`%goflags=["--cover" "--covermode=set"]`}},
			{},
			{lines: []string{"incr: x=2, y=4.14"}},
		}},
	} {
		t.Run(nb.name, func(t *testing.T) {
			code := gonbNotebook(t, nb.name)
			if len(code) != len(nb.cells) {
				t.Fatalf("%s.ipynb has %d code cells, the test expects %d", nb.name, len(code), len(nb.cells))
			}
			e := newNotebookEngine(t)
			for i, cell := range code {
				out := &transcript{}
				ctx, cancel := context.WithTimeout(context.Background(), hangAfter)
				err := e.Execute(ctx, cell, out)
				cancel()
				if err != nil {
					t.Fatalf("cell %d %q: %v\noutput: %q", i+1, cell, err, out.text())
				}
				if !nb.cells[i].matches(out.text()) {
					t.Errorf("cell %d %q printed %q, want lines with %q", i+1, cell, out.text(), nb.cells[i].lines)
				}
			}
			e.mu.Lock()
			lost := e.lost
			e.mu.Unlock()
			if lost != "" {
				t.Errorf("GoNB ended during the notebook: %s", lost)
			}
		})
	}
}

// matches reports whether output is what the cell must print.
func (c notebookCell) matches(output string) bool {
	if c.lines == nil {
		return true
	}
	lines := strings.Split(strings.TrimRight(output, "\n"), "\n")
	if c.loose {
		at := 0
		for _, l := range lines {
			if at < len(c.lines) && strings.Contains(l, c.lines[at]) {
				at++
			}
		}
		return at == len(c.lines)
	}
	if len(lines) != len(c.lines) {
		return false
	}
	for i, want := range c.lines {
		if !strings.Contains(lines[i], want) {
			return false
		}
	}
	return true
}

// gonbNotebook returns the code cells of GoNB's test notebook name, from
// GoNB's module at the pinned version in the module cache.
func gonbNotebook(t *testing.T, name string) []string {
	t.Helper()
	cache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatalf("go env GOMODCACHE: %v", err)
	}
	path := filepath.Join(strings.TrimSpace(string(cache)), "github.com", "janpfeifer", "gonb@"+tools.GoNB.Version, "examples", "tests", name+".ipynb")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var nb struct {
		Cells []struct {
			Type   string          `json:"cell_type"`
			Source json.RawMessage `json:"source"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(data, &nb); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var code []string
	for _, c := range nb.Cells {
		if c.Type != "code" {
			continue
		}
		// nbformat allows a cell's source as one string or as its lines.
		var lines []string
		if err := json.Unmarshal(c.Source, &lines); err != nil {
			var s string
			if err := json.Unmarshal(c.Source, &s); err != nil {
				t.Fatalf("%s: a cell's source: %v", path, err)
			}
			lines = []string{s}
		}
		code = append(code, strings.Join(lines, ""))
	}
	return code
}

// newNotebookEngine returns an engine as the compiled kernelspec runs it
// (cells build against this checkout of tensornb), in the environment
// GoNB's notebook tests give GoNB: GOCOVERDIR set, so that a program
// built with --cover writes its coverage there rather than a warning.
// Modules come from the module cache only.
func newNotebookEngine(t *testing.T) *Engine {
	t.Helper()
	module, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	e := New(Options{GoNB: tools.GoNB.Path(toolsDir), ToolsDir: toolsDir, Module: module,
		Env: []string{"GOPROXY=off", "GOFLAGS=-mod=mod", "GOCOVERDIR=" + t.TempDir()}})
	t.Cleanup(func() { _ = e.Shutdown(false) })
	return e
}

// transcript is an Output that keeps the text a notebook shows of a
// cell, in the order it came: streams, and the text of displays and
// results.
type transcript struct {
	mu sync.Mutex
	b  strings.Builder
}

func (r *transcript) Stream(_, text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.b.WriteString(text)
}
func (r *transcript) Display(data, _ map[string]any, _ string, _ bool) { r.show(data) }
func (r *transcript) Result(data, _ map[string]any)                    { r.show(data) }
func (r *transcript) ClearOutput(bool)                                 {}
func (r *transcript) Comm(front.CommMessage)                           {}
func (r *transcript) Input(context.Context, string, bool) (string, error) {
	return "", errors.New("no input in a notebook test")
}

// show keeps the most readable text of a display.
func (r *transcript) show(data map[string]any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, mime := range []string{"text/plain", "text/markdown", "text/html"} {
		if s, ok := data[mime].(string); ok {
			r.b.WriteString(strings.TrimRight(s, "\n") + "\n")
			return
		}
	}
}

func (r *transcript) text() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.b.String()
}
