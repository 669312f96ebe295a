package worker

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tensornb/tensornb/kernel/internal/front"
)

// readsTwoLines reads a word with fmt.Scanln and a line with a
// bufio.Scanner over os.Stdin, after printing a prompt.
const readsTwoLines = `import (
	"bufio"
	"fmt"
	"os"
)
var word string
fmt.Print("word? ")
fmt.Scanln(&word)
lines := bufio.NewScanner(os.Stdin)
lines.Scan()
fmt.Printf("%s|%s\n", word, lines.Text())`

// ignoresItsError reads a word and takes no notice of Scanln's error, as
// a student's cell may.
const ignoresItsError = `import "fmt"
var w string
fmt.Scanln(&w)
fmt.Println("went on with", len(w))`

// runner runs a cell on one of the engines, with out.
type runner func(ctx context.Context, code string, out *output) error

func engines(t *testing.T) map[string]runner {
	e := newEngine(t)
	l := newLocalTest(t)
	return map[string]runner{
		"worker": func(ctx context.Context, code string, out *output) error { return e.Execute(ctx, code, out) },
		"local":  func(ctx context.Context, code string, out *output) error { return l.Execute(ctx, code, out) },
	}
}

// A cell that reads its standard input asks for each line when it needs
// it, after what it printed before, on the worker and in a Local (the
// browser's engine).
func TestInputAsksForEachLine(t *testing.T) {
	for name, run := range engines(t) {
		t.Run(name, func(t *testing.T) {
			out := &output{lines: []string{"hello", "world wide"}}
			if err := run(context.Background(), readsTwoLines, out); err != nil {
				t.Fatal(err)
			}
			want := "stdout: word? |input|input|stdout: hello|world wide\n"
			if got := strings.Join(out.items, "|"); got != want {
				t.Fatalf("got %q, want %q", got, want)
			}
		})
	}
}

// Where the front end takes no input, a read fails the cell at once with
// StdinNotImplementedError, even if the cell ignores Scanln's error: not
// an end of file it would take for an empty answer.
func TestInputWithoutStdinFails(t *testing.T) {
	for name, run := range engines(t) {
		t.Run(name, func(t *testing.T) {
			out := &output{}
			err := run(context.Background(), ignoresItsError, out)
			var ce *front.CellError
			if !errors.As(err, &ce) || ce.Name != front.StdinNotImplemented || !strings.Contains(ce.Value, "allow_stdin: false") {
				t.Fatalf("got %v (%q)", err, out.items)
			}
			if strings.Contains(strings.Join(out.items, "|"), "went on") {
				t.Fatalf("the cell went on: %q", out.items)
			}
			if !strings.Contains(strings.Join(ce.Traceback, "\n"), "fmt.Scanln(&w)") {
				t.Errorf("the traceback does not name the line that read: %q", ce.Traceback)
			}
		})
	}
}

// An interrupt while a cell waits for input ends the wait and the cell.
func TestInterruptWhileWaitingForInput(t *testing.T) {
	e := newEngine(t)
	out := &output{wait: true}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for !strings.Contains(strings.Join(out.snapshot(), "|"), "input") {
			time.Sleep(10 * time.Millisecond)
		}
		cancel()
	}()
	err := e.Execute(ctx, ignoresItsError, out)
	var ce *front.CellError
	if !errors.As(err, &ce) || ce.Name != "Interrupted" {
		t.Fatalf("got %v", err)
	}
	// The next cell runs, in a new worker.
	if items, err := execute(t, e, `1 + 1`); err != nil || !strings.Contains(strings.Join(items, "|"), "result: 2") {
		t.Fatalf("the next cell: %v %q", err, items)
	}
}

func (o *output) snapshot() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]string(nil), o.items...)
}
