package interp

import (
	"context"
	"errors"
	"io"
	"sync"

	"github.com/tensornb/tensornb/internal/displaysink"
	"github.com/tensornb/tensornb/internal/widgetcomm"
	"github.com/tensornb/tensornb/kernel/internal/front"
	"github.com/tensornb/tensornb/kernel/internal/textpipe"
)

var _ front.CommEngine = (*Local)(nil)

// A Local runs cells in this process, in one Session: the engine of a
// host that cannot start processes, as a browser's Web Worker cannot.
// Where Engine's worker process stands between a cell and the kernel,
// nothing stands here: a panic in a goroutine a cell started, or memory
// exhausted, ends the host, and a goroutine that never returns goes on
// running after an interrupt (the interrupted cell's session is
// dropped, as Engine drops its worker, but nothing replays the cells).
//
// A Local takes over display's sink and widget's transport: a process
// has one of each. The widgets' comm messages go out as the running
// cell's (or, between cells, the next cell's), and those of the front end
// come in through Comm, as Engine's do. What the process
// writes to its standard output and error reaches the cells' outputs only
// through Stdout and Stderr, which the host makes them (interpreted
// fmt.Print calls write to Stdout directly).
type Local struct {
	host     Host
	stdout   *streamWriter
	stderr   *streamWriter
	displays Displays

	// exchange is held while a cell, a completion or an inspection runs
	// on the session: one at a time.
	exchange sync.Mutex
	session  *Session
	closed   bool

	mu  sync.Mutex
	out front.Output    // the running cell's, or nil between cells
	ctx context.Context // the running cell's
	// pending are outputs made between cells (by a goroutine an earlier
	// cell started): the next cell shows them first.
	pending []func(front.Output)
}

// NewLocal returns an engine that runs cells in this process, in a
// session of host.
func NewLocal(host Host) *Local {
	l := &Local{host: host}
	l.stdout = &streamWriter{l: l, name: "stdout"}
	l.stderr = &streamWriter{l: l, name: "stderr"}
	displaysink.Set(func(b map[string]string, id string, result bool) error {
		l.emit(func(out front.Output) { l.displays.Show(out, b, id, result) })
		return nil
	})
	widgetcomm.SetTransport(func(m widgetcomm.Message) error {
		c := FromWidgets(m)
		l.emit(func(out front.Output) { out.Comm(c) })
		return nil
	})
	return l
}

// Stdout is the running cell's standard output: what is written to it
// is the cell's stdout stream, in whole characters.
func (l *Local) Stdout() io.Writer { return l.stdout }

// Stderr is the running cell's standard error, as Stdout is its output.
func (l *Local) Stderr() io.Writer { return l.stderr }

// Start makes the session now rather than with the first cell, and
// imports, in the background, the packages cells use most.
func (l *Local) Start() {
	l.exchange.Lock()
	defer l.exchange.Unlock()
	_, _ = l.ready()
}

// ready returns the session, making it if needed. l.exchange is held.
func (l *Local) ready() (*Session, error) {
	if l.closed {
		return nil, errShutDown
	}
	if l.session == nil {
		s, err := Open(l.host, l.stdout, l.stderr, l.ask)
		if err != nil {
			return nil, err
		}
		s.Warm()
		l.session = s
	}
	return l.session, nil
}

// Warmed waits until the session has imported the packages cells use
// most, which Start sets going in the background; it returns at once if
// there is no session.
func (l *Local) Warmed() {
	l.exchange.Lock()
	s := l.session
	l.exchange.Unlock()
	if s != nil {
		<-s.ready
	}
}

var errShutDown = errors.New("the engine was shut down")

// Execute runs a cell, sending what it produces to out: first what was
// made since the last cell ended, then the cell's own outputs, in the
// order it made them.
func (l *Local) Execute(ctx context.Context, code string, out front.Output) error {
	l.exchange.Lock()
	defer l.exchange.Unlock()
	l.attach(out)
	defer l.detach()
	s, err := l.ready()
	if err != nil {
		return front.EngineError(err)
	}
	l.mu.Lock()
	l.ctx = ctx
	l.mu.Unlock()
	err = s.Run(ctx, code)
	if ctx.Err() != nil {
		// yaegi v0.16.1 can resume a cancelled cell when the next one
		// starts: the session is not safe to run another.
		l.session = nil
		return front.InterruptedBecause("the cell was interrupted; the interpreter was restarted, and what the cells declared is gone: run them again")
	}
	return err
}

// Comm delivers a comm message from the front end to the widgets, whose
// callbacks run then, between cells, as Engine's worker runs them; what
// they print, show and send goes to out. A message the widgets cannot
// take (an unknown comm, a callback that panicked) is reported on out's
// stderr as a WidgetError, which Comm returns.
func (l *Local) Comm(ctx context.Context, m front.CommMessage, out front.Output) error {
	l.exchange.Lock()
	defer l.exchange.Unlock()
	l.attach(out)
	defer l.detach()
	l.mu.Lock()
	l.ctx = ctx
	l.mu.Unlock()
	if err := DeliverComm(m); err != nil {
		l.stdout.flush()
		l.stderr.flush()
		out.Stream("stderr", WidgetError+": "+err.Error()+"\n")
		return &front.CellError{Name: WidgetError, Value: err.Error(), Traceback: []string{WidgetError + ": " + err.Error()}}
	}
	return nil
}

// attach makes out the destination of outputs, after passing on to it
// those made between cells.
func (l *Local) attach(out front.Output) {
	for {
		l.mu.Lock()
		pending := l.pending
		l.pending = nil
		if len(pending) == 0 {
			l.out = out
			l.mu.Unlock()
			return
		}
		l.mu.Unlock()
		for _, show := range pending {
			show(out)
		}
	}
}

// detach ends the cell's outputs: what is made from now on waits for the
// next cell.
func (l *Local) detach() {
	l.stdout.flush()
	l.stderr.flush()
	l.mu.Lock()
	l.out = nil
	l.mu.Unlock()
}

// ask asks the running cell's front end for a line of input, once what
// the cell printed so far is out.
func (l *Local) ask() (string, error) {
	l.stdout.flush()
	l.stderr.flush()
	l.mu.Lock()
	out, ctx := l.out, l.ctx
	l.mu.Unlock()
	if out == nil {
		return "", errNoStdin
	}
	return out.Input(ctx, "", false)
}

// emit passes an output on to the running cell, or keeps it for the next.
func (l *Local) emit(show func(front.Output)) {
	l.mu.Lock()
	out := l.out
	if out == nil {
		l.pending = append(l.pending, show)
	}
	l.mu.Unlock()
	if out != nil {
		show(out)
	}
}

// Complete returns the session's completions at cursor.
func (l *Local) Complete(_ context.Context, code string, cursor int) (front.Completion, error) {
	l.exchange.Lock()
	defer l.exchange.Unlock()
	s, err := l.ready()
	if err != nil {
		return front.Completion{CursorStart: cursor, CursorEnd: cursor}, err
	}
	return s.Complete(code, cursor), nil
}

// Inspect returns what the session knows of the name at cursor.
func (l *Local) Inspect(_ context.Context, code string, cursor, _ int) (map[string]any, bool, error) {
	l.exchange.Lock()
	defer l.exchange.Unlock()
	s, err := l.ready()
	if err != nil {
		return nil, false, err
	}
	data, found := s.Inspect(code, cursor)
	return data, found, nil
}

// Shutdown drops the session; with restart, the next cell runs in a new
// one. Goroutines the cells started go on running: only the host's end
// stops them.
func (l *Local) Shutdown(restart bool) error {
	l.exchange.Lock()
	defer l.exchange.Unlock()
	l.session = nil
	l.closed = !restart
	return nil
}

// A streamWriter passes what is written to it on to the running cell as
// its stream name, in whole characters: a character cut between two
// writes waits for its end.
type streamWriter struct {
	l    *Local
	name string

	mu      sync.Mutex
	partial []byte
}

func (w *streamWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	buf := append(w.partial, p...)
	cut := len(buf) - textpipe.HeldBack(buf)
	text := string(buf[:cut])
	w.partial = append([]byte(nil), buf[cut:]...)
	w.mu.Unlock()
	w.send(text)
	return len(p), nil
}

// flush sends what waits for the end of a character, as it is.
func (w *streamWriter) flush() {
	w.mu.Lock()
	text := string(w.partial)
	w.partial = nil
	w.mu.Unlock()
	w.send(text)
}

func (w *streamWriter) send(text string) {
	if text != "" {
		w.l.emit(func(out front.Output) { out.Stream(w.name, text) })
	}
}
