//go:build !js

package front

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"time"

	"github.com/tensornb/tensornb/kernel/internal/wire"
	"github.com/tensornb/tensornb/kernel/internal/zsock"
)

// serveShell handles shell requests one at a time, in the order they
// arrived, as clients expect.
func (k *Kernel) serveShell(ctx context.Context, queue chan *wire.Message) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-k.done:
			return
		case m := <-queue:
			k.busy(m, func() {
				if failed := k.handleShell(ctx, m); failed {
					k.abortQueued(queue)
				}
			})
		}
	}
}

// handleShell answers one shell request. It reports whether an execute
// request failed with stop_on_error set.
func (k *Kernel) handleShell(ctx context.Context, m *wire.Message) (stop bool) {
	switch m.Type() {
	case "execute_request":
		return k.execute(ctx, m)
	case "kernel_info_request":
		k.reply(k.shell, m, "kernel_info_reply", k.kernelInfo())
	case "is_complete_request":
		var req struct {
			Code string `json:"code"`
		}
		_ = m.Decode(&req)
		status, indent := IsComplete(req.Code)
		content := map[string]any{"status": status}
		if status == "incomplete" {
			content["indent"] = indent
		}
		k.reply(k.shell, m, "is_complete_reply", content)
	case "complete_request":
		k.complete(ctx, m)
	case "inspect_request":
		k.inspect(ctx, m)
	case "history_request":
		k.reply(k.shell, m, "history_reply", k.historyReply(m))
	case "comm_info_request":
		k.commInfo(m)
	case "comm_open", "comm_msg", "comm_close":
		k.comm(ctx, m)
	default:
		k.log.Printf("ignored a shell message of type %q", m.Type())
	}
	return false
}

// abortQueued answers the execute requests already waiting with status
// "aborted", as stop_on_error asks after a failure.
func (k *Kernel) abortQueued(queue chan *wire.Message) {
	for {
		select {
		case m := <-queue:
			if m.Type() != "execute_request" {
				k.busy(m, func() { k.handleShell(context.Background(), m) })
				continue
			}
			k.busy(m, func() {
				k.reply(k.shell, m, "execute_reply", map[string]any{"status": "aborted", "execution_count": k.executionCount()})
			})
		default:
			return
		}
	}
}

func (k *Kernel) executionCount() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.count
}

type executeRequest struct {
	Code         string `json:"code"`
	Silent       bool   `json:"silent"`
	StoreHistory *bool  `json:"store_history"`
	AllowStdin   *bool  `json:"allow_stdin"`
	StopOnError  *bool  `json:"stop_on_error"`
}

// execute runs a cell: execute_input, the outputs, the reply. It reports
// whether the cell failed with stop_on_error set.
func (k *Kernel) execute(ctx context.Context, m *wire.Message) (stop bool) {
	var req executeRequest
	if err := m.Decode(&req); err != nil {
		k.reply(k.shell, m, "execute_reply", map[string]any{"status": "error", "ename": "BadRequest", "evalue": err.Error(), "traceback": []string{err.Error()}})
		return false
	}
	storeHistory := !req.Silent && (req.StoreHistory == nil || *req.StoreHistory)
	k.mu.Lock()
	if storeHistory {
		k.count++
		k.history = append(k.history, historyEntry{line: k.count, input: req.Code})
	}
	count := k.count
	k.mu.Unlock()
	cellCtx, done := k.interruptible(ctx)
	defer done()
	if storeHistory {
		cellCtx = WithExecutionCount(cellCtx, count)
	}

	if !req.Silent {
		k.publish(m, "execute_input", map[string]any{"code": req.Code, "execution_count": count})
	}
	out := k.newOutput(m, count, req.Silent, req.AllowStdin == nil || *req.AllowStdin)
	err := k.engine.Execute(cellCtx, req.Code, out)
	out.finish()
	if err == nil {
		k.reply(k.shell, m, "execute_reply", ExecuteReply(count, nil))
		return false
	}
	cellErr := AsCellError(err)
	if !req.Silent {
		k.publish(m, "error", ErrorContent(cellErr))
	}
	k.reply(k.shell, m, "execute_reply", ExecuteReply(count, cellErr))
	return req.StopOnError == nil || *req.StopOnError
}

// interruptible returns a context that Interrupt cancels until done is
// called: the running cell's, or a comm message's.
func (k *Kernel) interruptible(ctx context.Context) (_ context.Context, done func()) {
	ctx, cancel := context.WithCancel(ctx)
	k.mu.Lock()
	k.cancel = cancel
	k.mu.Unlock()
	return ctx, func() {
		cancel()
		k.mu.Lock()
		k.cancel = nil
		k.mu.Unlock()
	}
}

// newOutput returns the output of what request runs: a cell, or a comm
// message's callbacks (count 0).
func (k *Kernel) newOutput(request *wire.Message, count int, silent, allowStdin bool) *output {
	return &output{k: k, request: request, count: count, silent: silent, allowStdin: allowStdin, limit: &StreamLimit{Limit: k.outputLimit, Hint: outputLimitHint}}
}

// output publishes a running cell's outputs on iopub.
type output struct {
	k          *Kernel
	request    *wire.Message
	count      int
	silent     bool
	allowStdin bool

	limit *StreamLimit
}

// Stream publishes text the cell printed, up to the kernel's output
// limit; past it, the text is dropped, with a notice the first time.
func (o *output) Stream(name, text string) {
	if o.silent {
		return
	}
	o.limit.Publish(name, text, func(name, text string) {
		o.k.publish(o.request, "stream", StreamContent(name, text))
	})
}

// finish says how much of the cell's output was dropped, if any.
func (o *output) finish() {
	if notice := o.limit.Dropped(); notice != "" {
		o.k.publish(o.request, "stream", StreamContent("stderr", notice))
	}
}

// outputLimitHint says how to change the output limit.
const outputLimitHint = "To change the limit, set TENSORNB_OUTPUT_LIMIT (MiB; 0 for none) in the kernel's environment (kernel.json's \"env\") and restart the kernel."

func (o *output) Display(data, metadata map[string]any, id string, update bool) {
	if o.silent {
		return
	}
	msgType, content := DisplayMessage(data, metadata, id, update)
	o.k.publish(o.request, msgType, content)
}

func (o *output) Result(data, metadata map[string]any) {
	if !o.silent {
		o.k.publish(o.request, "execute_result", ResultContent(o.count, data, metadata))
	}
}

func (o *output) ClearOutput(wait bool) {
	if !o.silent {
		o.k.publish(o.request, "clear_output", map[string]any{"wait": wait})
	}
}

// Input sends an input_request to the client that asked for the cell and
// waits for its reply, until ctx is done (an interrupt).
func (o *output) Input(ctx context.Context, prompt string, password bool) (string, error) {
	if !o.allowStdin {
		return "", ErrStdinNotImplemented
	}
	for len(o.k.inputs) > 0 { // forget replies to earlier, abandoned requests
		<-o.k.inputs
	}
	if err := o.k.askForInput(ctx, o.request, prompt, password); err != nil {
		return "", err
	}
	select {
	case m := <-o.k.inputs:
		var reply struct {
			Value string `json:"value"`
		}
		if err := m.Decode(&reply); err != nil {
			return "", err
		}
		return reply.Value, nil
	case <-ctx.Done():
		return "", ctx.Err()
	case <-o.k.done:
		return "", errors.New("the kernel is shutting down")
	}
}

// stdinWait is how long an input_request waits for the client's stdin
// channel to connect: a client connects its channels together, but the
// first cell can run before the stdin connection is through.
const stdinWait = 10 * time.Second

// askForInput sends the input_request for request to the client's stdin
// channel, again every 20 ms while that channel is not connected, for up
// to stdinWait.
func (k *Kernel) askForInput(ctx context.Context, request *wire.Message, prompt string, password bool) error {
	m, err := k.answer(request, "input_request", map[string]any{"prompt": prompt, "password": password})
	if err != nil {
		return err
	}
	deadline := time.Now().Add(stdinWait)
	for {
		err := k.trySend(k.stdin, m)
		if !errors.Is(err, zsock.ErrNoPeer) {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("input: the front end's stdin channel did not connect within %v, so the input request could not be sent; reconnect the notebook to the kernel and run the cell again", stdinWait)
		}
		select {
		case <-time.After(20 * time.Millisecond):
		case <-ctx.Done():
			return ctx.Err()
		case <-k.done:
			return errors.New("the kernel is shutting down")
		}
	}
}

// Comm publishes a comm message of the engine's.
func (o *output) Comm(m CommMessage) {
	o.k.trackComm(m.Type, m.Content)
	o.k.publishComm(o.request, m)
}

// comm forwards a comm message from the front end to an engine that has
// comms; what its callbacks print and show goes out in reply to it, and
// its errors to the log. Without one, a comm_open is answered with
// comm_close: no target is open.
func (k *Kernel) comm(ctx context.Context, m *wire.Message) {
	ce, ok := k.engine.(CommEngine)
	if !ok {
		var req struct {
			CommID string `json:"comm_id"`
		}
		if m.Type() == "comm_open" && m.Decode(&req) == nil {
			k.publish(m, "comm_close", map[string]any{"comm_id": req.CommID, "data": map[string]any{}})
		}
		return
	}
	k.trackComm(m.Type(), m.Content)
	// An interrupt stops a callback as it stops a cell.
	ctx, done := k.interruptible(ctx)
	defer done()
	out := k.newOutput(m, 0, false, false)
	err := ce.Comm(ctx, CommMessage{Type: m.Type(), Content: m.Content, Metadata: m.Metadata, Buffers: m.Buffers}, out)
	out.finish()
	if err != nil {
		k.log.Printf("%s: %v", m.Type(), err)
	}
}

// publishComm broadcasts a comm message on iopub, in reply to parent.
func (k *Kernel) publishComm(parent *wire.Message, c CommMessage) {
	m, err := wire.NewMessage(c.Type, k.session, parent, c.Content)
	if err != nil {
		k.log.Print(err)
		return
	}
	if len(c.Metadata) > 0 {
		m.Metadata = c.Metadata
	}
	m.Buffers = c.Buffers
	m.Identities = [][]byte{[]byte(c.Type)}
	k.send(k.iopub, m)
}

// trackComm keeps the list of open comms that comm_info reports: the
// engines' own kernels do not answer comm_info.
func (k *Kernel) trackComm(msgType string, content json.RawMessage) {
	var c struct {
		CommID     string `json:"comm_id"`
		TargetName string `json:"target_name"`
	}
	if json.Unmarshal(content, &c) != nil || c.CommID == "" {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	switch msgType {
	case "comm_open":
		if k.comms == nil {
			k.comms = map[string]string{}
		}
		k.comms[c.CommID] = c.TargetName
	case "comm_close":
		delete(k.comms, c.CommID)
	}
}

func (k *Kernel) commInfo(m *wire.Message) {
	var req struct {
		TargetName string `json:"target_name"`
	}
	_ = m.Decode(&req)
	comms := map[string]any{}
	k.mu.Lock()
	for id, target := range k.comms {
		if req.TargetName == "" || req.TargetName == target {
			comms[id] = map[string]any{"target_name": target}
		}
	}
	k.mu.Unlock()
	k.reply(k.shell, m, "comm_info_reply", map[string]any{"status": "ok", "comms": comms})
}

func (k *Kernel) complete(ctx context.Context, m *wire.Message) {
	var req struct {
		Code      string `json:"code"`
		CursorPos int    `json:"cursor_pos"`
	}
	_ = m.Decode(&req)
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	c, err := k.engine.Complete(ctx, req.Code, req.CursorPos)
	if err != nil {
		k.log.Printf("completion: %v", err)
		c = Completion{CursorStart: req.CursorPos, CursorEnd: req.CursorPos}
	}
	k.reply(k.shell, m, "complete_reply", CompleteReply(c))
}

func (k *Kernel) inspect(ctx context.Context, m *wire.Message) {
	var req struct {
		Code        string `json:"code"`
		CursorPos   int    `json:"cursor_pos"`
		DetailLevel int    `json:"detail_level"`
	}
	_ = m.Decode(&req)
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	data, found, err := k.engine.Inspect(ctx, req.Code, req.CursorPos, req.DetailLevel)
	if err != nil {
		k.log.Printf("inspect: %v", err)
		found = false
	}
	k.reply(k.shell, m, "inspect_reply", InspectReply(data, found))
}

// A historyEntry is one stored input of this session.
type historyEntry struct {
	line  int
	input string
}

// historyReply answers a history_request over this session's inputs:
// "tail" (the last n), "range" (lines start to stop) or "search" (a glob
// pattern, the last n matches, unique if asked).
func (k *Kernel) historyReply(m *wire.Message) map[string]any {
	var req struct {
		Output         bool   `json:"output"`
		Raw            bool   `json:"raw"`
		HistAccessType string `json:"hist_access_type"`
		Session        int    `json:"session"`
		Start          int    `json:"start"`
		Stop           int    `json:"stop"`
		N              int    `json:"n"`
		Pattern        string `json:"pattern"`
		Unique         bool   `json:"unique"`
	}
	_ = m.Decode(&req)
	k.mu.Lock()
	entries := append([]historyEntry{}, k.history...)
	k.mu.Unlock()

	var picked []historyEntry
	switch req.HistAccessType {
	case "range":
		for _, e := range entries {
			if e.line >= req.Start && (req.Stop <= 0 || e.line < req.Stop) {
				picked = append(picked, e)
			}
		}
	case "search":
		seen := map[string]bool{}
		pattern := req.Pattern
		if pattern == "" {
			pattern = "*"
		}
		for i := len(entries) - 1; i >= 0; i-- {
			e := entries[i]
			ok, err := path.Match(pattern, e.input)
			if err != nil || !ok || (req.Unique && seen[e.input]) {
				continue
			}
			seen[e.input] = true
			picked = append([]historyEntry{e}, picked...)
		}
		picked = lastN(picked, req.N)
	default: // "tail"
		picked = lastN(entries, req.N)
	}
	history := make([]any, len(picked))
	for i, e := range picked {
		if req.Output {
			history[i] = []any{1, e.line, []any{e.input, nil}}
		} else {
			history[i] = []any{1, e.line, e.input}
		}
	}
	return map[string]any{"status": "ok", "history": history}
}

func lastN(entries []historyEntry, n int) []historyEntry {
	if n > 0 && len(entries) > n {
		return entries[len(entries)-n:]
	}
	return entries
}
