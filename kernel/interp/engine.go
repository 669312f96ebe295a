package interp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"

	"github.com/tensornb/tensornb/kernel/front"
)

// Worker file descriptors: Serve's arguments in the worker process.
const (
	EventsFD   = 3
	CrashFD    = 4
	RequestsFD = 5
)

// An Engine runs cells in a worker process (see Serve), started on first
// use and again after it dies or is interrupted. The worker keeps the
// session's state; a new worker starts empty, and the first cell it runs
// says so.
type Engine struct {
	// Command is the worker's command line: a program whose main calls
	// Serve (tensornb worker DIR). Env is added to its environment.
	Command []string
	Env     []string

	mu       sync.Mutex
	shownIDs map[string]bool // display ids shown so far
	w        *workerProc
	lost     string // why the last worker ended, for the next cell to say
	closed   bool
	names    map[string]bool // what the worker's cells have declared
	// pending are outputs the worker sent between cells (a goroutine an
	// earlier cell started), read while answering a completion; the next
	// cell shows them first.
	pending []event

	// exchange is held while a request is out to the worker and its
	// events are read, one request at a time.
	exchange sync.Mutex
}

// A workerProc is one running worker.
type workerProc struct {
	cmd     *exec.Cmd
	in      io.WriteCloser
	events  *bufio.Scanner
	eventsR *os.File      // the read ends of its events and crash pipes,
	crashR  *os.File      // closed when it is stopped
	stderr  *bytes.Buffer // what it wrote to stderr before capturing it
	crashed *bytes.Buffer // what the Go runtime reported when it died
	exited  chan struct{} // closed once it ended and both were read
}

// NewEngine returns an engine whose workers run command.
func NewEngine(command ...string) *Engine {
	return &Engine{Command: command, shownIDs: map[string]bool{}}
}

// start launches a worker.
func (e *Engine) start() (*workerProc, error) {
	cmd := exec.Command(e.Command[0], e.Command[1:]...)
	// Requests go on a pipe of their own, so that a cell reading standard
	// input reads nothing (/dev/null) rather than the next request.
	requestsR, in, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	eventsR, eventsW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	crashR, crashW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.ExtraFiles = []*os.File{eventsW, crashW, requestsR} // EventsFD, CrashFD, RequestsFD
	cmd.Env = append(os.Environ(), e.Env...)
	w := &workerProc{cmd: cmd, in: in, eventsR: eventsR, crashR: crashR, stderr: &bytes.Buffer{}, crashed: &bytes.Buffer{}, exited: make(chan struct{})}
	cmd.Stderr = w.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the interpreter (%s): %w", strings.Join(e.Command, " "), err)
	}
	eventsW.Close()
	crashW.Close()
	requestsR.Close()
	w.events = bufio.NewScanner(eventsR)
	w.events.Buffer(make([]byte, 1<<20), 256<<20)
	copied := make(chan struct{})
	go func() {
		_, _ = io.Copy(w.crashed, crashR)
		close(copied)
	}()
	go func() {
		_ = cmd.Wait()
		<-copied
		close(w.exited)
	}()
	return w, nil
}

// Start starts a worker now rather than with the first cell.
func (e *Engine) Start() { _, _ = e.running() }

// running returns the live worker, starting one if needed.
func (e *Engine) running() (*workerProc, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return nil, fmt.Errorf("the engine was shut down")
	}
	if e.w != nil {
		select {
		case <-e.w.exited:
			e.w = nil
		default:
			return e.w, nil
		}
	}
	w, err := e.start()
	if err != nil {
		return nil, err
	}
	e.w = w
	e.names = nil
	return w, nil
}

// lostNote returns, once, the note that says an earlier worker's state
// was lost, or "".
func (e *Engine) lostNote() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.lost == "" {
		return ""
	}
	note := "tensornb: " + e.lost + "; the interpreter was restarted and what earlier cells declared is gone: run them again.\n"
	e.lost = ""
	return note
}

// stop kills a worker and records why, for the next cell.
func (e *Engine) stop(w *workerProc, why string) {
	_ = w.cmd.Process.Kill()
	// A process the cell started may still hold the pipes' write ends.
	w.eventsR.Close()
	w.crashR.Close()
	<-w.exited
	e.mu.Lock()
	if e.w == w {
		e.w = nil
	}
	e.lost = why
	e.mu.Unlock()
}

// Execute runs a cell in the worker.
func (e *Engine) Execute(ctx context.Context, code string, out front.Output) error {
	e.exchange.Lock()
	defer e.exchange.Unlock()
	w, err := e.running()
	if err != nil {
		return &front.CellError{Name: "EngineError", Value: err.Error(), Traceback: []string{err.Error()}}
	}
	if note := e.lostNote(); note != "" {
		out.Stream("stderr", note)
	}
	e.mu.Lock()
	pending := e.pending
	e.pending = nil
	e.mu.Unlock()
	for _, ev := range pending {
		e.deliver(ev, out)
	}
	req, _ := json.Marshal(request{Code: code})
	if _, err := w.in.Write(append(req, '\n')); err != nil {
		e.stop(w, "the interpreter stopped")
		return e.died(w)
	}
	type result struct {
		err  error
		done bool
	}
	done := make(chan result, 1)
	go func() {
		for w.events.Scan() {
			var ev event
			if json.Unmarshal(w.events.Bytes(), &ev) != nil {
				continue
			}
			switch ev.Type {
			case "stream", "display":
				e.deliver(ev, out)
			case "done":
				e.mu.Lock()
				e.names = map[string]bool{}
				for _, n := range ev.Names {
					e.names[n] = true
				}
				e.mu.Unlock()
				if ev.Error != nil {
					done <- result{err: ev.Error, done: true}
				} else {
					done <- result{done: true}
				}
				return
			}
		}
		done <- result{}
	}()
	select {
	case r := <-done:
		if r.done {
			return r.err
		}
		<-w.exited
		w.eventsR.Close()
		w.crashR.Close()
		e.mu.Lock()
		if e.w == w {
			e.w = nil
		}
		e.lost = "the interpreter stopped while running a cell"
		e.mu.Unlock()
		return e.died(w)
	case <-ctx.Done():
		// yaegi v0.16.1 can resume a cancelled cell when the next one
		// starts: the only safe stop is the worker's end.
		e.stop(w, "a cell was interrupted")
		<-done
		ce := front.Interrupted()
		ce.Value = "the cell was interrupted; the interpreter was restarted, so what earlier cells declared is gone"
		ce.Traceback = []string{"Interrupted: " + ce.Value}
		return ce
	}
}

// Declared reports whether the cells run so far in the current worker
// declared name: a variable, constant, type or function.
func (e *Engine) Declared(name string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.names[name]
}

// deliver passes a stream or display event on to out.
func (e *Engine) deliver(ev event, out front.Output) {
	switch ev.Type {
	case "stream":
		out.Stream(ev.Name, ev.Text)
	case "display":
		data := map[string]any{}
		for k, v := range ev.Data {
			data[k] = v
		}
		if ev.Result {
			out.Result(data, map[string]any{})
			return
		}
		// The first display of an id creates it; later ones update it
		// in place.
		e.mu.Lock()
		update := ev.ID != "" && e.shownIDs[ev.ID]
		if ev.ID != "" {
			e.shownIDs[ev.ID] = true
		}
		e.mu.Unlock()
		out.Display(data, map[string]any{}, ev.ID, update)
	}
}

// Complete asks the worker's session for the completions at cursor.
func (e *Engine) Complete(ctx context.Context, code string, cursor int) (front.Completion, error) {
	done, err := e.ask(ctx, request{Type: "complete", Code: code, Cursor: cursor})
	if err != nil || done.Completion == nil {
		return front.Completion{CursorStart: cursor, CursorEnd: cursor}, err
	}
	return *done.Completion, nil
}

// Inspect asks the worker's session what the name at cursor is.
func (e *Engine) Inspect(ctx context.Context, code string, cursor, detail int) (map[string]any, bool, error) {
	done, err := e.ask(ctx, request{Type: "inspect", Code: code, Cursor: cursor})
	if err != nil {
		return nil, false, err
	}
	return done.Inspection, done.Inspection != nil, nil
}

// ask sends the worker a request that runs no code and returns its done
// event. Outputs that arrive meanwhile wait for the next cell. If ctx ends
// first, ask returns, and the answer, when it comes, is dropped.
func (e *Engine) ask(ctx context.Context, req request) (event, error) {
	type result struct {
		done event
		err  error
	}
	answer := make(chan result, 1)
	go func() {
		e.exchange.Lock()
		defer e.exchange.Unlock()
		w, err := e.running()
		if err != nil {
			answer <- result{err: err}
			return
		}
		line, _ := json.Marshal(req)
		if _, err := w.in.Write(append(line, '\n')); err != nil {
			e.stop(w, "the interpreter stopped")
			answer <- result{err: err}
			return
		}
		for w.events.Scan() {
			var ev event
			if json.Unmarshal(w.events.Bytes(), &ev) != nil {
				continue
			}
			if ev.Type == "done" {
				answer <- result{done: ev}
				return
			}
			e.mu.Lock()
			e.pending = append(e.pending, ev)
			e.mu.Unlock()
		}
		e.stop(w, "the interpreter stopped")
		answer <- result{err: fmt.Errorf("the interpreter stopped")}
	}()
	select {
	case r := <-answer:
		return r.done, r.err
	case <-ctx.Done():
		return event{}, ctx.Err()
	}
}

// died is the error of a cell whose worker ended: the Go runtime's report
// (a panic in a goroutine, memory exhausted), or the exit status.
func (e *Engine) died(w *workerProc) error {
	<-w.exited
	report := strings.TrimSpace(w.crashed.String() + "\n" + w.stderr.String())
	status := "the interpreter ended"
	if w.cmd.ProcessState != nil {
		status = "the interpreter ended: " + w.cmd.ProcessState.String()
	}
	lines := []string{"InterpreterDied: " + status}
	value := status
	if report != "" {
		first, _, _ := strings.Cut(report, "\n")
		value = first
		lines = append(lines, strings.Split(report, "\n")...)
	}
	lines = append(lines, "The next cell starts a new interpreter; what earlier cells declared is gone.")
	return &front.CellError{Name: "InterpreterDied", Value: value, Traceback: lines}
}

// Shutdown stops the worker; a later cell starts a new one unless the
// engine is shut down for good.
func (e *Engine) Shutdown(restart bool) error {
	e.mu.Lock()
	w := e.w
	e.w = nil
	e.closed = !restart
	e.mu.Unlock()
	if w != nil {
		_ = w.in.Close()
		_ = w.cmd.Process.Kill()
		w.eventsR.Close()
		w.crashR.Close()
		<-w.exited
	}
	return nil
}
