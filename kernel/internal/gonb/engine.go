// Package gonb runs cells on GoNB, which compiles every cell with the Go
// toolchain. GoNB runs as a child kernel on loopback; the engine drives it
// as a Jupyter client and turns what it sends into the front's outputs,
// fixing on the way what GoNB reports differently from what clients
// expect: errors, panics, interrupts.
package gonb

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/tensornb/tensornb/kernel/internal/client"
	"github.com/tensornb/tensornb/kernel/internal/front"
	"github.com/tensornb/tensornb/kernel/internal/procs"
	"github.com/tensornb/tensornb/kernel/internal/wire"
)

// Options configure an Engine.
type Options struct {
	// GoNB is the gonb binary; ToolsDir, if set, is put first on the
	// child's PATH so that GoNB finds the pinned goimports and gopls.
	GoNB     string
	ToolsDir string
	// Env is added to the child's environment.
	Env []string
	// Module is a directory holding the tensornb module's source; cells
	// then import tensor, display and gonbui from it, at that version and
	// with no network.
	Module string
	// KernelID is the id Jupyter gave the kernel (from its connection
	// file's name, kernel-<id>.json). GoNB learns its id the same way and
	// accepts widget comms only for it, so the child's connection file is
	// named after it too.
	KernelID string
	// Log receives GoNB's own log lines; nil discards them.
	Log io.Writer
	// StartTimeout bounds how long GoNB may take to answer after start.
	StartTimeout time.Duration
}

// The kernel runs an Engine as a front.CommEngine: its comms are GoNB's
// widgets.
var _ front.CommEngine = (*Engine)(nil)

// An Engine runs cells on a GoNB child kernel, starting it on first use
// and again if it dies.
type Engine struct {
	opts Options

	mu    sync.Mutex
	child *child
	// void holds the functions found to return nothing or several values:
	// a cell ending with a call to one is not rewritten to show a result.
	void map[string]bool

	// Comms: where to publish what GoNB sends in answer to a forwarded
	// comm message, by the id it was forwarded under, and otherwise (GoNB
	// sending of its own accord) to the front end that spoke last.
	commMu      sync.Mutex
	commReplies map[string]front.Output
	commLast    front.Output
	// lost records why a child ended without being asked to; the next cell
	// says so before it runs.
	lost string
}

// A child is one running GoNB.
type child struct {
	cmd    *exec.Cmd
	tag    procs.Tag // GoNB's, and that of everything it and the cells start
	dir    string
	client *client.Client
	exited chan struct{} // closed when the process ends
	// started is when the child started: gopls answers nothing while it
	// loads, its first seconds.
	started time.Time
	// ran holds the cells sent to this GoNB, by GoNB's cell id less one
	// (GoNB numbers the cells it keeps in history from 1), so that a panic
	// in a function declared by an earlier cell can name that cell's line.
	ran []ranCell
}

// A ranCell is a cell as sent to GoNB, and as the person wrote it.
type ranCell struct {
	cell   arranged
	source []string
}

// New returns an engine; GoNB starts with the first cell.
func New(opts Options) *Engine {
	if opts.StartTimeout == 0 {
		opts.StartTimeout = 60 * time.Second
	}
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	return &Engine{opts: opts}
}

// running returns the live child, starting one if there is none. It also
// returns a note to show the user when an earlier child had died.
func (e *Engine) running(ctx context.Context) (*child, string, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.child != nil {
		select {
		case <-e.child.exited:
			if e.lost == "" {
				e.lost = "the Go engine (GoNB) stopped unexpectedly"
			}
			e.child.close()
			e.child = nil
		default:
			return e.child, "", nil
		}
	}
	c, err := e.start(ctx)
	if err != nil {
		return nil, "", err
	}
	e.child = c
	note := ""
	if e.lost != "" {
		note = fmt.Sprintf("tensornb: %s and was restarted; declarations from earlier cells are gone, so run them again.\n", e.lost)
		e.lost = ""
	}
	return c, note, nil
}

// start launches GoNB and waits until it answers.
//
// GoNB listens on Unix sockets in a directory only this user may enter
// (os.MkdirTemp makes it 0700), not on loopback TCP ports, which any local
// user can connect to: GoNB's ZeroMQ (go-zeromq/zmq4 v0.17.0) dies of a
// frame header that claims 2^62 bytes, sent before any key is checked,
// and stops accepting connections while one of them sends nothing.
func (e *Engine) start(ctx context.Context) (*child, error) {
	dir, err := os.MkdirTemp("", "tensornb-gonb-")
	if err != nil {
		return nil, err
	}
	conn := &wire.Connection{
		Transport: "ipc", IP: filepath.Join(dir, "gonb"), Key: wire.NewID(), SignatureScheme: "hmac-sha256",
		ShellPort: 1, ControlPort: 2, StdinPort: 3, IOPubPort: 4, HBPort: 5,
	}
	if n := len(conn.IP) + len("-5"); n > maxSocketPath {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("GoNB's sockets would be %d bytes long in %s, longer than a Unix socket's path may be: set TMPDIR to a shorter directory", n, dir)
	}
	connFile := filepath.Join(dir, "connection.json")
	if e.opts.KernelID != "" {
		connFile = filepath.Join(dir, "kernel-"+e.opts.KernelID+".json")
	}
	data, _ := json.Marshal(conn)
	if err := os.WriteFile(connFile, data, 0o600); err != nil {
		return nil, err
	}
	cmd := exec.Command(e.opts.GoNB, "--kernel", connFile, "--raw_error", "--logtostderr")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), e.opts.Env...)
	if e.opts.ToolsDir != "" {
		cmd.Env = append(cmd.Env, "PATH="+e.opts.ToolsDir+string(os.PathListSeparator)+os.Getenv("PATH"))
	}
	cmd.Stdout, cmd.Stderr = e.opts.Log, e.opts.Log
	tag := procs.New()
	tag.Prepare(cmd)
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("starting GoNB (%s): %w; run `tensornb install` to build it", e.opts.GoNB, err)
	}
	c := &child{cmd: cmd, tag: tag, dir: dir, exited: make(chan struct{}), started: time.Now()}
	go func() {
		_ = cmd.Wait()
		// gopls, in a process group of its own, outlives GoNB, and so do
		// the processes cells started.
		tag.Kill(nil)
		close(c.exited)
	}()
	// The sockets live as long as the child, not as the cell that started it.
	if c.client, err = client.Dial(context.Background(), conn); err != nil {
		c.close()
		return nil, err
	}
	c.client.OnUnclaimed(e.commFromGoNB)
	ready, cancel := context.WithTimeout(ctx, e.opts.StartTimeout)
	defer cancel()
	go func() { // stop waiting if GoNB exits during start
		select {
		case <-c.exited:
			cancel()
		case <-ready.Done():
		}
	}()
	if err := c.client.WaitReady(ready); err != nil {
		c.close()
		return nil, fmt.Errorf("GoNB did not start: %w", err)
	}
	if e.opts.Module != "" {
		if err := c.useModule(ready, e.opts.Module); err != nil {
			c.close()
			return nil, err
		}
	}
	return c, nil
}

// useModule points the module GoNB builds cells in at the tensornb source
// in dir: a replace directive, a requirement, and the module's checksums,
// so that the go command finds tensornb and its dependencies (gonbui among
// them) locally and asks no proxy.
func (c *child) useModule(ctx context.Context, dir string) error {
	const module = "github.com/tensornb/tensornb"
	setup := fmt.Sprintf("!*go mod edit -replace=%s=%s -require=%s@v0.0.0 && cat %s >> go.sum",
		module, shellQuote(dir), module, shellQuote(filepath.Join(dir, "go.sum")))
	var output strings.Builder
	reply, err := c.client.Call(ctx, client.Shell, "execute_request", map[string]any{
		"code": setup, "silent": false, "store_history": false, "allow_stdin": false, "stop_on_error": false,
	}, func(m *wire.Message) { output.Write(m.Content) })
	if err != nil {
		return fmt.Errorf("setting up GoNB's module: %w", err)
	}
	var r struct {
		Status string `json:"status"`
	}
	if reply.Decode(&r) != nil || r.Status != "ok" {
		return fmt.Errorf("setting up GoNB's module failed: %s", output.String())
	}
	return nil
}

// shellQuote quotes s for the shell GoNB runs !* commands with.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// close stops the child and everything it started, and removes its
// directory.
func (c *child) close() {
	if c.client != nil {
		c.client.Close()
	}
	if c.cmd.Process != nil {
		_ = c.cmd.Process.Kill()
	}
	// Kill the rest now too: the child's Wait also waits for whoever holds
	// its output's pipe.
	c.tag.Kill(nil)
	<-c.exited
	os.RemoveAll(c.dir)
}

// maxSocketPath is the longest path a Unix socket may have on Linux (108
// bytes with the final NUL) and macOS (104).
const maxSocketPath = 103

// endCells kills what the cells started and left running, and the
// program of a cell that is still running: GoNB kills only the program it
// ran, and the processes it started outlive it. GoNB, gopls and what gopls
// started stay.
func (c *child) endCells() {
	gonb := c.cmd.Process.Pid
	c.tag.Kill(func(p *procs.Process) bool {
		if p.PID == gonb {
			return true
		}
		for ; p.Parent != nil; p = p.Parent {
			if p.Parent.PID == gonb {
				return p.Comm == "gopls"
			}
		}
		return false
	})
}

// Start starts GoNB now rather than with the first cell, so that the
// first cell only waits for its own build. A failure is reported again by
// the first cell, which tries to start GoNB anew.
func (e *Engine) Start() {
	ctx, cancel := context.WithTimeout(context.Background(), e.opts.StartTimeout)
	defer cancel()
	_, _, _ = e.running(ctx)
}

// Execute runs a cell on GoNB and passes its outputs to out.
func (e *Engine) Execute(ctx context.Context, code string, out front.Output) error {
	c, note, err := e.running(ctx)
	if err != nil {
		return front.EngineError(err)
	}
	if note != "" {
		out.Stream("stderr", note)
	}
	if starts := mainStarts(code); len(starts) > 1 {
		return severalMains(code, starts)
	}
	// Showing a result needs the display package, which only an engine
	// that was given the tensornb module can import.
	module := e.opts.Module != ""
	e.mu.Lock()
	cell := arrange(code, module, module)
	if cell.result && e.void[cell.callee] {
		cell = arrange(code, false, module)
	}
	e.mu.Unlock()
	shown := &resultSeen{Output: out}
	err = e.run(ctx, c, cell, strings.Split(code, "\n"), shown)
	if cell.result && cell.callee != "" && err == nil && !shown.seen {
		// The call returned several values (fmt.Println), which
		// display.Result does not show: remember it, so that later cells
		// ending with it are not rewritten and need not link display.
		e.markVoid(cell.callee)
	}
	if cell.result && noValue(err, cell) {
		// The cell ends with a call of a function that returns nothing:
		// remember it, and run the cell as written.
		e.markVoid(cell.callee)
		err = e.run(ctx, c, arrange(code, false, module), strings.Split(code, "\n"), out)
	}
	return err
}

// severalMains is the error of a cell with more than one line starting
// a main function (%%, %main, %exec), at the cell's lines starts: GoNB
// runs one per cell, and v0.11.4 ends when given more.
func severalMains(code string, starts []int) *front.CellError {
	lines := strings.Split(code, "\n")
	value := fmt.Sprintf("cell line %d: the cell already started its program at line %d; GoNB runs one %%%%, %%main or %%exec per cell", starts[1], starts[0])
	traceback := []string{"SyntaxError: " + value}
	for _, n := range starts {
		traceback = append(traceback, fmt.Sprintf("cell line %d: %s", n, strings.TrimSpace(lines[n-1])))
	}
	return &front.CellError{Name: "SyntaxError", Value: value, Traceback: traceback}
}

// markVoid remembers that callee has no single value to show.
func (e *Engine) markVoid(callee string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.void == nil {
		e.void = map[string]bool{}
	}
	e.void[callee] = true
}

// resultSeen is an Output that notes whether the cell showed a result.
type resultSeen struct {
	front.Output
	seen bool
}

func (r *resultSeen) Result(data, metadata map[string]any) {
	r.seen = true
	r.Output.Result(data, metadata)
}

// noValue reports whether err is the compile error of showing the result
// of a call that has no value.
func noValue(err error, cell arranged) bool {
	var ce *front.CellError
	return errors.As(err, &ce) && ce.Name == "CompileError" &&
		strings.HasPrefix(ce.Value, fmt.Sprintf("cell line %d:", cell.resultLine)) && strings.Contains(ce.Value, "used as value")
}

// run runs an arranged cell on the child.
func (e *Engine) run(ctx context.Context, c *child, cell arranged, source []string, out front.Output) error {
	c.ran = append(c.ran, ranCell{cell, source})
	t := &translator{out: out, id: len(c.ran), ran: c.ran, module: e.opts.Module}
	// A line the front end cannot give is not answered: the program
	// would take an empty answer for one. The cell is stopped instead.
	refused := make(chan error, 1)
	c.client.OnInput(func(prompt string, password bool) (string, bool) {
		v, err := out.Input(ctx, prompt, password)
		if err != nil {
			select {
			case refused <- err:
			default:
			}
			return "", false
		}
		return v, true
	})

	done := make(chan result, 1)
	go func() {
		reply, err := c.client.Call(context.Background(), client.Shell, "execute_request", map[string]any{
			"code": cell.code, "silent": false, "store_history": true, "allow_stdin": true, "stop_on_error": false,
		}, t.iopub)
		done <- result{reply, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			return front.EngineError(r.err)
		}
		return t.outcome(r.reply)
	case <-c.exited:
		e.mu.Lock()
		e.lost = "the Go engine (GoNB) stopped while running a cell"
		e.mu.Unlock()
		return &front.CellError{Name: "EngineDied", Value: "GoNB stopped while running the cell; the next cell restarts it", Traceback: []string{"EngineDied: GoNB stopped while running the cell"}}
	case <-ctx.Done():
		e.stopCell(c, done)
		return front.Interrupted()
	case err := <-refused:
		if ctx.Err() != nil {
			e.stopCell(c, done)
			return front.Interrupted()
		}
		e.stopCell(c, done)
		return front.StdinError(err)
	}
}

// stopCell asks GoNB to stop the program of the cell whose reply comes on
// done, and gives it a moment to finish the cell, so that the next one
// starts clean.
func (e *Engine) stopCell(c *child, done <-chan result) {
	ended := make(chan struct{})
	go e.interruptUntilEnded(c, done, ended)
	select {
	case <-ended:
	case <-time.After(900 * time.Millisecond):
	}
	c.endCells()
}

// A result is GoNB's reply to a cell's execute_request.
type result struct {
	reply *wire.Message
	err   error
}

// interruptGiveUp is how long an interrupted cell may go on before GoNB
// is stopped, so that the next cell starts a new one.
const interruptGiveUp = 20 * time.Second

// interruptUntilEnded asks GoNB to interrupt the cell whose reply comes
// on done, again every second until it ends: an interrupt that arrives
// while GoNB is still building the cell stops nothing, and the program
// then starts and runs on. If the cell has not ended after
// interruptGiveUp, GoNB is stopped. ended is closed when the cell or GoNB
// has ended.
func (e *Engine) interruptUntilEnded(c *child, done <-chan result, ended chan<- struct{}) {
	defer close(ended)
	giveUp := time.After(interruptGiveUp)
	for {
		ask, cancel := context.WithTimeout(context.Background(), time.Second)
		go func() { _, _ = c.client.Call(ask, client.Control, "interrupt_request", map[string]any{}, nil) }()
		select {
		case <-done:
			cancel()
			return
		case <-c.exited:
			cancel()
			return
		case <-giveUp:
			cancel()
			e.mu.Lock()
			e.lost = "the Go engine (GoNB) did not stop an interrupted cell, so it was stopped"
			e.mu.Unlock()
			_ = c.cmd.Process.Kill()
			<-c.exited
			return
		case <-ask.Done():
		}
	}
}

// Comm forwards a comm message from the front end to GoNB, which runs the
// widgets' side of gonbui; what GoNB publishes in answer goes to out.
func (e *Engine) Comm(ctx context.Context, cm front.CommMessage, out front.Output) error {
	c, _, err := e.running(ctx)
	if err != nil {
		return err
	}
	m, err := c.client.NewMessage(cm.Type, cm.Content)
	if err != nil {
		return err
	}
	m.Buffers = cm.Buffers
	// Expect the answers before sending: GoNB may answer at once.
	e.commMu.Lock()
	if len(e.commReplies) > 1024 { // forget answers long overdue
		e.commReplies = nil
	}
	if e.commReplies == nil {
		e.commReplies = map[string]front.Output{}
	}
	e.commReplies[m.Header.MsgID] = out
	e.commLast = out
	e.commMu.Unlock()
	return c.client.SendMessage(client.Shell, m)
}

// commFromGoNB passes on what GoNB publishes outside a cell: its answers
// to comm messages (comms, and the display updates that come with them).
func (e *Engine) commFromGoNB(m *wire.Message) {
	var parent wire.Header
	_ = json.Unmarshal(m.ParentHeader, &parent)
	e.commMu.Lock()
	out, ok := e.commReplies[parent.MsgID]
	if !ok {
		out = e.commLast
	}
	e.commMu.Unlock()
	if out == nil {
		return
	}
	switch m.Type() {
	case "comm_open", "comm_msg", "comm_close":
		out.Comm(front.CommMessage{Type: m.Type(), Content: m.Content, Metadata: m.Metadata, Buffers: m.Buffers})
	case "display_data", "update_display_data":
		var c displayContent
		if json.Unmarshal(m.Content, &c) == nil {
			unpackMetadata(c.Metadata)
			out.Display(c.Data, c.Metadata, c.Transient.DisplayID, m.Type() == "update_display_data")
		}
	}
}

// Complete asks GoNB (and through it gopls) for completions.
func (e *Engine) Complete(ctx context.Context, code string, cursor int) (front.Completion, error) {
	c, _, err := e.running(ctx)
	if err != nil {
		return front.Completion{}, err
	}
	if !c.goplsConnected(ctx) {
		return front.Completion{CursorStart: cursor, CursorEnd: cursor}, nil
	}
	cell := arrange(code, false, false)
	var r struct {
		Matches     []string `json:"matches"`
		CursorStart int      `json:"cursor_start"`
		CursorEnd   int      `json:"cursor_end"`
	}
	for {
		reply, err := c.client.Call(ctx, client.Shell, "complete_request", map[string]any{"code": cell.code, "cursor_pos": cell.toGoNB(code, cursor)}, nil)
		if err != nil {
			return front.Completion{}, err
		}
		if err := reply.Decode(&r); err != nil {
			return front.Completion{}, err
		}
		if len(r.Matches) > 0 || !c.waitForGopls(ctx) {
			break
		}
	}
	return front.Completion{Matches: unique(r.Matches), CursorStart: cell.fromGoNB(code, r.CursorStart), CursorEnd: cell.fromGoNB(code, r.CursorEnd)}, nil
}

// unique drops the repeats of matches, keeping the first of each.
func unique(matches []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range matches {
		if !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	return out
}

// goplsConnects is how long after its start GoNB is connected to gopls:
// GoNB (v0.11.4) starts gopls as it starts, and first connects to it 12 s
// later (v0.11.1 did after 2 s); the rest is a margin for GoNB's own start
// on a loaded machine. A completion or inspection asked of GoNB before it
// is connected is answered only 12 s after it was asked, and GoNB runs
// no cell meanwhile.
const goplsConnects = 14 * time.Second

// goplsConnected waits until GoNB is connected to gopls, and reports
// whether it is: false, at once, if ctx ends first, so that a request that
// could only time out neither keeps the front end waiting nor holds GoNB.
func (c *child) goplsConnected(ctx context.Context) bool {
	wait := time.Until(c.started.Add(goplsConnects))
	if wait <= 0 {
		return true
	}
	if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < wait {
		return false
	}
	select {
	case <-ctx.Done():
		return false
	case <-time.After(wait):
		return true
	}
}

// goplsLoading is how long after GoNB starts an empty answer may be
// gopls still loading rather than nothing to say: it connects about
// goplsConnects after GoNB's start, then loads the packages a cell
// imports, each request bounded by GoNB at 8 s. On a loaded machine that
// took more than 20 s (dual's TestCompletionFollowsTheCell came back
// empty at a load average of 15); a minute leaves room, and a Tab that
// truly has nothing to complete in GoNB's first minute waits at most its
// request's time.
const goplsLoading = time.Minute

// waitForGopls waits a moment, and reports whether to ask again: an
// empty answer in GoNB's first seconds may be gopls still loading, and
// the first Tab after a start should wait for it rather than show
// nothing.
func (c *child) waitForGopls(ctx context.Context) bool {
	if time.Since(c.started) > goplsLoading {
		return false
	}
	select {
	case <-ctx.Done():
		return false
	case <-time.After(500 * time.Millisecond):
		return true
	}
}

// Inspect asks GoNB (and through it gopls) what the name at the cursor is.
func (e *Engine) Inspect(ctx context.Context, code string, cursor, detail int) (map[string]any, bool, error) {
	c, _, err := e.running(ctx)
	if err != nil {
		return nil, false, err
	}
	if !c.goplsConnected(ctx) {
		return nil, false, nil
	}
	cell := arrange(code, false, false)
	var r struct {
		Found bool           `json:"found"`
		Data  map[string]any `json:"data"`
	}
	for {
		reply, err := c.client.Call(ctx, client.Shell, "inspect_request", map[string]any{"code": cell.code, "cursor_pos": cell.toGoNB(code, cursor), "detail_level": detail}, nil)
		if err != nil {
			return nil, false, err
		}
		r.Data = nil
		if err := reply.Decode(&r); err != nil {
			return nil, false, err
		}
		if md, _ := r.Data["text/markdown"].(string); strings.TrimSpace(md) != "" || !c.waitForGopls(ctx) {
			break
		}
	}
	md, _ := r.Data["text/markdown"].(string)
	if strings.TrimSpace(md) == "" && goplsHadNothing(r.Data) {
		return nil, false, nil
	}
	if _, ok := r.Data["text/plain"]; !ok && strings.TrimSpace(md) != "" {
		// Notebook 6's tooltip shows only text/plain.
		r.Data["text/plain"] = plainFromMarkdown(md)
	}
	if _, ok := r.Data["text/plain"]; !ok {
		return nil, false, nil // GoNB says found with nothing to show
	}
	return r.Data, r.Found, nil
}

// goplsHadNothing reports whether data, GoNB's answer to an inspection,
// says only that gopls had nothing to show at the cursor (a blank, a
// comment, a string) or was not yet connected. GoNB v0.11.1 answered
// those with empty Markdown; v0.11.4 answers with its error as text,
// then gopls's messages, which a tooltip would show as if they were the
// name's documentation.
func goplsHadNothing(data map[string]any) bool {
	text, _ := data["text/plain"].(string)
	first, _, _ := strings.Cut(text, "\n\n")
	return strings.HasPrefix(first, "gopls request returned 'hover' with unexpected kind") ||
		strings.HasPrefix(first, "gopls client not connected")
}

// plainFromMarkdown turns gopls's hover Markdown into text: the
// declaration, its doc, and the link, without the fences and rules.
func plainFromMarkdown(md string) string {
	var lines []string
	for _, l := range strings.Split(md, "\n") {
		switch strings.TrimSpace(l) {
		case "```go", "```", "---":
			continue
		}
		if l == "" && (len(lines) == 0 || lines[len(lines)-1] == "") {
			continue
		}
		lines = append(lines, l)
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// Shutdown stops GoNB. A later cell starts a new one.
func (e *Engine) Shutdown(restart bool) error {
	e.mu.Lock()
	c := e.child
	e.child = nil
	e.mu.Unlock()
	if c == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err := c.client.Call(ctx, client.Control, "shutdown_request", map[string]any{"restart": false}, nil)
	c.close()
	if errors.Is(err, context.DeadlineExceeded) {
		return nil // it was killed instead
	}
	return err
}
