package browser

import (
	"context"

	"github.com/tensornb/tensornb/kernel/internal/front"
)

// Execute, Complete and Inspect make the contents of the kernel's front,
// for a host that has no ZeroMQ: a browser.

// OutputLimit is how much text a cell may print (stdout and stderr
// together) before the rest is dropped, with a notice, as the kernel's
// front drops it past its own limit. A page holds what it shows in
// memory, in the DOM: a cell that prints without end must not take the
// page down with it.
const OutputLimit = 8 << 20

// outputLimitHint says what to do about the limit.
const outputLimitHint = "The browser keeps 8 MiB of a cell's text: print less (a slice, a summary), or run the notebook in the tensornb kernel in Jupyter, whose limit can be raised."

// A Host is the page's side of a cell, or of a comm message from the
// page: where their outputs go, and where a line the cell reads comes
// from.
type Host struct {
	// Publish is given each output as the content of the iopub message
	// the kernel's front publishes for it.
	Publish func(msgType string, content map[string]any)
	// Comm is given each comm message the widgets send (comm_open,
	// comm_msg, comm_close); nil drops them.
	Comm func(front.CommMessage)
	// Input asks for a line the cell reads, as front.Output's Input does,
	// and waits for it; nil if the page takes no input, and then the cell
	// fails with StdinNotImplementedError at once, as on the server when
	// the front end allows no stdin.
	Input func(ctx context.Context, prompt string, password bool) (string, error)
}

// Execute runs code on engine as execution count count, publishing its
// outputs as the iopub messages the kernel's front publishes for them,
// and returns its execute_reply's content. Its widgets' comm messages go
// to host.Comm, and the lines it reads come from host.Input. What it
// prints past OutputLimit is dropped.
func Execute(ctx context.Context, engine front.Engine, code string, count int, host Host) map[string]any {
	out := newOutput(count, host)
	publish := host.Publish
	err := engine.Execute(front.WithExecutionCount(ctx, count), code, out)
	if notice := out.limit.Dropped(); notice != "" {
		publish("stream", front.StreamContent("stderr", notice))
	}
	if err == nil {
		return front.ExecuteReply(count, nil)
	}
	ce := front.AsCellError(err)
	publish("error", front.ErrorContent(ce))
	return front.ExecuteReply(count, ce)
}

// Comm delivers m, a comm message from the page, to the widgets of
// engine, whose callbacks run then, between cells, with what they print,
// show and send going to host (they read no input, as ipykernel's comm
// handlers read none). It returns {status: "ok"}, or an error's status,
// ename and evalue, which the callbacks' stderr also says.
func Comm(ctx context.Context, engine front.CommEngine, m front.CommMessage, host Host) map[string]any {
	host.Input = nil
	out := newOutput(0, host)
	err := engine.Comm(ctx, m, out)
	if notice := out.limit.Dropped(); notice != "" {
		host.Publish("stream", front.StreamContent("stderr", notice))
	}
	if err == nil {
		return map[string]any{"status": "ok"}
	}
	ce := front.AsCellError(err)
	return map[string]any{"status": "error", "ename": ce.Name, "evalue": ce.Value, "traceback": ce.Traceback}
}

// Complete returns the content of the complete_reply the kernel's front
// sends for the completions of engine at cursor, a character offset in
// code.
func Complete(ctx context.Context, engine front.Engine, code string, cursor int) map[string]any {
	c, err := engine.Complete(ctx, code, cursor)
	if err != nil {
		c = front.Completion{CursorStart: cursor, CursorEnd: cursor}
	}
	return front.CompleteReply(c)
}

// Inspect returns the content of the inspect_reply the kernel's front
// sends for what engine knows of the name at cursor in code.
func Inspect(ctx context.Context, engine front.Engine, code string, cursor, detailLevel int) map[string]any {
	data, found, err := engine.Inspect(ctx, code, cursor, detailLevel)
	return front.InspectReply(data, found && err == nil)
}

// output publishes a cell's outputs.
type output struct {
	count   int
	publish func(msgType string, content map[string]any)
	comm    func(front.CommMessage)
	input   func(ctx context.Context, prompt string, password bool) (string, error)
	limit   *front.StreamLimit
}

func newOutput(count int, host Host) output {
	return output{count: count, publish: host.Publish, comm: host.Comm, input: host.Input, limit: &front.StreamLimit{Limit: OutputLimit, Hint: outputLimitHint}}
}

func (o output) Stream(name, text string) {
	o.limit.Publish(name, text, func(name, text string) {
		o.publish("stream", front.StreamContent(name, text))
	})
}

func (o output) Display(data, metadata map[string]any, id string, update bool) {
	o.publish(front.DisplayMessage(data, metadata, id, update))
}

func (o output) Result(data, metadata map[string]any) {
	o.publish("execute_result", front.ResultContent(o.count, data, metadata))
}

func (o output) ClearOutput(wait bool) { o.publish("clear_output", map[string]any{"wait": wait}) }

func (o output) Input(ctx context.Context, prompt string, password bool) (string, error) {
	if o.input == nil {
		return "", front.ErrStdinNotImplemented
	}
	return o.input(ctx, prompt, password)
}

func (o output) Comm(m front.CommMessage) {
	if o.comm != nil {
		o.comm(m)
	}
}
