// Package dual is the engine of the "Go (tensornb)" kernel: cells run on
// the instant engine (package interp), which keeps state from cell to cell
// and answers in milliseconds, and a cell whose first line is %%gonb is
// compiled and run by GoNB instead, as is a cell with a command of GoNB's
// cell language that only GoNB runs (%goflags, %test, %wasm, a !* line,
// %%writefile...: package cellcmd). A %%gonb cell does not see what
// interpreted cells declared, nor they what it declares: GoNB keeps its
// own declarations, from its own cells.
//
// Completion and inspection come from the engine the cell is for: the
// instant engine's session, or GoNB's gopls for a %%gonb cell. Comms go
// to the engine whose widgets they are: the instant engine's (package
// widget), or GoNB's.
package dual

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/tensornb/tensornb/kernel/internal/front"
	"github.com/tensornb/tensornb/kernel/internal/gonb"
	"github.com/tensornb/tensornb/kernel/internal/interp/cellcmd"
	"github.com/tensornb/tensornb/kernel/internal/interp/worker"
)

// Magic is the first line that sends a cell to GoNB.
const Magic = "%%gonb"

// An Engine runs cells on Instant, or on Compiled after %%gonb.
type Engine struct {
	Instant  *worker.Engine
	Compiled *gonb.Engine

	mu           sync.Mutex
	instantComms map[string]bool // the comms of the instant engine's widgets
}

// The kernel runs an Engine as a front.CommEngine.
var _ front.CommEngine = (*Engine)(nil)

// A gonbCell is a cell for GoNB: its code with the %%gonb line left blank,
// so that line numbers stay the cell's. The line started at the rune
// offset at, and blanking it removed cut runes.
type gonbCell struct {
	code    string
	at, cut int
}

// compiled reports whether code starts with the %%gonb line, and returns
// the cell for GoNB.
func compiled(code string) (gonbCell, bool) {
	lines := strings.SplitAfter(code, "\n")
	at := 0
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" {
			at += utf8.RuneCountInString(l)
			continue
		}
		if t != Magic {
			return gonbCell{code: code}, false
		}
		lines[i] = strings.Repeat("\n", strings.Count(l, "\n"))
		return gonbCell{code: strings.Join(lines, ""), at: at, cut: utf8.RuneCountInString(l) - len(lines[i])}, true
	}
	return gonbCell{code: code}, false
}

// toGoNB maps a cursor in the cell to the code GoNB gets.
func (g gonbCell) toGoNB(cursor int) int {
	switch {
	case cursor <= g.at:
		return cursor
	case cursor < g.at+g.cut:
		return g.at // in the %%gonb line
	}
	return cursor - g.cut
}

// toCell maps a cursor in the code GoNB got back to the cell.
func (g gonbCell) toCell(cursor int) int {
	if cursor <= g.at {
		return cursor
	}
	return cursor + g.cut
}

// forGoNB reports whether code holds a command of GoNB's cell language
// that only GoNB runs (cellcmd.Cell.ForGoNB): %goflags, %test, a !* line,
// %%writefile... GoNB gets the cell as it is.
func forGoNB(code string) bool {
	_, _, ok := cellcmd.Parse(code).ForGoNB()
	return ok
}

// Execute runs the cell on the engine it asks for: GoNB for a %%gonb
// cell, or one with a command only GoNB runs (forGoNB), the instant
// engine for the others.
func (e *Engine) Execute(ctx context.Context, code string, out front.Output) error {
	g, ok := compiled(code)
	if !ok && forGoNB(code) {
		g, ok = gonbCell{code: code}, true
	}
	if ok {
		err := e.Compiled.Execute(ctx, g.code, out)
		var ce *front.CellError
		if errors.As(err, &ce) {
			addStateHint(ce, e.Instant.Declared)
		}
		return err
	}
	return e.Instant.Execute(ctx, code, instantOutput{out, e})
}

var undefined = regexp.MustCompile(`undefined: ([\pL_][\pL\pN_]*)`)

// addStateHint adds a line to a %%gonb cell's compile error for each name
// it reports undefined that interpreted cells declared (interpreted
// reports whether they did): GoNB does not see them.
func addStateHint(ce *front.CellError, interpreted func(name string) bool) {
	if ce.Name != "CompileError" {
		return
	}
	hinted := map[string]bool{}
	for _, line := range ce.Traceback {
		for _, m := range undefined.FindAllStringSubmatch(line, -1) {
			if name := m[1]; !hinted[name] && interpreted(name) {
				hinted[name] = true
				ce.Traceback = append(ce.Traceback, fmt.Sprintf("hint: %s was declared by an interpreted cell; a %%%%gonb cell is compiled by GoNB and does not see interpreted state, so declare %s in this cell or in an earlier %%%%gonb cell", name, name))
			}
		}
	}
}

// Complete asks the engine the cell is for: a %%gonb cell GoNB's gopls,
// others the instant engine's session.
func (e *Engine) Complete(ctx context.Context, code string, cursor int) (front.Completion, error) {
	g, ok := compiled(code)
	if !ok {
		return e.Instant.Complete(ctx, code, cursor)
	}
	c, err := e.Compiled.Complete(ctx, g.code, g.toGoNB(cursor))
	if err != nil {
		return c, err
	}
	c.CursorStart, c.CursorEnd = g.toCell(c.CursorStart), g.toCell(c.CursorEnd)
	for i := range c.Types {
		c.Types[i].Start, c.Types[i].End = g.toCell(c.Types[i].Start), g.toCell(c.Types[i].End)
	}
	return c, nil
}

// Inspect asks the engine the cell is for, as Complete does.
func (e *Engine) Inspect(ctx context.Context, code string, cursor, detail int) (map[string]any, bool, error) {
	g, ok := compiled(code)
	if !ok {
		return e.Instant.Inspect(ctx, code, cursor, detail)
	}
	return e.Compiled.Inspect(ctx, g.code, g.toGoNB(cursor), detail)
}

// Comm passes a comm message to the engine whose comm it is: the instant
// engine's widgets (ipywidgets' targets, and the comms its widgets
// opened), or GoNB's.
func (e *Engine) Comm(ctx context.Context, m front.CommMessage, out front.Output) error {
	if e.track(m) {
		return e.Instant.Comm(ctx, m, instantOutput{out, e})
	}
	return e.Compiled.Comm(ctx, m, out)
}

// track keeps the ids of the instant engine's comms, open or opened by m,
// and reports whether m is for the instant engine's widgets: a widget
// target's comm_open, or a message on a comm of theirs.
func (e *Engine) track(m front.CommMessage) (instant bool) {
	var c struct {
		CommID string `json:"comm_id"`
		Target string `json:"target_name"`
	}
	_ = json.Unmarshal(m.Content, &c)
	e.mu.Lock()
	defer e.mu.Unlock()
	instant = strings.HasPrefix(c.Target, "jupyter.widget") || e.instantComms[c.CommID]
	switch {
	case m.Type == "comm_open" && instant:
		if e.instantComms == nil {
			e.instantComms = map[string]bool{}
		}
		e.instantComms[c.CommID] = true
	case m.Type == "comm_close":
		delete(e.instantComms, c.CommID)
	}
	return instant
}

// instantOutput is the Output of the instant engine: it notes the comms
// its widgets open and close.
type instantOutput struct {
	front.Output
	e *Engine
}

func (o instantOutput) Comm(m front.CommMessage) {
	o.e.track(m)
	o.Output.Comm(m)
}

// Shutdown stops both engines.
func (e *Engine) Shutdown(restart bool) error {
	err := e.Instant.Shutdown(restart)
	if cerr := e.Compiled.Shutdown(restart); err == nil {
		err = cerr
	}
	return err
}
