// Package dual is the engine of the "Go (tensornb)" kernel: cells run on
// the instant engine (package interp), which keeps state from cell to cell
// and answers in milliseconds, and a cell whose first line is %%gonb is
// compiled and run by GoNB instead. A %%gonb cell does not see what
// interpreted cells declared, nor they what it declares: GoNB keeps its
// own declarations, from its own cells.
//
// GoNB (with gopls) also answers completion and inspection requests, and
// carries the widgets' comms.
package dual

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/tensornb/tensornb/kernel/front"
	"github.com/tensornb/tensornb/kernel/gonb"
	"github.com/tensornb/tensornb/kernel/interp"
)

// Magic is the first line that sends a cell to GoNB.
const Magic = "%%gonb"

// An Engine runs cells on Instant, or on Compiled after %%gonb.
type Engine struct {
	Instant  *interp.Engine
	Compiled *gonb.Engine
}

// compiled reports whether code starts with the %%gonb line, and returns
// the code with that line left blank, so that line numbers stay the cell's.
func compiled(code string) (string, bool) {
	lines := strings.SplitAfter(code, "\n")
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		if t != Magic {
			return code, false
		}
		lines[i] = strings.Repeat("\n", strings.Count(l, "\n"))
		return strings.Join(lines, ""), true
	}
	return code, false
}

// Execute runs the cell on the engine it asks for.
func (e *Engine) Execute(ctx context.Context, code string, out front.Output) error {
	if rest, ok := compiled(code); ok {
		err := e.Compiled.Execute(ctx, rest, out)
		var ce *front.CellError
		if errors.As(err, &ce) {
			addStateHint(ce, e.Instant.Declared)
		}
		return err
	}
	return e.Instant.Execute(ctx, code, out)
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

// Complete asks GoNB's gopls.
func (e *Engine) Complete(ctx context.Context, code string, cursor int) (front.Completion, error) {
	rest, _ := compiled(code)
	return e.Compiled.Complete(ctx, rest, cursor)
}

// Inspect asks GoNB's gopls.
func (e *Engine) Inspect(ctx context.Context, code string, cursor, detail int) (map[string]any, bool, error) {
	rest, _ := compiled(code)
	return e.Compiled.Inspect(ctx, rest, cursor, detail)
}

// Comm passes widget comms to GoNB.
func (e *Engine) Comm(msgType string, content json.RawMessage, publish func(string, json.RawMessage)) {
	e.Compiled.Comm(msgType, content, publish)
}

// Shutdown stops both engines.
func (e *Engine) Shutdown(restart bool) error {
	err := e.Instant.Shutdown(restart)
	if cerr := e.Compiled.Shutdown(restart); err == nil {
		err = cerr
	}
	return err
}
