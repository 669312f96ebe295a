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

// Execute runs code on engine as execution count count, publishing its
// outputs as the iopub messages the kernel's front publishes for them,
// and returns its execute_reply's content. Where the front on ZeroMQ asks
// the client for input, and passes on comms, a cell here has neither.
// What it prints past OutputLimit is dropped.
func Execute(ctx context.Context, engine front.Engine, code string, count int, publish func(msgType string, content map[string]any)) map[string]any {
	out := output{count: count, publish: publish, limit: &front.StreamLimit{Limit: OutputLimit, Hint: outputLimitHint}}
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
	limit   *front.StreamLimit
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

func (output) Input(context.Context, string, bool) (string, error) {
	return "", front.ErrStdinNotImplemented
}

func (output) Comm(front.CommMessage) {}
