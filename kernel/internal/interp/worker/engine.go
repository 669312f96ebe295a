package worker

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/tensornb/tensornb/kernel/internal/front"
	"github.com/tensornb/tensornb/kernel/internal/interp"
	"github.com/tensornb/tensornb/kernel/internal/interp/cellcmd"
	"github.com/tensornb/tensornb/kernel/internal/procs"
)

// Worker file descriptors: Serve's arguments in the worker process.
const (
	EventsFD   = 3
	CrashFD    = 4
	RequestsFD = 5
)

var _ front.Engine = (*Engine)(nil)

// An Engine runs cells in a worker process (see Serve), started on first
// use and again after it dies or is interrupted. The worker keeps the
// session's state. The Engine records the code of every cell that ran to
// its end without an error; when a worker is replaced (an interrupt, a
// crash), the next cell first replays those cells in a new worker,
// silently and in order, so that what they declared is there again (but
// not their shell lines, whose effects outlive a worker), and
// says on stderr which cells it replayed, or where and why the replay
// stopped.
//
// The replay runs with the next cell rather than right after the
// interrupt, so that an interrupt of that cell stops the replay too, and
// nothing runs while the kernel says it is idle. A cell that ended the
// worker did not complete, so it is never replayed; a cell that failed is
// not replayed either, even if it changed state before it failed; nor is
// a cell that started a goroutine whose panic ended the worker, which
// the crash report names by the goroutine's label (see cellLabel).
type Engine struct {
	// Command is the worker's command line: a program whose main calls
	// Serve (tensornb worker DIR). Env is added to its environment.
	Command []string
	Env     []string
	// Dir is the worker's working directory (the engine's own if "").
	// Prepare, if set, adjusts the worker's command last, before it
	// starts: tensornb grade cuts its network off there.
	Dir     string
	Prepare func(*exec.Cmd)
	// Ended, if set, is called with a worker's command once the worker
	// has ended, however it ended (killed on an interrupt or a shutdown,
	// crashed, exited), before the engine starts another or Shutdown
	// returns: tensornb grade removes the worker's container there,
	// which would outlive its killed podman client.
	Ended func(*exec.Cmd)
	// ReplayLimit bounds how long a replay may take (DefaultReplayLimit if
	// zero): a replay that takes longer is stopped, and the cell it was for
	// runs in an empty interpreter.
	ReplayLimit time.Duration

	mu       sync.Mutex
	displays interp.Displays // the display ids shown so far
	w        *workerProc
	lost     string          // why the last worker ended, for the next cell to say
	culprit  int             // the order of the cell whose goroutine ended it, or 0
	cells    []cell          // the cells that completed, to replay in a new worker
	order    int             // cells run so far
	names    map[string]bool // what the worker's cells have declared
	closed   bool
	// pending are outputs the worker sent between cells (a goroutine an
	// earlier cell started, or the note of a replay a completion needed),
	// read while answering a completion; the next cell shows them first.
	pending []event

	// exchange is held while a request is out to the worker and its
	// events are read, one request at a time.
	exchange sync.Mutex
}

// DefaultReplayLimit is how long a replay may take unless the Engine says.
const DefaultReplayLimit = time.Minute

// A cell is a cell that completed, to replay: its code, and its execution
// count if the front gave one, or else its place in the order cells ran.
type cell struct {
	code    string
	count   int
	order   int
	gradeID string
}

// A workerProc is one running worker.
type workerProc struct {
	cmd     *exec.Cmd
	tag     procs.Tag // the worker's and what its cells start
	in      io.WriteCloser
	events  *bufio.Scanner
	eventsR *os.File      // the read ends of its events and crash pipes,
	crashR  *os.File      // closed when it is stopped
	stderr  *tail         // what it wrote to file descriptor 2 (see Serve)
	crashed *bytes.Buffer // what the Go runtime reported when it died
	exited  chan struct{} // closed once it ended and both were read
	// oomKills is what oomKills said when it started.
	oomKills int64
}

// NewEngine returns an engine whose workers run command.
func NewEngine(command ...string) *Engine {
	return &Engine{Command: command}
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
	cmd.Dir = e.Dir
	tag := procs.New()
	tag.Prepare(cmd)
	if e.Prepare != nil {
		e.Prepare(cmd)
	}
	w := &workerProc{cmd: cmd, tag: tag, in: in, eventsR: eventsR, crashR: crashR, stderr: &tail{}, crashed: &bytes.Buffer{}, exited: make(chan struct{}), oomKills: oomKills()}
	cmd.Stderr = w.stderr
	// A process a cell started with the worker's file descriptor 2 may
	// outlive it: Wait does not wait for it.
	cmd.WaitDelay = 100 * time.Millisecond
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
		if e.Ended != nil {
			e.Ended(cmd)
		}
		// What its cells started ends with it, however it ended: an
		// interrupt, a shutdown, a crash.
		tag.Kill(nil)
		<-copied
		close(w.exited)
	}()
	return w, nil
}

// Start starts a worker now rather than with the first cell.
func (e *Engine) Start() { _, _, _ = e.running() }

// Ready starts a worker if none is running and returns once it is ready
// to run a cell at once, or an error if it cannot start or ctx ends
// first. It lets a caller that times each cell, as grading does, leave
// the worker's start out of the first cell's time.
func (e *Engine) Ready(ctx context.Context) error {
	_, err := e.ask(ctx, request{Type: "ready"})
	return err
}

// running returns the live worker, starting one if needed. If an earlier
// worker ended, it also returns why and the cells to replay in the new
// one; the engine forgets them until they are replayed.
func (e *Engine) running() (*workerProc, *replay, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return nil, nil, fmt.Errorf("the engine was shut down")
	}
	if e.w != nil {
		select {
		case <-e.w.exited:
			// It ended between cells: a goroutine's panic, or memory.
			w := e.w
			e.w = nil
			w.eventsR.Close()
			w.crashR.Close()
			e.lose(w, 0)
		default:
			return e.w, nil, nil
		}
	}
	w, err := e.start()
	if err != nil {
		return nil, nil, err
	}
	e.w = w
	e.names = nil
	if e.lost == "" {
		return w, nil, nil
	}
	r := &replay{why: e.lost}
	for _, c := range e.cells {
		if c.order == e.culprit {
			r.skipped = append(r.skipped, c)
		} else {
			r.cells = append(r.cells, c)
		}
	}
	e.lost, e.culprit = "", 0
	e.cells = nil
	return w, r, nil
}

// A replay is what a new worker has to rebuild: why the last one ended,
// and the cells that had completed in it, less those skipped: the cell
// whose goroutine ended it, which would start the goroutine again.
type replay struct {
	why     string
	cells   []cell
	skipped []cell
}

// lose records why w ended by itself, for the next cell to say; running
// is the order of the cell it was running, or 0. If a goroutine that an
// earlier cell started ended it, that cell is not replayed. e.mu is held.
func (e *Engine) lose(w *workerProc, running int) {
	if line, ok := e.memoryEnd(w); ok {
		e.lost = fmt.Sprintf(LostMemoryBetween, line)
		if running > 0 {
			e.lost = fmt.Sprintf(LostMemoryRunning, line)
		}
		return
	}
	report := w.report()
	first := crashLine(report)
	if n, ok := goroutineCell(report); ok && n != running {
		for _, c := range e.cells {
			if c.order == n {
				e.lost = fmt.Sprintf("a goroutine that %s started ended the interpreter (%s)", names([]cell{c}), first)
				e.culprit = n
				return
			}
		}
	}
	switch {
	case running > 0:
		e.lost = LostRunning
	case first != "":
		e.lost = fmt.Sprintf(LostBetweenReport, first)
	default:
		e.lost = LostBetween
	}
}

// goroutineCell returns the order of the cell that started the goroutine
// a crash report is about (the first it shows), from its label cellLabel.
func goroutineCell(report string) (int, bool) {
	for _, line := range strings.Split(report, "\n") {
		if strings.HasPrefix(line, "goroutine ") {
			m := cellLabelText.FindStringSubmatch(line)
			if m == nil {
				return 0, false
			}
			n, err := strconv.Atoi(m[1])
			return n, err == nil && n > 0
		}
	}
	return 0, false
}

// cellLabelText is how a goroutine's header in a crash report shows the
// label cellLabel.
var cellLabelText = regexp.MustCompile(`labels:\{.*"` + cellLabel + `": "(\d+)"`)

// crashLine is the first line of a crash report, which says what failed,
// as Go would say it of a program: without the runtime's note that the
// interpreter recovered the panic and panicked again, and a runtime
// error in Go's words.
func crashLine(report string) string {
	first, _, _ := strings.Cut(report, "\n")
	first = strings.TrimSuffix(strings.TrimSuffix(first, " [recovered, repanicked]"), " [recovered]")
	if msg, ok := strings.CutPrefix(first, "panic: "); ok {
		first = "panic: " + interp.GoWords(msg)
	}
	return first
}

// stop kills a worker and waits for its end.
func (e *Engine) stop(w *workerProc) {
	_ = w.cmd.Process.Kill()
	e.ended(w)
}

// ended closes what reads from a worker that was killed or ended, once it
// has, and forgets it.
func (e *Engine) ended(w *workerProc) {
	// A process the cell started may still hold the pipes' write ends.
	w.eventsR.Close()
	w.crashR.Close()
	<-w.exited
	e.mu.Lock()
	if e.w == w {
		e.w = nil
	}
	e.mu.Unlock()
}

// Execute runs a cell in the worker, after replaying the earlier cells if
// the worker is new.
func (e *Engine) Execute(ctx context.Context, code string, out front.Output) error {
	e.exchange.Lock()
	defer e.exchange.Unlock()
	e.mu.Lock()
	pending := e.pending
	e.pending = nil
	e.mu.Unlock()
	for _, ev := range pending {
		e.deliver(ev, out)
	}
	w, err := e.ready(ctx, out)
	if err != nil {
		return err
	}
	e.mu.Lock()
	e.order++
	c := cell{code: code, order: e.order, gradeID: front.GradeID(ctx)}
	e.mu.Unlock()
	if n, ok := front.ExecutionCount(ctx); ok {
		c.count = n
	}
	how, err := e.run(ctx, w, c.request(), out)
	e.mu.Lock()
	defer e.mu.Unlock()
	switch how {
	case completed:
		if err == nil {
			e.cells = append(e.cells, c)
		}
		return err
	case died:
		e.lose(w, c.order)
		var ce *front.CellError
		for _, earlier := range e.cells {
			if earlier.order == e.culprit && errors.As(err, &ce) {
				ce.Traceback = append(ce.Traceback, fmt.Sprintf("The goroutine that failed was started by %s, which the next cell does not replay.", names([]cell{earlier})))
			}
		}
		return err
	}
	// yaegi v0.16.1 can resume a cancelled cell when the next one starts:
	// the only safe stop is the worker's end.
	e.lost = LostInterrupt
	return front.InterruptedBecause(CellInterrupted)
}

// How a cell's run on a worker ended.
type outcome int

const (
	completed   outcome = iota // the cell ran to its end, with or without an error
	died                       // the worker ended while running it
	interrupted                // ctx was done first, and the worker was killed
)

// request is the request that runs c.
func (c cell) request() request {
	return request{Code: c.code, Cell: c.order, Count: c.count, GradeID: c.gradeID}
}

// run sends w req, a cell to run or a comm message to deliver, and sends
// what it produces to out. If it completed, err is its error; if the
// worker died, err says how.
func (e *Engine) run(ctx context.Context, w *workerProc, req request, out front.Output) (how outcome, err error) {
	if err := w.send(req); err != nil {
		e.stop(w)
		return died, e.died(w)
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
			case "stream", "display", "comm":
				e.deliver(ev, out)
			case "input":
				if err := w.send(answerInput(ctx, out)); err != nil {
					continue // the worker ended: the events end too
				}
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
			return completed, r.err
		}
		<-w.exited
		e.ended(w)
		return died, e.died(w)
	case <-ctx.Done():
		e.stop(w)
		<-done
		return interrupted, nil
	}
}

// answerInput asks out for the line a running cell reads, and returns the
// request that answers the worker's input event with it, or with why
// there is none. An interrupt (ctx done) ends the wait; the worker is
// being stopped then, and the answer goes nowhere.
func answerInput(ctx context.Context, out front.Output) request {
	line, err := out.Input(ctx, "", false)
	switch {
	case errors.Is(err, front.ErrStdinNotImplemented):
		return request{Type: "input", Name: front.StdinNotImplemented, Error: err.Error()}
	case err != nil:
		return request{Type: "input", Name: "InputError", Error: err.Error()}
	}
	return request{Type: "input", Value: line}
}

// Declared reports whether the cells run so far in the current worker
// declared name: a variable, constant, type or function.
func (e *Engine) Declared(name string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.names[name]
}

// deliver passes a stream, display or comm event on to out.
//
// A display with an id, display.Update's, follows this rule: the first
// display of an id creates the output, and each later one, in that cell
// or a later one, replaces what it shows, in place. The engine keeps the
// ids shown so far, for as long as it lives, to tell which is which (in
// displays, which interp.Local keeps too).
func (e *Engine) deliver(ev event, out front.Output) {
	switch ev.Type {
	case "stream":
		out.Stream(ev.Name, ev.Text)
	case "display":
		e.displays.Show(out, ev.Data, ev.ID, ev.Result)
	case "comm":
		out.Comm(*ev.Comm)
	}
}

// Comm delivers a comm message from the front end to the widgets of the
// worker's session, whose callbacks run then, between cells; what they
// print, show and send goes to out. Without a worker, or with one that is
// not the one that made the widgets (it was replaced since), the message
// has nobody to go to: the front end is told so, on stderr.
func (e *Engine) Comm(ctx context.Context, m front.CommMessage, out front.Output) error {
	e.exchange.Lock()
	defer e.exchange.Unlock()
	e.mu.Lock()
	w := e.w
	e.mu.Unlock()
	alive := w != nil
	if alive {
		select {
		case <-w.exited:
			alive = false
		default:
		}
	}
	if !alive {
		err := fmt.Errorf("%s for a widget of an interpreter that has ended: its widgets are gone; run the cell that made it again", m.Type)
		out.Stream("stderr", "tensornb: "+err.Error()+"\n")
		return err
	}
	how, err := e.run(ctx, w, request{Type: "comm", Comm: &m}, out)
	switch how {
	case completed:
		var ce *front.CellError
		if errors.As(err, &ce) {
			out.Stream("stderr", ce.Name+": "+ce.Value+"\n")
		}
		return err
	case died:
		e.mu.Lock()
		e.lose(w, 0)
		e.mu.Unlock()
		out.Stream("stderr", "tensornb: a widget's callback ended the interpreter: "+err.Error()+"\n")
		return err
	}
	e.mu.Lock()
	e.lost = LostInterrupt
	e.mu.Unlock()
	return front.InterruptedBecause(CellInterrupted)
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
// event. Outputs that arrive meanwhile wait for the next cell, and so does
// the note of a replay, if the worker had to be replaced first (the
// session a completion asks must be the one the cells built). If ctx ends
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
		// The replay is not bounded by ctx, a completion's short wait: cut
		// short, it would lose the cells it had not replayed yet.
		w, err := e.ready(context.Background(), held{e: e})
		if err != nil {
			answer <- result{err: err}
			return
		}
		if err := w.send(req); err != nil {
			e.stop(w)
			e.mu.Lock()
			e.lose(w, 0)
			e.mu.Unlock()
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
		e.ended(w)
		e.mu.Lock()
		e.lose(w, 0)
		e.mu.Unlock()
		answer <- result{err: fmt.Errorf("the interpreter stopped")}
	}()
	select {
	case r := <-answer:
		return r.done, r.err
	case <-ctx.Done():
		return event{}, ctx.Err()
	}
}

// held is the Output of a replay that a completion needed: its notes wait
// for the next cell.
type held struct {
	front.Discard
	e *Engine
}

func (h held) Stream(name, text string) {
	h.e.mu.Lock()
	h.e.pending = append(h.e.pending, event{Type: "stream", Name: name, Text: text})
	h.e.mu.Unlock()
}

// ready returns the worker for the next cell: the live one, or a new one
// in which it has replayed the cells that had completed in the last, and
// said so on out's stderr. It returns an error if no worker can start, or
// if ctx is done during the replay.
func (e *Engine) ready(ctx context.Context, out front.Output) (*workerProc, error) {
	w, r, err := e.running()
	if err != nil {
		return nil, front.EngineError(err)
	}
	if r == nil {
		return w, nil
	}
	switch {
	case len(r.cells) == 0 && len(r.skipped) > 0:
		out.Stream("stderr", fmt.Sprintf("tensornb: %s; the interpreter was restarted, and nothing was replayed (not %s, which would start the goroutine again).\n", r.why, names(r.skipped)))
		return w, nil
	case len(r.cells) == 0:
		out.Stream("stderr", fmt.Sprintf(NothingToReplay, r.why))
		return w, nil
	}
	not := ""
	if len(r.skipped) > 0 {
		not = fmt.Sprintf(" (not %s, which would start the goroutine again)", names(r.skipped))
	}
	out.Stream("stderr", fmt.Sprintf(Replaying, r.why, names(r.cells), not))
	limit := e.ReplayLimit
	if limit == 0 {
		limit = DefaultReplayLimit
	}
	replayCtx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	start := time.Now()
	slowest, slowestTime := 0, time.Duration(0)
	for i, c := range r.cells {
		cellStart := time.Now()
		req := c.request()
		req.Code = cellcmd.WithoutShell(req.Code) // what they did outlived the worker
		how, err := e.run(replayCtx, w, req, front.Discard{})
		if d := time.Since(cellStart); d > slowestTime {
			slowest, slowestTime = i, d
		}
		switch {
		case how == completed && err == nil:
			e.mu.Lock()
			e.cells = append(e.cells, c)
			e.mu.Unlock()
			continue
		case how == completed:
			out.Stream("stderr", fmt.Sprintf(ReplayFailed, names(r.cells[i:i+1]), err, names(r.cells[i:])))
			return w, nil
		case how == died:
			out.Stream("stderr", fmt.Sprintf(ReplayEnded, names(r.cells[i:i+1]), err))
		case ctx.Err() != nil:
			out.Stream("stderr", fmt.Sprintf(ReplayInterruptedDuring, names(r.cells[i:i+1])))
			e.forget()
			return nil, front.InterruptedBecause(ReplayInterrupted)
		default:
			out.Stream("stderr", fmt.Sprintf(ReplayTooLong, limit, names(r.cells[i:i+1])))
		}
		// The worker ended: this cell runs in a new, empty one.
		e.forget()
		empty, _, err := e.running()
		if err != nil {
			return nil, front.EngineError(err)
		}
		return empty, nil
	}
	took := time.Since(start)
	note := fmt.Sprintf(ReplayDone, seconds(took, 2))
	if took > 2*time.Second && slowestTime > took/2 {
		note = fmt.Sprintf(ReplayDoneSlowest, seconds(took, 1), seconds(slowestTime, 1), names(r.cells[slowest:slowest+1]))
	}
	out.Stream("stderr", note)
	return w, nil
}

// forget drops the cells recorded so far: they are not replayed.
func (e *Engine) forget() {
	e.mu.Lock()
	e.cells = nil
	e.lost = ""
	e.mu.Unlock()
}

// seconds is d in seconds with digits decimals, for a replay's notes.
func seconds(d time.Duration, digits int) string {
	return strconv.FormatFloat(d.Seconds(), 'f', digits, 64)
}

// names names cells for a note: In [1]–[3], [5] by execution count, or
// cells 1, 3–5 by the order they ran in when the front gave no count; a
// run of three or more is a range.
func names(cells []cell) string {
	var b strings.Builder
	for i := 0; i < len(cells); {
		// A run of consecutive numbers of one kind.
		counted := cells[i].count > 0
		number := func(c cell) int {
			if counted {
				return c.count
			}
			return c.order
		}
		j := i + 1
		for j < len(cells) && (cells[j].count > 0) == counted && number(cells[j]) == number(cells[j-1])+1 {
			j++
		}
		if i > 0 {
			b.WriteString(", ")
		}
		sameKind := i > 0 && (cells[i-1].count > 0) == counted
		switch {
		case counted && !sameKind:
			b.WriteString("In ")
		case !counted && !sameKind:
			k := i + 1
			for k < len(cells) && cells[k].count == 0 {
				k++
			}
			if k-i > 1 {
				b.WriteString("cells ")
			} else {
				b.WriteString("cell ")
			}
		}
		format := "%d"
		if counted {
			format = "[%d]"
		}
		fmt.Fprintf(&b, format, number(cells[i]))
		switch {
		case j-i > 2:
			fmt.Fprintf(&b, "–"+format, number(cells[j-1]))
		case j-i == 2:
			fmt.Fprintf(&b, ", "+format, number(cells[j-1]))
		}
		i = j
	}
	return b.String()
}

// send writes a request to the worker, as a line of JSON.
func (w *workerProc) send(req request) error {
	enc := json.NewEncoder(w.in)
	enc.SetEscapeHTML(false) // a cell's < and > as they are, not six bytes each
	return enc.Encode(req)
}

// report is what the Go runtime and the worker wrote when it ended: the
// crash report, after the line that says what failed if the runtime
// wrote it to file descriptor 2 only, before the report began ("fatal
// error: out of memory"); or what it wrote there if there is no crash
// report.
func (w *workerProc) report() string {
	crash := strings.TrimSpace(w.crashed.String())
	rest := strings.TrimSpace(w.stderr.String())
	if crash == "" {
		return rest
	}
	if i := strings.LastIndex(rest, "fatal error: "); i >= 0 && !strings.HasPrefix(crash, "fatal error: ") {
		line, _, _ := strings.Cut(rest[i:], "\n")
		return line + "\n" + crash
	}
	return crash
}

// A tail keeps the last 64 KB written to it.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - 64<<10; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

// died is the error of a cell whose worker ended: MemoryError if it ran
// out of memory, in a line; else the Go runtime's report (a panic in a
// goroutine, a fatal error), or the exit status.
func (e *Engine) died(w *workerProc) error {
	<-w.exited
	if line, ok := e.memoryEnd(w); ok {
		value := fmt.Sprintf(CellRanOut, line)
		return &front.CellError{Name: MemoryError, Value: value, Traceback: []string{MemoryError + ": " + value, RestartNote}}
	}
	report := w.report()
	status := "the interpreter ended"
	if w.cmd.ProcessState != nil {
		status = "the interpreter ended: " + w.cmd.ProcessState.String()
	}
	lines := []string{InterpreterDied + ": " + status}
	value := status
	if report != "" {
		value = crashLine(report)
		lines = append(lines, value)
		lines = append(lines, strings.Split(report, "\n")[1:]...)
	}
	lines = append(lines, RestartNote)
	return &front.CellError{Name: InterpreterDied, Value: value, Traceback: lines}
}

// memoryEnd reports whether w, which ended, ran out of memory, and says
// how in a line: "out of memory (limit 256 MiB)" if it passed its limit,
// or, if the system had no more to give it first (the Go runtime's "fatal
// error: out of memory") or its out-of-memory killer ended the worker,
// that, and the limit.
func (e *Engine) memoryEnd(w *workerProc) (string, bool) {
	report := w.report()
	first, _, _ := strings.Cut(report, "\n")
	switch {
	case strings.HasPrefix(first, memoryReport):
		return first, true
	case strings.HasPrefix(first, "fatal error: ") && (strings.Contains(first, "out of memory") || strings.Contains(first, "cannot allocate memory")):
		return fmt.Sprintf("out of memory (the system had no more to give; the interpreter's limit is %s)", sizeText(e.memoryLimit())), true
	}
	if ps := w.cmd.ProcessState; ps != nil && w.oomKills >= 0 && oomKills() > w.oomKills {
		if status, ok := ps.Sys().(syscall.WaitStatus); ok && status.Signaled() && status.Signal() == syscall.SIGKILL {
			return fmt.Sprintf("out of memory (the system's out-of-memory killer ended the interpreter; its limit is %s)", sizeText(e.memoryLimit())), true
		}
	}
	return "", false
}

// memoryLimit is the memory limit of the engine's workers.
func (e *Engine) memoryLimit() uint64 {
	return memoryLimit(func(key string) string {
		for i := len(e.Env) - 1; i >= 0; i-- {
			if v, ok := strings.CutPrefix(e.Env[i], key+"="); ok {
				return v
			}
		}
		return os.Getenv(key)
	})
}

// Shutdown stops the worker; a later cell starts a new one unless the
// engine is shut down for good. The new worker starts empty: nothing is
// replayed.
func (e *Engine) Shutdown(restart bool) error {
	e.mu.Lock()
	w := e.w
	e.w = nil
	e.closed = !restart
	e.cells = nil
	e.lost = ""
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
