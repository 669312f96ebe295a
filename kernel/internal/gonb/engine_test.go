package gonb

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/tensornb/tensornb/kernel/internal/front"
	"github.com/tensornb/tensornb/kernel/internal/tools"
	"github.com/tensornb/tensornb/kernel/internal/wire"
)

// toolsDir holds the pinned GoNB, goimports and gopls, built once into
// the user's cache directory (a minute or two the first time).
var toolsDir string

func TestMain(m *testing.M) {
	var err error
	if toolsDir, err = tools.BuildForTests(os.Stderr); err != nil {
		fmt.Fprintf(os.Stderr, "cannot build the pinned tools the engine tests need: %v\n", err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// recorder is an Output that keeps everything.
type recorder struct {
	mu      sync.Mutex
	streams map[string]string
	results []map[string]any
	shown   []map[string]any
	shownMD []map[string]any // the metadata of each display
	order   []string         // "stdout", "stderr" or "display", as each arrived
	comms   func(front.CommMessage)
}

func (r *recorder) Stream(name, text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.streams == nil {
		r.streams = map[string]string{}
	}
	r.streams[name] += text
	r.order = append(r.order, name)
}
func (r *recorder) Display(data, metadata map[string]any, _ string, _ bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.shown = append(r.shown, data)
	r.shownMD = append(r.shownMD, metadata)
	r.order = append(r.order, "display")
}
func (r *recorder) Result(data, _ map[string]any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.results = append(r.results, data)
}
func (r *recorder) ClearOutput(bool) {}
func (r *recorder) Comm(m front.CommMessage) {
	if r.comms != nil {
		r.comms(m)
	}
}
func (r *recorder) Input(context.Context, string, bool) (string, error) { return "typed", nil }

func newEngine(t *testing.T) *Engine {
	t.Helper()
	e := New(Options{GoNB: tools.GoNB.Path(toolsDir), ToolsDir: toolsDir})
	t.Cleanup(func() { _ = e.Shutdown(false) })
	return e
}

// hangAfter bounds a wait for what GoNB does in seconds on a loaded
// machine, such as starting, or ending what it started: only a hang takes
// minutes, so the bound is no timing assertion.
const hangAfter = 2 * time.Minute

func run(t *testing.T, e *Engine, code string) (*recorder, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangAfter)
	defer cancel()
	r := &recorder{}
	return r, e.Execute(ctx, code, r)
}

func cellError(t *testing.T, err error) *front.CellError {
	t.Helper()
	var ce *front.CellError
	if !errors.As(err, &ce) {
		t.Fatalf("want a cell error, got %v", err)
	}
	return ce
}

func TestCellsAsWritten(t *testing.T) {
	e := newEngine(t)
	r, err := run(t, e, "import \"fmt\"\nx := 6\nfunc double(v int) int { return 2 * v }\nfmt.Println(double(x))")
	if err != nil || r.streams["stdout"] != "12\n" {
		t.Fatalf("got %q, %v", r.streams, err)
	}
	// Declarations persist; statements do not need GoNB's %% marker.
	r, err = run(t, e, "fmt.Println(double(21))")
	if err != nil || r.streams["stdout"] != "42\n" {
		t.Fatalf("second cell: %q, %v", r.streams, err)
	}
}

func TestCompileErrorNamesTheCellLine(t *testing.T) {
	e := newEngine(t)
	_, err := run(t, e, "import \"fmt\"\nfmt.Println(1)\ny := undefinedName")
	ce := cellError(t, err)
	if ce.Name != "CompileError" || ce.Value != "cell line 3: undefined: undefinedName" {
		t.Fatalf("compile error: %q %q %q", ce.Name, ce.Value, ce.Traceback)
	}
	if !strings.Contains(strings.Join(ce.Traceback, "\n"), "y := undefinedName") {
		t.Fatalf("traceback without the cell's line: %q", ce.Traceback)
	}
}

func TestPanicIsOneError(t *testing.T) {
	e := newEngine(t)
	r, err := run(t, e, "fmt.Println(\"before\")\nvar s []int\n_ = s[3]")
	ce := cellError(t, err)
	if ce.Name != "panic" || !strings.Contains(ce.Value, "index out of range [3] with length 0") {
		t.Fatalf("panic: %q %q", ce.Name, ce.Value)
	}
	trace := strings.Join(ce.Traceback, "\n")
	if !strings.Contains(trace, "cell line 3: _ = s[3]") || strings.Contains(trace, "main.go") {
		t.Fatalf("traceback: %s", trace)
	}
	if r.streams["stdout"] != "before\n" || strings.Contains(r.streams["stderr"], "panic") {
		t.Fatalf("streams: %q", r.streams)
	}
}

// A panic inside a function an earlier cell declared names that cell's
// line, and the calling line of the cell that ran.
func TestPanicInAnEarlierCellsFunction(t *testing.T) {
	e := newEngine(t)
	if _, err := run(t, e, "func pick(s []int) int {\n\treturn s[3]\n}"); err != nil {
		t.Fatal(err)
	}
	_, err := run(t, e, "var s []int\n_ = pick(s)")
	trace := strings.Join(cellError(t, err).Traceback, "\n")
	if !strings.Contains(trace, "earlier cell, line 2: return s[3]") || !strings.Contains(trace, "cell line 2: _ = pick(s)") || strings.Contains(trace, "main.go") {
		t.Fatalf("traceback: %s", trace)
	}
}

func TestStderrAndExitStatus(t *testing.T) {
	e := newEngine(t)
	r, err := run(t, e, "import \"os\"\nfmt.Fprintln(os.Stderr, \"careful\")")
	if err != nil || r.streams["stderr"] != "careful\n" {
		t.Fatalf("stderr: %q %v", r.streams, err)
	}
	_, err = run(t, e, "os.Exit(3)")
	if ce := cellError(t, err); ce.Name != "Exit" || ce.Value != "exit status 3" {
		t.Fatalf("exit: %q %q", ce.Name, ce.Value)
	}
}

// A program that a signal ends fails the cell, with the signal as its one
// error (GoNB v0.11.1 replied "ok"; v0.11.4 sends an error of its own).
func TestSignalEndsTheCell(t *testing.T) {
	e := newEngine(t)
	r, err := run(t, e, "import \"syscall\"\nfmt.Println(\"before\")\nsyscall.Kill(syscall.Getpid(), syscall.SIGKILL)\nselect {}")
	if ce := cellError(t, err); ce.Name != "Exit" || ce.Value != "signal: killed" || strings.Join(ce.Traceback, "\n") != "Exit: the program was ended by signal: killed" {
		t.Fatalf("killed: %q %q %q", ce.Name, ce.Value, ce.Traceback)
	}
	if r.streams["stdout"] != "before\n" || r.streams["stderr"] != "" {
		t.Fatalf("streams: %q", r.streams)
	}
}

// An interrupt that arrives while GoNB is still building the cell stops
// the program once it starts, so that the next cell runs, rather than
// leaving an endless loop that blocks GoNB.
func TestInterruptWhileBuilding(t *testing.T) {
	e := newEngine(t)
	if _, err := run(t, e, "x := 1\n_ = x"); err != nil { // GoNB is up
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	// A new import makes the build slow enough to interrupt it.
	go func() { done <- e.Execute(ctx, "import \"net/http\"\n_ = http.MethodGet\nfor {\n}", &recorder{}) }()
	time.Sleep(20 * time.Millisecond)
	cancel()
	if ce := cellError(t, <-done); ce.Name != "Interrupted" {
		t.Fatalf("interrupt: %v", ce)
	}
	if r, err := run(t, e, "fmt.Println(\"next\")"); err != nil || r.streams["stdout"] != "next\n" {
		t.Fatalf("after the interrupt: %q %v", r.streams, err)
	}
}

func TestInterruptStopsAnInfiniteLoop(t *testing.T) {
	e := newEngine(t)
	if _, err := run(t, e, "x := 1\n_ = x"); err != nil { // compile the boilerplate first
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- e.Execute(ctx, "for {\n}", &recorder{}) }()
	time.Sleep(3 * time.Second)
	start := time.Now()
	cancel()
	err := <-done
	if ce := cellError(t, err); ce.Name != "Interrupted" {
		t.Fatalf("interrupt: %v", err)
	}
	// The latency script measures how quickly; an interrupt that never
	// stops the loop runs into go test's -timeout.
	t.Logf("the interrupt took %v", time.Since(start))
	if r, err := run(t, e, "fmt.Println(\"next\")"); err != nil || r.streams["stdout"] != "next\n" {
		t.Fatalf("after the interrupt: %q %v", r.streams, err)
	}
}

func TestDeadChildIsRestarted(t *testing.T) {
	e := newEngine(t)
	if _, err := run(t, e, "fmt.Println(1)"); err != nil {
		t.Fatal(err)
	}
	e.mu.Lock()
	c := e.child
	_ = c.cmd.Process.Kill()
	e.mu.Unlock()
	// GoNB is dead between cells once its end is seen (200 ms of sleep
	// was not always enough on a loaded machine: the next cell then ran
	// into the dying GoNB).
	select {
	case <-c.exited:
	case <-time.After(time.Minute):
		t.Fatal("GoNB did not end within a minute of its kill")
	}
	r, err := run(t, e, "fmt.Println(2)")
	if err != nil || r.streams["stdout"] != "2\n" || !strings.Contains(r.streams["stderr"], "restarted") {
		t.Fatalf("after GoNB died: %q %v", r.streams, err)
	}
}

// A cell that starts its program twice (two %%, or %exec and %%) is
// refused with the lines that do, rather than sent to GoNB v0.11.4,
// which ends on it: the declarations of earlier cells stay.
func TestSeveralMainsKeepGoNB(t *testing.T) {
	e := newEngine(t)
	if _, err := run(t, e, "func f() { fmt.Println(\"f\") }"); err != nil {
		t.Fatal(err)
	}
	for _, code := range []string{
		"%%\nfmt.Println(1)\n//gonb:%%\nfmt.Println(2)",
		"//gonb:%exec f\n%%\nf()",
	} {
		_, err := run(t, e, code)
		ce := cellError(t, err)
		if ce.Name != "SyntaxError" || !strings.Contains(ce.Value, "GoNB runs one %%, %main or %exec per cell") {
			t.Errorf("%q: %q %q %q", code, ce.Name, ce.Value, ce.Traceback)
		}
	}
	r, err := run(t, e, "f()")
	if err != nil || r.streams["stdout"] != "f\n" || r.streams["stderr"] != "" {
		t.Fatalf("after the refused cells: %q %v", r.streams, err)
	}
}

// tensor, display and gonbui import with no network: GOPROXY=off makes
// any download fail.
func TestBatteriesIncluded(t *testing.T) {
	module, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	e := New(Options{GoNB: tools.GoNB.Path(toolsDir), ToolsDir: toolsDir, Module: module, Env: []string{"GOPROXY=off", "GOFLAGS=-mod=mod"}})
	t.Cleanup(func() { _ = e.Shutdown(false) })
	code := `import (
	"github.com/tensornb/tensornb/tensor"
	"github.com/tensornb/tensornb/display"
	"github.com/janpfeifer/gonb/gonbui"
)
x := tensor.Float32.Arange(24).View(2, 3, 4)
fmt.Println(x.Strides(), gonbui.IsNotebook)
display.Show(display.Card(x))`
	r, err := run(t, e, code)
	if err != nil || r.streams["stdout"] != "(12, 4, 1) true\n" || len(r.shown) != 1 || r.shown[0]["image/svg+xml"] == nil {
		t.Fatalf("got %q, %d displays, %v", r.streams, len(r.shown), err)
	}
}

// A diagram's PNG reaches the notebook with its metadata (shown at its
// own size), which GoNB's pipe cannot carry as it is.
func TestDisplayMetadataCrossesGoNB(t *testing.T) {
	e := newModuleEngine(t)
	code := `import (
	"github.com/tensornb/tensornb/tensor"
	"github.com/tensornb/tensornb/display"
)
l := display.NewLineage()
x := l.Add("x", tensor.Arange(6))
l.Derive("y", x.View(2, 3), "view(2, 3)", "x")
display.Show(l)`
	r, err := run(t, e, code)
	if err != nil || len(r.shown) != 1 || r.shown[0]["image/png"] == nil {
		t.Fatalf("got %q, %d displays, %v", r.streams, len(r.shown), err)
	}
	want := map[string]any{"image/png": map[string]any{"unconfined": true}}
	if !reflect.DeepEqual(r.shownMD[0], want) {
		t.Errorf("the display's metadata is %v, want %v", r.shownMD[0], want)
	}
}

// newModuleEngine returns an engine whose cells import tensornb from this
// checkout, with no network.
func newModuleEngine(t *testing.T) *Engine {
	t.Helper()
	module, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	e := New(Options{GoNB: tools.GoNB.Path(toolsDir), ToolsDir: toolsDir, Module: module, Env: []string{"GOPROXY=off", "GOFLAGS=-mod=mod"}})
	t.Cleanup(func() { _ = e.Shutdown(false) })
	return e
}

// A refused tensor operation is PyTorch's exception, as on the instant
// engine: class, message, the Go call where the message suggests Python,
// the cell line of the statement; no Go stack. Other panics keep theirs,
// as if nothing had recovered them.
func TestTensorErrorsArePyTorchs(t *testing.T) {
	e := newModuleEngine(t)
	r, err := run(t, e, "import \"github.com/tensornb/tensornb/tensor\"\nfmt.Println(\"before\")\ny := tensor.Arange(24).View(2, 3, 4).Transpose(1, 2)\n// a comment\ny.View(-1)")
	ce := cellError(t, err)
	msg := "view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead."
	want := []string{"RuntimeError: " + msg, "hint: in Go, .reshape(...) is the method Reshape(...)", "cell line 5: y.View(-1)"}
	if ce.Name != "RuntimeError" || ce.Value != msg || strings.Join(ce.Traceback, "\n") != strings.Join(want, "\n") {
		t.Fatalf("tensor error: %q %q %q", ce.Name, ce.Value, ce.Traceback)
	}
	if r.streams["stdout"] != "before\n" || r.streams["stderr"] != "" {
		t.Fatalf("streams: %q", r.streams)
	}
	// In a function an earlier cell declared: the line of this cell.
	if _, err := run(t, e, "func pick(x *tensor.Tensor) *tensor.Tensor { return x.Index(\"5\") }"); err != nil {
		t.Fatal(err)
	}
	_, err = run(t, e, "x := tensor.Arange(3)\npick(x)")
	ce = cellError(t, err)
	want = []string{"IndexError: index 5 is out of bounds for dimension 0 with size 3", "cell line 2: pick(x)"}
	if ce.Name != "IndexError" || strings.Join(ce.Traceback, "\n") != strings.Join(want, "\n") {
		t.Fatalf("tensor error in a function: %q %q %q", ce.Name, ce.Value, ce.Traceback)
	}
	// Indexing a tensor as in Python gets the Go calls that do it.
	_, err = run(t, e, "x := tensor.Arange(3)\nfmt.Println(x[0])")
	ce = cellError(t, err)
	want = []string{"CompileError: the cell does not compile", "cell line 2: cannot index x (variable of type *tensor.Tensor)", "    fmt.Println(x[0])", `hint: a tensor is indexed with x.Index("0") or x.Select(0, 0)`}
	if strings.Join(ce.Traceback, "\n") != strings.Join(want, "\n") {
		t.Fatalf("x[0]: %q %q %q", ce.Name, ce.Value, ce.Traceback)
	}
	_, err = run(t, e, "var s []int\n_ = s[3]")
	ce = cellError(t, err)
	trace := strings.Join(ce.Traceback, "\n")
	if ce.Name != "panic" || ce.Value != "runtime error: index out of range [3] with length 0" ||
		!strings.HasPrefix(trace, "panic: runtime error: index out of range [3] with length 0\ngoroutine 1 [running]:\nmain.main()\n\t cell line 2: _ = s[3]") ||
		strings.Contains(trace, "cellpanic") || strings.Contains(trace, "recovered") {
		t.Fatalf("panic: %q %q\n%s", ce.Name, ce.Value, trace)
	}
}

// A cell that ends with an expression shows its value as the result; one
// that ends with a call of a function with no value runs as written.
func TestLastExpressionIsTheResult(t *testing.T) {
	module, _ := filepath.Abs(filepath.Join("..", "..", ".."))
	e := New(Options{GoNB: tools.GoNB.Path(toolsDir), ToolsDir: toolsDir, Module: module})
	t.Cleanup(func() { _ = e.Shutdown(false) })
	for _, c := range []struct{ code, plain string }{
		{"1 + 2", "3"},
		{"x := \"hi\"\nx", `"hi"`},
		{"import \"github.com/tensornb/tensornb/tensor\"\nx := tensor.Float32.Arange(24).View(2, 3, 4)\nx.Transpose(1, 2).Strides()", "(12, 1, 4)"},
		{"tensor.Arange(3)", "tensor([0, 1, 2])"},
	} {
		r, err := run(t, e, c.code)
		if err != nil || len(r.results) != 1 || r.results[0]["text/plain"] != c.plain {
			t.Fatalf("%q: results %v, %v", c.code, r.results, err)
		}
	}
	for _, code := range []string{"fmt.Println(\"printed\")", "func hello() { fmt.Println(\"printed\") }\nhello()", "hello()", "fmt.Println(\"printed\")"} {
		r, err := run(t, e, code)
		if err != nil || len(r.results) != 0 || r.streams["stdout"] != "printed\n" {
			t.Fatalf("%q: results %v, streams %q, %v", code, r.results, r.streams, err)
		}
	}
	// Calls found to have no single value to show are not rewritten again,
	// so that their cells need not link the display package.
	if !e.void["fmt.Println"] || !e.void["hello"] || e.void["tensor.Arange"] {
		t.Fatalf("void callees: %v", e.void)
	}
	if cell := arrange("fmt.Println(1)", true, false); !cell.result || cell.callee != "fmt.Println" {
		t.Fatalf("arrange: %+v", cell)
	}
}

// Comms from the front end reach GoNB, and GoNB's answers come back: the
// open is acknowledged and a heartbeat ping is answered, as gonbui's
// widgets expect.
func TestCommsAreForwarded(t *testing.T) {
	e := New(Options{GoNB: tools.GoNB.Path(toolsDir), ToolsDir: toolsDir, KernelID: "4f2c-0e1d"})
	t.Cleanup(func() { _ = e.Shutdown(false) })
	got := make(chan string, 16)
	out := &recorder{comms: func(m front.CommMessage) {
		var c struct {
			CommID string `json:"comm_id"`
			Data   struct {
				Address string `json:"address"`
			} `json:"data"`
		}
		_ = json.Unmarshal(m.Content, &c)
		got <- m.Type + " " + c.CommID + " " + c.Data.Address
	}}
	ctx := context.Background()
	open, _ := json.Marshal(map[string]any{"comm_id": "comm-1", "target_name": "gonb_comm", "kernel_id": "4f2c-0e1d", "data": map[string]any{}})
	_ = e.Comm(ctx, front.CommMessage{Type: "comm_open", Content: open}, out)
	ping, _ := json.Marshal(map[string]any{"comm_id": "comm-1", "data": map[string]any{"address": "#heartbeat/ping"}})
	want := []string{"comm_msg comm-1 #comm_open_ack", "comm_msg comm-1 #heartbeat/pong"}
	var seen []string
	timeout := time.After(hangAfter) // GoNB starts first
	for len(seen) < len(want) {
		select {
		case s := <-got:
			if !strings.HasPrefix(s, "comm_msg") {
				continue // the display update that comes with the open
			}
			seen = append(seen, s)
			if len(seen) == 1 {
				_ = e.Comm(ctx, front.CommMessage{Type: "comm_msg", Content: ping}, out)
			}
		case <-timeout:
			t.Fatalf("comms: got %q, want %q", seen, want)
		}
	}
	if strings.Join(seen, "|") != strings.Join(want, "|") {
		t.Fatalf("comms: got %q, want %q", seen, want)
	}
}

// gopls's hover Markdown becomes the text/plain Notebook 6's tooltip shows.
func TestPlainFromMarkdown(t *testing.T) {
	md := "```go\nfunc strings.Fields(s string) []string\n```\n\n---\n\nFields splits the string s.\n\n\n---\n\n[`strings.Fields` on pkg.go.dev](https://pkg.go.dev/strings#Fields)"
	want := "func strings.Fields(s string) []string\n\nFields splits the string s.\n\n[`strings.Fields` on pkg.go.dev](https://pkg.go.dev/strings#Fields)"
	if got := plainFromMarkdown(md); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestUniqueMatches(t *testing.T) {
	if got := unique([]string{"Zeros", "Add", "Zeros", "Add", "View"}); !slices.Equal(got, []string{"Zeros", "Add", "View"}) {
		t.Errorf("unique: %v", got)
	}
}

// TestChildSocketsArePrivate checks that GoNB listens on Unix sockets in
// a directory only this user may enter, and on no TCP port; and that when
// a frame that GoNB's ZeroMQ cannot survive reaches one (only this user
// can send it), the next cell says GoNB was restarted and runs.
func TestChildSocketsArePrivate(t *testing.T) {
	e := newEngine(t)
	if _, err := run(t, e, "fmt.Println(1)"); err != nil {
		t.Fatal(err)
	}
	e.mu.Lock()
	c := e.child
	e.mu.Unlock()
	if info, err := os.Stat(c.dir); err != nil || info.Mode().Perm() != 0o700 {
		t.Fatalf("GoNB's directory: %v %v", info.Mode(), err)
	}
	files, _ := filepath.Glob(filepath.Join(c.dir, "*.json"))
	if len(files) != 1 {
		t.Fatalf("connection files: %q", files)
	}
	conn, err := wire.ReadConnection(files[0])
	if err != nil || conn.Transport != "ipc" {
		t.Fatalf("GoNB's connection: %+v %v", conn, err)
	}
	shell := strings.TrimPrefix(conn.Endpoint(conn.ShellPort), "ipc://")
	if info, err := os.Stat(shell); err != nil || info.Mode().Type() != os.ModeSocket {
		t.Fatalf("GoNB's shell socket %s: %v", shell, err)
	}
	if ports := tcpListeners(t, c.cmd.Process.Pid); len(ports) > 0 {
		t.Fatalf("GoNB listens on TCP ports %v", ports)
	}

	nc, err := net.Dial("unix", shell)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	greeting := make([]byte, 64)
	greeting[0], greeting[9], greeting[10] = 0xff, 0x7f, 3
	copy(greeting[12:], "NULL")
	frame := []byte{0x06, 0x40, 0, 0, 0, 0, 0, 0, 0} // a command of 2^62 bytes
	if _, err := nc.Write(append(greeting, frame...)); err != nil {
		t.Fatal(err)
	}
	select {
	case <-c.exited:
		t.Log("GoNB died of the frame")
	case <-time.After(10 * time.Second):
		t.Log("GoNB survived the frame")
	}
	r, err := run(t, e, "fmt.Println(2)")
	if err != nil || r.streams["stdout"] != "2\n" {
		t.Fatalf("after the frame: %q %v", r.streams, err)
	}
	select {
	case <-c.exited:
		if !strings.Contains(r.streams["stderr"], "restarted") {
			t.Fatalf("GoNB died and the next cell did not say so: %q", r.streams)
		}
	default:
	}
}

// tcpListeners returns the local addresses of the TCP sockets that
// process pid listens on, from /proc.
func tcpListeners(t *testing.T, pid int) []string {
	t.Helper()
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	inodes := map[string]bool{}
	for _, fd := range fds {
		link, _ := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name()))
		if inode, ok := strings.CutPrefix(link, "socket:["); ok {
			inodes[strings.TrimSuffix(inode, "]")] = true
		}
	}
	var listening []string
	for _, table := range []string{"tcp", "tcp6"} {
		data, _ := os.ReadFile(fmt.Sprintf("/proc/%d/net/%s", pid, table))
		for _, line := range strings.Split(string(data), "\n")[1:] {
			// sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
			f := strings.Fields(line)
			if len(f) > 9 && f[3] == "0A" && inodes[f[9]] {
				listening = append(listening, f[1])
			}
		}
	}
	return listening
}

// A cell that prints 64 MB gets all of it through, in order, and ends:
// no message is dropped between GoNB and the kernel, the idle status
// that ends the cell least of all.
func TestLargeOutputArrivesWhole(t *testing.T) {
	e := newModuleEngine(t)
	const size = 64 << 20
	code := `import ("os"; "strings")
line := strings.Repeat("x", 1023) + "\n"
for i := 0; i < 65536; i++ {
	os.Stdout.WriteString(line)
}`
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	r := &recorder{}
	if err := e.Execute(ctx, code, r); err != nil {
		t.Fatal(err)
	}
	out := r.streams["stdout"]
	if len(out) != size || strings.Count(out, "\n") != 65536 || strings.Trim(out, "x\n") != "" {
		t.Errorf("got %d bytes of stdout (%d lines), want %d", len(out), strings.Count(out, "\n"), size)
	}
}

// Completion after a character that UTF-16 writes as two units (an
// emoji) completes: GoNB and gopls count UTF-16 units, Jupyter counts
// characters.
// A completion or an inspection asked before GoNB is connected to gopls
// (GoNB v0.11.4 connects 12 s after its start), with too little time left
// to wait for that, is answered at once with nothing, rather than held in
// GoNB until 12 s after it was asked, past the front end's patience.
func TestCompletionBeforeGoplsConnects(t *testing.T) {
	e := newEngine(t)
	e.Start()
	e.mu.Lock()
	c := e.child
	e.mu.Unlock()
	if c == nil {
		t.Fatal("GoNB did not start")
	}
	const patience = 5 * time.Second
	if time.Until(c.started.Add(goplsConnects)) <= patience {
		t.Skip("GoNB took so long to start that gopls is about to be connected")
	}
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	got, err := e.Complete(ctx, "fmt.Sprintl", 11)
	if err != nil || len(got.Matches) != 0 || got.CursorStart != 11 || got.CursorEnd != 11 || ctx.Err() != nil {
		t.Fatalf("completion: %+v %v (the wait: %v)", got, err, ctx.Err())
	}
	data, found, err := e.Inspect(ctx, "fmt.Println", 5, 0)
	if err != nil || found || data != nil || ctx.Err() != nil {
		t.Fatalf("inspection: %v %v %q (the wait: %v)", found, err, data, ctx.Err())
	}
}

// Inspecting where there is no name (a blank, a comment, a string) finds
// nothing, as with GoNB v0.11.1, rather than showing GoNB v0.11.4's error
// from gopls ("gopls request returned 'hover' with unexpected kind") as
// the tooltip; a name is still found.
func TestInspectWhereThereIsNothing(t *testing.T) {
	e := newEngine(t)
	ctx, cancel := context.WithTimeout(context.Background(), hangAfter)
	defer cancel()
	data, found, err := e.Inspect(ctx, "fmt.Println(1)", 5, 0)
	if text, _ := data["text/plain"].(string); err != nil || !found || !strings.Contains(text, "func fmt.Println(") {
		t.Fatalf("inspect fmt.Println: %v %v %q", found, err, data)
	}
	for _, c := range []struct {
		code   string
		cursor int
	}{{"x := 1   \n_ = x", 8}, {"// a comment here\nx := 2", 6}, {"fmt.Println(\"hello world\")", 16}} {
		data, found, err := e.Inspect(ctx, c.code, c.cursor, 0)
		if err != nil || found || data != nil {
			t.Errorf("inspect %q at %d: %v %v %q", c.code, c.cursor, found, err, data)
		}
	}
}

func TestCompletionAfterAnEmoji(t *testing.T) {
	e := newEngine(t)
	code := "s := \"🎉\"\nfmt.Printl"
	ctx, cancel := context.WithTimeout(context.Background(), hangAfter)
	defer cancel()
	c, err := e.Complete(ctx, code, utf8.RuneCountInString(code))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(c.Matches, "Println") || c.CursorEnd != utf8.RuneCountInString(code) || c.CursorStart != c.CursorEnd-len("Printl") {
		t.Errorf("completion of %q: %+v", code, c)
	}
}

// A display sent as the last thing a cell does arrives, every time: GoNB
// publishes it before the idle status that ends the cell, and the client
// hands on every message before that status.
func TestDisplayJustBeforeTheEnd(t *testing.T) {
	e := newModuleEngine(t)
	const runs = 20
	for i := range runs {
		code := fmt.Sprintf(`import "github.com/tensornb/tensornb/display"
display.Show(display.Bundle{"text/plain": "last %d"})`, i)
		r, err := run(t, e, code)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.shown) != 1 || r.shown[0]["text/plain"] != fmt.Sprintf("last %d", i) {
			t.Fatalf("run %d of %d: displays %v, streams %q", i+1, runs, r.shown, r.streams)
		}
	}
}

// Output keeps its characters, however the pipes cut it: 600,000
// characters of two and three bytes on stdout and stderr arrive with no
// U+FFFD. Displays come after the text printed before them; what a cell
// wrote before os.Exit arrives.
func TestOutputKeepsItsCharactersAndOrder(t *testing.T) {
	e := newModuleEngine(t)
	text := strings.Repeat("é世", 300000)
	r, err := run(t, e, "import (\"os\"; \"strings\")\nos.Stdout.WriteString(strings.Repeat(\"é世\", 300000))\nos.Stderr.WriteString(strings.Repeat(\"é世\", 300000))")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"stdout", "stderr"} {
		if got := r.streams[name]; got != text {
			t.Errorf("%s: %d bytes, %d of them in U+FFFD, want %d", name, len(got), 3*strings.Count(got, "\uFFFD"), len(text))
		}
	}
	r, err = run(t, e, `import "github.com/tensornb/tensornb/display"
for i := 0; i < 5; i++ {
	fmt.Println("line", i)
	display.Show(display.Bundle{"text/plain": fmt.Sprint("shown ", i)})
}`)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, o := range r.order {
		if len(order) == 0 || order[len(order)-1] != o {
			order = append(order, o)
		}
	}
	if want := strings.Repeat("stdout display ", 5); strings.Join(order, " ")+" " != want {
		t.Errorf("order %q, want %q", order, want)
	}
	r, _ = run(t, e, "import \"os\"\nfmt.Print(\"before exit é\")\nos.Exit(3)")
	if r.streams["stdout"] != "before exit é" {
		t.Errorf("stdout before os.Exit: %q", r.streams["stdout"])
	}
}

// GoNB's own gonbui sends a display down a pipe that GoNB stops reading
// when the program ends, so a program that ends right after displaying
// loses what GoNB had not yet read (gonbui's documentation asks programs
// to defer gonbui.Sync). A cell that displays with gonbui gets that
// deferred Sync: 300 displays sent as the program's last act all arrive,
// in the %% cells GoNB's notebooks write and in cells tensornb arranges.
func TestGoNBDisplaysBeforeTheEndArrive(t *testing.T) {
	e := newModuleEngine(t)
	const n = 300
	for _, code := range []string{
		"import \"github.com/janpfeifer/gonb/gonbui\"\n\n%%\nfor i := range " + fmt.Sprint(n) + " {\n\tgonbui.DisplayMarkdown(fmt.Sprint(i))\n}",
		"//gonb:%%\nfor i := range " + fmt.Sprint(n) + " {\n\tgonbui.DisplayMarkdown(fmt.Sprint(i))\n}",
		"for i := range " + fmt.Sprint(n) + " {\n\tgonbui.DisplayMarkdown(fmt.Sprint(i))\n}",
	} {
		r, err := run(t, e, code)
		if err != nil {
			t.Fatalf("%q: %v", code, err)
		}
		if len(r.shown) != n || r.shown[n-1]["text/markdown"] != fmt.Sprint(n-1) {
			t.Errorf("%q: %d displays of %d arrived (streams %q)", code, len(r.shown), n, r.streams)
		}
	}
}
