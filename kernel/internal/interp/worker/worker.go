package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"

	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/internal/displaysink"
	"github.com/tensornb/tensornb/internal/gradeseed"
	"github.com/tensornb/tensornb/internal/widgetcomm"
	"github.com/tensornb/tensornb/kernel/internal/front"
	"github.com/tensornb/tensornb/kernel/internal/interp"
)

// The worker is the process that interprets cells, so that whatever a
// cell does to it (a panic in a goroutine, memory exhausted, a crash)
// ends the worker and not the kernel. It reads one request per line from
// the requests file (RequestsFD; its standard input is empty) and writes
// events, one JSON object per line, to the
// events file, in the order the cell produced them: the cell's standard
// output and error (captured from file descriptor 1 and os.Stderr, so
// compiled code's prints are caught too), its displays and result, then
// done.

// A request asks the worker to run a cell, or, with Type "complete" or
// "inspect", for the completions or the inspection at Cursor (a rune
// offset) in Code. With Type "input" it answers the running cell's input
// event: the line typed (Value), or why there is none (Error, and the
// error's Name). With Type "comm" it delivers a comm message from the
// front end to the session's widgets, whose callbacks run then. With Type
// "ready" it runs nothing and answers once the session is ready for its
// first cell.
type request struct {
	Type   string `json:"type,omitempty"`
	Code   string `json:"code,omitempty"`
	Cursor int    `json:"cursor,omitempty"`
	Value  string `json:"value,omitempty"`
	Error  string `json:"error,omitempty"`
	Name   string `json:"name,omitempty"`
	// Comm is the message of a "comm" request.
	Comm *front.CommMessage `json:"comm,omitempty"`
	// Cell is the engine's number for the cell: the goroutines it starts
	// carry it, as the label cellLabel, into a crash report.
	Cell int `json:"cell,omitempty"`
	// Count is the cell's execution count, if the front gave it one: a
	// panic's frames name the cells by it.
	Count int `json:"count,omitempty"`
	// GradeID is the grade_id of a test cell tensornb grade runs, from
	// which check.Agree seeds its inputs (package gradeseed).
	GradeID string `json:"grade_id,omitempty"`
}

// cellLabel is the goroutine label (runtime/pprof) that holds the number
// of the cell whose code started a goroutine.
const cellLabel = "tensornb-cell"

// An event is something a running cell produced. "input" asks for a line
// of the cell's standard input: the engine answers with an input request.
// "comm" is a message of the session's widgets to the front end.
type event struct {
	Type string `json:"type"` // "stream", "display", "input", "comm", "done"
	// comm
	Comm *front.CommMessage `json:"comm,omitempty"`
	// stream
	Name string `json:"name,omitempty"`
	Text string `json:"text,omitempty"`
	// display
	Data   display.Bundle `json:"data,omitempty"`
	ID     string         `json:"id,omitempty"`
	Result bool           `json:"result,omitempty"`
	// done
	Error *front.CellError `json:"error,omitempty"`
	Names []string         `json:"names,omitempty"` // what the session has declared
	// done, for a completion or an inspection (nil if nothing was found)
	Completion *front.Completion `json:"completion,omitempty"`
	Inspection map[string]any    `json:"inspection,omitempty"`
}

// events writes events, one at a time.
type events struct {
	mu  sync.Mutex
	enc *json.Encoder
}

func (e *events) send(ev event) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.enc.Encode(ev)
}

// Serve runs a worker: dir is a directory of the tensornb module (for the
// type checker), requests come from in, events go to out, and crash
// reports (a panic in a goroutine, a fatal error) to crash, which outlives
// the process. Each option adjusts the session before its first cell
// (Sandboxed).
func Serve(dir string, in, out, crash *os.File, options ...func(*interp.Session)) (err error) {
	closeOnExec(in, out, crash)
	defer func() {
		// os.Stderr may be a cell's by then: the engine reads the
		// reason in the crash report.
		if err != nil && crash != nil {
			fmt.Fprintf(crash, "tensornb worker: %v\n", err)
		}
	}()
	if crash != nil {
		_ = debug.SetCrashOutput(crash, debug.CrashOptions{})
	}
	// A crash report shows the labels of its goroutines, among them the
	// number of the cell that started the one that failed.
	_ = os.Setenv("GODEBUG", strings.TrimPrefix(os.Getenv("GODEBUG")+",tracebacklabels=1", ","))
	// Under memory pressure the kernel's OOM killer takes the worker
	// first, not the kernel or Jupyter; the garbage collector works to
	// keep the worker under its limit, and the worker ends itself when
	// its memory passes it.
	_ = os.WriteFile("/proc/self/oom_score_adj", []byte("1000"), 0)
	limit := memoryLimit(os.Getenv)
	debug.SetMemoryLimit(int64(min(limit, math.MaxInt64)))
	watch := newMemoryWatch()
	go watchMemory(limit, crash, watch)

	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false) // an SVG's < and > as they are, not six bytes each
	ev := &events{enc: enc}
	streams, err := captureStreams(ev)
	if err != nil {
		return err
	}
	displaysink.Set(func(b map[string]string, id string, result bool) error {
		streams.sync()
		return ev.send(event{Type: "display", Data: b, ID: id, Result: result})
	})
	widgetcomm.SetTransport(func(m widgetcomm.Message) error {
		streams.sync()
		c := interp.FromWidgets(m)
		return ev.send(event{Type: "comm", Comm: &c})
	})
	// Requests are read as a stream of JSON values, so that a cell of any
	// size arrives whole; the answers to a running cell's input events go
	// to its standard input, the others to the loop below.
	requests, inputs, readErr := readRequests(in)
	ask := func() (string, error) {
		streams.sync()
		if err := ev.send(event{Type: "input"}); err != nil {
			return "", err
		}
		answer, ok := <-inputs
		switch {
		case !ok:
			return "", errors.New("the engine stopped")
		case answer.Name == front.StdinNotImplemented:
			return "", front.ErrStdinNotImplemented
		case answer.Error != "":
			return "", errors.New(answer.Error)
		}
		return answer.Value, nil
	}
	session, err := NewSession(dir, os.Stderr, ask)
	if err != nil {
		return err
	}
	for _, option := range options {
		option(session)
	}
	session.Warm()
	for {
		watch.Busy(false)
		req, ok := <-requests
		if !ok {
			break
		}
		watch.Busy(true)
		switch req.Type {
		case "ready":
			session.Ready()
			if err := ev.send(event{Type: "done"}); err != nil {
				return err
			}
			continue
		case "complete":
			c := session.Complete(req.Code, req.Cursor)
			if err := ev.send(event{Type: "done", Completion: &c}); err != nil {
				return err
			}
			continue
		case "inspect":
			data, _ := session.Inspect(req.Code, req.Cursor)
			if err := ev.send(event{Type: "done", Inspection: data}); err != nil {
				return err
			}
			continue
		case "comm":
			err := interp.DeliverComm(*req.Comm)
			streams.sync()
			done := event{Type: "done", Names: session.Names()}
			if err != nil {
				done.Error = &front.CellError{Name: interp.WidgetError, Value: err.Error()}
			}
			if err := ev.send(done); err != nil {
				return err
			}
			continue
		}
		var runErr error
		ctx := context.Background()
		if req.Count > 0 {
			ctx = front.WithExecutionCount(ctx, req.Count)
		}
		gradeseed.Set(req.GradeID)
		pprof.Do(ctx, pprof.Labels(cellLabel, strconv.Itoa(req.Cell)), func(ctx context.Context) {
			runErr = session.Run(ctx, req.Code)
		})
		gradeseed.Set("")
		streams.sync()
		done := event{Type: "done", Names: session.Names()}
		var ce *front.CellError
		if errors.As(runErr, &ce) {
			done.Error = ce
		} else if runErr != nil {
			done.Error = front.EngineError(runErr)
		}
		if err := ev.send(done); err != nil {
			return err
		}
	}
	return *readErr
}

// readRequests reads requests from in until its end: the answers to input
// events go to inputs (at most one waits), the others to requests. Both
// close at the end, and then *err says why, if it is not in's end.
func readRequests(in io.Reader) (requests, inputs <-chan request, err *error) {
	all := make(chan request)
	answers := make(chan request, 1)
	err = new(error)
	go func() {
		defer close(all)
		defer close(answers)
		dec := json.NewDecoder(in)
		for {
			var req request
			if e := dec.Decode(&req); e == io.EOF {
				return
			} else if e != nil {
				*err = fmt.Errorf("a request the worker cannot read: %w", e)
				return
			}
			if req.Type != "input" {
				all <- req
				continue
			}
			select {
			case answers <- req:
			default: // nobody asked: a cell that ended before its answer came
			}
		}
	}()
	return all, answers, err
}
