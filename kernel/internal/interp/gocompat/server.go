package gocompat

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/tensornb/tensornb/kernel/internal/front"
	"github.com/tensornb/tensornb/kernel/internal/interp/worker"
)

// Server is the server's instant engine: each cell runs in a worker
// process of its own (package worker), started with Command, with Env
// added to its environment, as the kernel starts its workers.
type Server struct {
	Command []string
	Env     []string
}

// Run runs cell in a new worker, which it waits for before the cell's
// time starts, and stops the worker after.
func (s Server) Run(cell string, timeout time.Duration) Outcome {
	e := worker.NewEngine(s.Command...)
	e.Env = s.Env
	defer func() { _ = e.Shutdown(false) }()
	start, cancel := context.WithTimeout(context.Background(), startLimit)
	err := e.Ready(start)
	cancel()
	if err != nil {
		return Outcome{Ename: "EngineError", Evalue: "the worker did not start: " + err.Error()}
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	out := &output{}
	err = e.Execute(ctx, cell, out)
	o := Outcome{Output: out.text()}
	var ce *front.CellError
	switch {
	case errors.As(err, &ce):
		o.Ename, o.Evalue, o.Traceback = ce.Name, ce.Value, ce.Traceback
		o.TimedOut = ce.Name == "Interrupted" && ctx.Err() != nil
	case err != nil:
		o.Ename, o.Evalue = "EngineError", err.Error()
	}
	return o
}

// output keeps a cell's stdout and stderr, in order, as front.Output.
type output struct {
	mu  sync.Mutex
	buf strings.Builder
}

// text returns what the cell wrote.
func (o *output) text() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.String()
}

// Stream keeps text, of stdout or stderr.
func (o *output) Stream(_, text string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.buf.WriteString(text)
}

// Display drops a display: a program shows none.
func (o *output) Display(_, _ map[string]any, _ string, _ bool) {}

// Result drops a result: a program's cell ends with a declaration.
func (o *output) Result(_, _ map[string]any) {}

// ClearOutput does nothing: a program clears nothing.
func (o *output) ClearOutput(bool) {}

// Input fails, as a front end's that takes no input: a program reads no
// line.
func (o *output) Input(context.Context, string, bool) (string, error) {
	return "", front.ErrStdinNotImplemented
}

// Comm drops a widget's message: a program has none.
func (o *output) Comm(front.CommMessage) {}
