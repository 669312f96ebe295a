package front

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// An Engine runs the cells a Kernel receives. The Kernel owns the
// protocol: counts, history, busy and idle, replies; an Engine only runs
// code and reports what it produced.
type Engine interface {
	// Execute runs code, sending what it produces to out. It returns nil
	// if the cell ran to completion, a *CellError if it failed, and a
	// *CellError named "Interrupted" soon after ctx is cancelled, which is
	// how an interrupt reaches it.
	Execute(ctx context.Context, code string, out Output) error

	// Complete returns the completions at cursor (a rune offset) in code.
	Complete(ctx context.Context, code string, cursor int) (Completion, error)

	// Inspect returns what is known of the name at cursor in code, as a
	// MIME bundle, or found = false.
	Inspect(ctx context.Context, code string, cursor, detail int) (data map[string]any, found bool, err error)

	// Shutdown stops the engine; with restart, it is started afresh.
	Shutdown(restart bool) error
}

// countKey is the context key of a cell's execution count.
type countKey struct{}

// WithExecutionCount returns ctx carrying n, the execution count of the
// cell that runs under it (In [n]).
func WithExecutionCount(ctx context.Context, n int) context.Context {
	return context.WithValue(ctx, countKey{}, n)
}

// ExecutionCount returns the execution count that the Kernel gave the cell
// running under ctx, if it gave one: a cell that is not stored in the
// history (silent, or store_history false) has none.
func ExecutionCount(ctx context.Context) (int, bool) {
	n, ok := ctx.Value(countKey{}).(int)
	return n, ok
}

// gradeIDKey is the context key of a test cell's grade_id.
type gradeIDKey struct{}

// WithGradeID returns ctx carrying id, the nbgrader grade_id of the test
// cell that runs under it, which tensornb grade gives: the checks that
// generate inputs seed them from it (package gradeseed).
func WithGradeID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, gradeIDKey{}, id)
}

// GradeID returns the grade_id of the cell running under ctx, or "".
func GradeID(ctx context.Context) string {
	id, _ := ctx.Value(gradeIDKey{}).(string)
	return id
}

// Output receives what a running cell produces, in order.
type Output interface {
	// Stream writes text to "stdout" or "stderr".
	Stream(name, text string)
	// Display shows a MIME bundle; with id it is a display that can be
	// updated, and with update it replaces the display of that id.
	Display(data, metadata map[string]any, id string, update bool)
	// Result shows the value of the cell's last expression, Out[n].
	Result(data, metadata map[string]any)
	// ClearOutput clears the cell's output, when the next output arrives if
	// wait.
	ClearOutput(wait bool)
	// Input asks the user for a line of text and waits for it, until ctx
	// is done. It fails with ErrStdinNotImplemented at once if the front
	// end does not allow input.
	Input(ctx context.Context, prompt string, password bool) (string, error)
	// Comm sends a comm_open, comm_msg or comm_close to the front end.
	Comm(m CommMessage)
}

// ErrStdinNotImplemented is Input's error when the front end that asked
// for the cell does not take input requests (allow_stdin is false):
// ipykernel's StdinNotImplementedError.
var ErrStdinNotImplemented = errors.New("this front end does not support input requests (its execute_request says allow_stdin: false)")

// StdinNotImplemented is the name of the error of a cell that reads its
// standard input where the front end takes no input, as ipykernel names
// it.
const StdinNotImplemented = "StdinNotImplementedError"

// StdinError is the error of a cell that read its standard input and got
// no line: err is why (ErrStdinNotImplemented, an interrupt, ...).
func StdinError(err error) *CellError {
	name, value := "InputError", fmt.Sprintf("the cell read its standard input, and no line came: %v", err)
	if errors.Is(err, ErrStdinNotImplemented) {
		name, value = StdinNotImplemented, fmt.Sprintf("the cell read its standard input, but %v", err)
	}
	return &CellError{Name: name, Value: value, Traceback: []string{name + ": " + value}}
}

// A CommMessage is a comm_open, comm_msg or comm_close, in either
// direction: its type, content, the message's metadata and its binary
// buffers.
type CommMessage struct {
	Type     string          `json:"type"`
	Content  json.RawMessage `json:"content"`
	Metadata json.RawMessage `json:"metadata,omitempty"`
	Buffers  [][]byte        `json:"buffers,omitempty"`
}

// A CommEngine is an Engine with comms of its own (widgets): the kernel
// forwards the front end's comm messages to it.
type CommEngine interface {
	Engine
	// Comm delivers a comm_open, comm_msg or comm_close from the front
	// end. What the engine sends in answer, and what its callbacks print
	// and show, goes to out, in reply to it; out stays valid after Comm
	// returns, for an engine that answers later. An error is logged.
	Comm(ctx context.Context, m CommMessage, out Output) error
}

// A Completion is a complete_reply's content.
type Completion struct {
	Matches     []string
	CursorStart int
	CursorEnd   int
	// Types, if set, describe the matches, for the reply's
	// metadata._jupyter_types_experimental, which JupyterLab shows.
	Types []MatchType
}

// A MatchType describes one match: the text that replaces the cell's
// characters from Start to End, its kind ("function", "method",
// "variable", "field", "type", "module", "constant") and its declaration.
type MatchType struct {
	Start     int    `json:"start"`
	End       int    `json:"end"`
	Text      string `json:"text"`
	Type      string `json:"type"`
	Signature string `json:"signature"`
}

// Discard is an Output that keeps nothing of what a cell produces but the
// text it writes to stderr, which goes to Stderr (nowhere if Stderr is
// nil). It is the Output of cells nobody watches: a replayed cell, whose
// outputs were shown when it first ran, or the cell install runs to warm
// the build cache. Input fails, with nobody to ask.
type Discard struct {
	Stderr io.Writer
}

// Stream writes the stderr text to d.Stderr.
func (d Discard) Stream(name, text string) {
	if name == "stderr" && d.Stderr != nil {
		io.WriteString(d.Stderr, text)
	}
}

// Display drops the bundle.
func (Discard) Display(data, metadata map[string]any, id string, update bool) {}

// Result drops the bundle.
func (Discard) Result(data, metadata map[string]any) {}

// ClearOutput does nothing.
func (Discard) ClearOutput(wait bool) {}

// Input fails: nobody sees the cell to answer it.
func (Discard) Input(ctx context.Context, prompt string, password bool) (string, error) {
	return "", errors.New("this cell cannot ask for input: nobody sees its output (it is being replayed, or run by the installer)")
}

// Comm drops the message.
func (Discard) Comm(CommMessage) {}
