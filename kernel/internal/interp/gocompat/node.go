package gocompat

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"
)

// Node is the browser's instant engine, built for js/wasm, run under
// Node.js rather than in a page: each cell runs in a node process of its
// own (runcell.js, Script), which starts the engine from Dir, where
// kernel/internal/browser's Build wrote it, and ends with the cell.
type Node struct {
	Dir    string
	Script string
}

// nodeResult is what runcell.js writes: the cell's output and its
// execute_reply, or, if the engine ended, its exit code and the Go
// runtime's reason.
type nodeResult struct {
	Output string `json:"output"`
	Reply  struct {
		Status    string   `json:"status"`
		Ename     string   `json:"ename"`
		Evalue    string   `json:"evalue"`
		Traceback []string `json:"traceback"`
	} `json:"reply"`
	Exit  *int   `json:"exit"`
	Fatal string `json:"fatal"`
}

// Run runs cell in a new node process, which is killed if it is not
// ready in startLimit, or if the cell runs longer than timeout.
func (n Node) Run(cell string, timeout time.Duration) Outcome {
	script, err := filepath.Abs(n.Script)
	if err != nil {
		return Outcome{Ename: "EngineError", Evalue: err.Error()}
	}
	results, w, err := os.Pipe()
	if err != nil {
		return Outcome{Ename: "EngineError", Evalue: err.Error()}
	}
	defer results.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", script, n.Dir)
	cmd.Stdin = strings.NewReader(cell)
	cmd.ExtraFiles = []*os.File{w} // file descriptor 3
	var stderr tailWriter
	cmd.Stderr = &stderr
	cmd.WaitDelay = time.Second
	err = cmd.Start()
	w.Close()
	if err != nil {
		return Outcome{Ename: "EngineError", Evalue: err.Error()}
	}
	limit := time.AfterFunc(startLimit, cancel)
	var late atomic.Bool // whether the cell's time ran out
	lines := bufio.NewReader(results)
	if ready, _ := lines.ReadString('\n'); ready == readyLine {
		limit.Stop()
		limit = time.AfterFunc(timeout, func() {
			late.Store(true)
			cancel()
		})
	}
	data, _ := io.ReadAll(lines)
	limit.Stop()
	waitErr := cmd.Wait()
	var r nodeResult
	if err := json.Unmarshal(data, &r); err != nil {
		if late.Load() {
			return Outcome{TimedOut: true, Ename: "Interrupted", Evalue: "killed"}
		}
		return Outcome{Ename: "EngineError", Evalue: fmt.Sprintf("node ended (%v) with no result: %s", waitErr, stderr.String())}
	}
	if r.Exit != nil {
		return Outcome{Ename: "EngineError", Evalue: fmt.Sprintf("the engine ended with exit code %d: %s", *r.Exit, r.Fatal)}
	}
	return Outcome{Output: r.Output, Ename: r.Reply.Ename, Evalue: r.Reply.Evalue, Traceback: r.Reply.Traceback}
}

// readyLine is what runcell.js writes first, once the session is ready.
const readyLine = "ready\n"

// tailWriter keeps the last 4 KB written to it.
type tailWriter struct{ buf []byte }

// Write keeps the end of what was written so far.
func (t *tailWriter) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if len(t.buf) > 4096 {
		t.buf = t.buf[len(t.buf)-4096:]
	}
	return len(p), nil
}

// String returns what it kept.
func (t *tailWriter) String() string { return string(t.buf) }
