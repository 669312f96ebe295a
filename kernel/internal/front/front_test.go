//go:build !js

package front_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/tensornb/tensornb/kernel/internal/client"
	"github.com/tensornb/tensornb/kernel/internal/front"
	"github.com/tensornb/tensornb/kernel/internal/wire"
	"github.com/tensornb/tensornb/kernel/internal/zsock"
)

// script is an engine for testing the front: each line of a cell is a
// command (print TEXT, fail, sleep, input, big N, display, result, count).
type script struct {
	mu  sync.Mutex
	ran []string
}

func (e *script) Execute(ctx context.Context, code string, out front.Output) error {
	e.mu.Lock()
	e.ran = append(e.ran, code)
	e.mu.Unlock()
	for _, line := range strings.Split(code, "\n") {
		cmd, arg, _ := strings.Cut(line, " ")
		switch cmd {
		case "print":
			out.Stream("stdout", arg+"\n")
		case "warn":
			out.Stream("stderr", arg+"\n")
		case "fail":
			return &front.CellError{Name: "panic", Value: "boom", Traceback: []string{"panic: boom", "cell line 1"}}
		case "sleep":
			<-ctx.Done()
			return front.Interrupted()
		case "input":
			v, err := out.Input(ctx, "value? ", false)
			if err != nil {
				return &front.CellError{Name: "InputError", Value: err.Error()}
			}
			out.Stream("stdout", "got "+v+"\n")
		case "big":
			n, _ := strconv.Atoi(arg)
			out.Stream("stdout", strings.Repeat("x", n))
		case "wide": // n two-byte characters
			n, _ := strconv.Atoi(arg)
			out.Stream("stdout", strings.Repeat("é", n))
		case "display":
			out.Display(map[string]any{"text/plain": "picture", "image/svg+xml": "<svg/>"}, nil, arg, false)
		case "update":
			out.Display(map[string]any{"text/plain": "picture 2"}, nil, arg, true)
		case "result":
			out.Result(map[string]any{"text/plain": arg}, nil)
		case "count":
			n, ok := front.ExecutionCount(ctx)
			out.Stream("stdout", fmt.Sprintln(n, ok))
		}
	}
	return nil
}

func (e *script) executed() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string{}, e.ran...)
}

// waitRunning waits until the engine has begun to run code. It sets no
// bound: a cell that never starts runs into go test's -timeout.
func (e *script) waitRunning(code string) {
	for !slices.Contains(e.executed(), code) {
		time.Sleep(10 * time.Millisecond)
	}
}

// hangAfter bounds each wait for the kernel's answer. An answer takes
// milliseconds on loopback, and seconds under the race detector on a
// loaded machine (10 MB of output, TestLargeOutputArrivesWhole, took 3 s
// at a load of 5 on two cores); only a kernel that never answers takes
// minutes, so this bound is no timing assertion.
const hangAfter = 2 * time.Minute

func (e *script) Complete(_ context.Context, code string, cursor int) (front.Completion, error) {
	c := front.Completion{Matches: []string{"Println", "Printf"}, CursorStart: cursor - 2, CursorEnd: cursor}
	for _, m := range c.Matches {
		c.Types = append(c.Types, front.MatchType{Start: c.CursorStart, End: cursor, Text: m, Type: "function", Signature: "func " + m})
	}
	return c, nil
}

func (e *script) Inspect(_ context.Context, code string, cursor, detail int) (map[string]any, bool, error) {
	return map[string]any{"text/plain": "func Println(a ...any)"}, true, nil
}

func (e *script) Shutdown(bool) error { return nil }

// freePorts returns n TCP ports nothing listens on.
func freePorts(t *testing.T, n int) []int {
	t.Helper()
	var ports []int
	var ls []net.Listener
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range ls {
		l.Close()
	}
	return ports
}

// start runs a kernel on the script engine and returns a client of it.
func start(t *testing.T) (*client.Client, *script) {
	t.Helper()
	conn, engine := startKernel(t)
	return dial(t, conn), engine
}

// startKernel runs a kernel on the script engine until the test ends and
// returns its connection.
func startKernel(t *testing.T) (*wire.Connection, *script) {
	t.Helper()
	return startKernelWith(t, nil)
}

// startKernelWith is startKernel, with setup (if not nil) called on the
// kernel before it runs.
func startKernelWith(t *testing.T, setup func(*front.Kernel)) (*wire.Connection, *script) {
	t.Helper()
	ports := freePorts(t, 5)
	conn := &wire.Connection{
		Transport: "tcp", IP: "127.0.0.1", Key: "test-key", SignatureScheme: "hmac-sha256",
		ShellPort: ports[0], ControlPort: ports[1], StdinPort: ports[2], IOPubPort: ports[3], HBPort: ports[4],
	}
	engine := &script{}
	k, err := front.New(conn, engine, front.Info{Implementation: "tensornb", Version: "test", GoVersion: "1.26"})
	if err != nil {
		t.Fatal(err)
	}
	if setup != nil {
		setup(k)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go func() { _ = k.Run(ctx) }()
	return conn, engine
}

// dial connects a client to the kernel of conn and waits until it answers.
func dial(t *testing.T, conn *wire.Connection) *client.Client {
	t.Helper()
	c, err := client.Dial(context.Background(), conn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	ready, cancelReady := context.WithTimeout(context.Background(), hangAfter)
	defer cancelReady()
	if err := c.WaitReady(ready); err != nil {
		t.Fatal(err)
	}
	return c
}

// execution is what one execute request produced.
type execution struct {
	reply   map[string]any
	outputs []*wire.Message
}

func (e execution) types() []string {
	var out []string
	for _, m := range e.outputs {
		out = append(out, m.Type())
	}
	return out
}

func execute(t *testing.T, c *client.Client, code string, extra map[string]any) execution {
	t.Helper()
	content := map[string]any{"code": code, "silent": false, "store_history": true, "allow_stdin": true, "stop_on_error": true}
	for k, v := range extra {
		content[k] = v
	}
	ctx, cancel := context.WithTimeout(context.Background(), hangAfter)
	defer cancel()
	var e execution
	reply, err := c.Call(ctx, client.Shell, "execute_request", content, func(m *wire.Message) { e.outputs = append(e.outputs, m) })
	if err != nil {
		t.Fatal(err)
	}
	e.reply = decode(t, reply)
	return e
}

func decode(t *testing.T, m *wire.Message) map[string]any {
	t.Helper()
	var content map[string]any
	if err := json.Unmarshal(m.Content, &content); err != nil {
		t.Fatal(err)
	}
	return content
}

func call(t *testing.T, c *client.Client, ch client.Channel, msgType string, content map[string]any) map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangAfter)
	defer cancel()
	reply, err := c.Call(ctx, ch, msgType, content, nil)
	if err != nil {
		t.Fatal(err)
	}
	return decode(t, reply)
}

func TestKernelInfo(t *testing.T) {
	c, _ := start(t)
	for _, ch := range []client.Channel{client.Shell, client.Control} {
		info := call(t, c, ch, "kernel_info_request", map[string]any{})
		lang := info["language_info"].(map[string]any)
		if info["implementation"] != "tensornb" || info["protocol_version"] != wire.ProtocolVersion ||
			lang["name"] != "go" || lang["mimetype"] != "text/x-go" || lang["file_extension"] != ".go" ||
			lang["pygments_lexer"] != "go" || lang["codemirror_mode"] != "go" ||
			fmt.Sprint(info["supported_features"]) != "[iopub_welcome]" {
			t.Errorf("kernel_info: %v", info)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), hangAfter)
	defer cancel()
	if err := c.Heartbeat(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestExecute(t *testing.T) {
	c, _ := start(t)
	e := execute(t, c, "print hello\ndisplay d1\nupdate d1\nresult 42", nil)
	if e.reply["status"] != "ok" || e.reply["execution_count"] != 1.0 {
		t.Fatalf("reply %v", e.reply)
	}
	want := []string{"execute_input", "stream", "display_data", "update_display_data", "execute_result"}
	if strings.Join(e.types(), " ") != strings.Join(want, " ") {
		t.Fatalf("outputs %v, want %v", e.types(), want)
	}
	result := decode(t, e.outputs[4])
	if result["execution_count"] != 1.0 || result["data"].(map[string]any)["text/plain"] != "42" {
		t.Fatalf("execute_result %v", result)
	}
	display := decode(t, e.outputs[2])
	if display["transient"].(map[string]any)["display_id"] != "d1" {
		t.Fatalf("display_data %v", display)
	}
	if e := execute(t, c, "print again", nil); e.reply["execution_count"] != 2.0 {
		t.Fatalf("the count did not advance: %v", e.reply)
	}
	if e := execute(t, c, "print quiet", map[string]any{"silent": true}); len(e.outputs) != 0 || e.reply["execution_count"] != 2.0 {
		t.Fatalf("silent cell: outputs %v, reply %v", e.types(), e.reply)
	}
	if e := execute(t, c, "print untold", map[string]any{"store_history": false}); e.reply["execution_count"] != 2.0 {
		t.Fatalf("store_history false advanced the count: %v", e.reply)
	}
}

// The engine is told a cell's execution count, and that a cell kept out
// of the history has none.
func TestEngineGetsTheExecutionCount(t *testing.T) {
	c, _ := start(t)
	for _, want := range []struct {
		extra map[string]any
		text  string
	}{
		{nil, "1 true\n"},
		{map[string]any{"store_history": false}, "0 false\n"},
		{nil, "2 true\n"},
	} {
		e := execute(t, c, "count", want.extra)
		var text string
		for _, m := range e.outputs {
			if m.Type() == "stream" {
				text += decode(t, m)["text"].(string)
			}
		}
		if text != want.text {
			t.Errorf("with %v the engine got %q, want %q", want.extra, text, want.text)
		}
	}
}

func TestErrorsAndStopOnError(t *testing.T) {
	c, engine := start(t)
	e := execute(t, c, "fail", nil)
	if e.reply["status"] != "error" || e.reply["ename"] != "panic" || e.reply["evalue"] != "boom" {
		t.Fatalf("reply %v", e.reply)
	}
	if got := strings.Join(e.types(), " "); got != "execute_input error" {
		t.Fatalf("outputs %s", got)
	}

	// A failure aborts the cells queued behind it.
	ctx, cancel := context.WithTimeout(context.Background(), hangAfter)
	defer cancel()
	replies := make(chan map[string]any, 3)
	for i, code := range []string{"fail", "print queued 1", "print queued 2"} {
		go func() {
			time.Sleep(time.Duration(i) * 20 * time.Millisecond)
			r, err := c.Call(ctx, client.Shell, "execute_request", map[string]any{"code": code, "stop_on_error": true}, nil)
			if err != nil {
				t.Error(err)
				replies <- nil
				return
			}
			replies <- decode(t, r)
		}()
	}
	statuses := map[string]int{}
	for range 3 {
		if r := <-replies; r != nil {
			statuses[r["status"].(string)]++
		}
	}
	if statuses["error"] != 1 || statuses["aborted"]+statuses["ok"] != 2 {
		t.Fatalf("statuses %v", statuses)
	}
	for _, code := range engine.executed() {
		if strings.HasPrefix(code, "print queued") && statuses["aborted"] == 2 {
			t.Fatalf("an aborted cell ran: %q", code)
		}
	}
}

// An interrupt ends the running cell, which only an interrupt can end,
// and the next cell runs.
func TestInterrupt(t *testing.T) {
	c, engine := start(t)
	done := make(chan execution, 1)
	go func() { done <- execute(t, c, "sleep", nil) }()
	engine.waitRunning("sleep")
	start := time.Now()
	call(t, c, client.Control, "interrupt_request", map[string]any{})
	e := <-done
	if e.reply["status"] != "error" || e.reply["ename"] != "Interrupted" {
		t.Fatalf("interrupted cell: %v", e.reply)
	}
	t.Logf("the interrupt took %v", time.Since(start))
	if e := execute(t, c, "print after", nil); e.reply["status"] != "ok" {
		t.Fatalf("the next cell: %v", e.reply)
	}
}

func TestInput(t *testing.T) {
	c, _ := start(t)
	c.OnInput(func(prompt string, password bool) (string, bool) { return "42 from " + prompt, true })
	e := execute(t, c, "input", nil)
	if e.reply["status"] != "ok" || len(e.outputs) != 2 || decode(t, e.outputs[1])["text"] != "got 42 from value? \n" {
		t.Fatalf("input: %v %v", e.reply, e.types())
	}
	e = execute(t, c, "input", map[string]any{"allow_stdin": false})
	if e.reply["status"] != "error" || e.reply["ename"] != "InputError" || !strings.Contains(e.reply["evalue"].(string), "allow_stdin: false") {
		t.Fatalf("input without stdin: %v", e.reply)
	}
}

// An interrupt ends a cell that waits for input nobody gives.
func TestInterruptWhileWaitingForInput(t *testing.T) {
	c, _ := start(t)
	c.OnInput(func(string, bool) (string, bool) {
		go func() {
			_, _ = c.Call(context.Background(), client.Control, "interrupt_request", map[string]any{}, nil)
		}()
		return "", false
	})
	e := execute(t, c, "input", nil)
	if e.reply["status"] != "error" || !strings.Contains(e.reply["evalue"].(string), "context canceled") {
		t.Fatalf("input interrupted: %v", e.reply)
	}
}

// An input_request made before the client's stdin channel has connected
// reaches it once it connects, rather than being dropped while the cell
// waits for its reply (CI saw the first cell's input hang that way).
func TestInputBeforeStdinConnects(t *testing.T) {
	conn, _ := startKernel(t)
	elsewhere := *conn
	elsewhere.StdinPort = freePorts(t, 1)[0] // the client's own stdin socket never connects
	c := dial(t, &elsewhere)
	replied := make(chan struct{})
	go func() {
		time.Sleep(300 * time.Millisecond)
		stdin, err := zsock.Dial(zsock.Dealer, conn.Endpoint(conn.StdinPort), zsock.Options{Identity: c.Session()})
		if err != nil {
			return
		}
		defer stdin.Close()
		ctx, cancel := context.WithTimeout(context.Background(), hangAfter)
		defer cancel()
		frames, err := stdin.Recv(ctx)
		if err != nil {
			return
		}
		req, err := c.Signer().Decode(frames)
		if err != nil || req == nil {
			return
		}
		reply, _ := wire.NewMessage("input_reply", c.Session(), req, map[string]any{"value": "late"})
		reply.Identities = nil
		out, _ := c.Signer().Encode(reply)
		_ = stdin.Send(out)
		<-replied // the socket closes once the reply has arrived
	}()
	e := execute(t, c, "input", nil)
	close(replied)
	if e.reply["status"] != "ok" || len(e.outputs) != 2 || decode(t, e.outputs[1])["text"] != "got late\n" {
		t.Fatalf("input before stdin connects: %v %v", e.reply, e.types())
	}
}

// A message signed with the wrong key is dropped, never executed.
func TestForgedMessagesAreNotExecuted(t *testing.T) {
	c, engine := start(t)
	forger, _ := wire.NewSigner("not-the-key", "")
	req, _ := wire.NewMessage("execute_request", c.Session(), nil, map[string]any{"code": "print forged"})
	frames, _ := forger.Encode(req)
	forged, _ := c.Signer().Decode(append([][]byte{}, frames...))
	if forged != nil {
		t.Fatal("the test's forged message verifies with the real key")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if _, err := c.CallFrames(ctx, frames, req.Header.MsgID); err == nil {
		t.Fatal("a forged request was answered")
	}
	if e := execute(t, c, "print real", nil); e.reply["status"] != "ok" {
		t.Fatalf("the kernel after a forged message: %v", e.reply)
	}
	for _, code := range engine.executed() {
		if strings.Contains(code, "forged") {
			t.Fatal("the forged cell ran")
		}
	}
}

func TestLargeOutputArrivesWhole(t *testing.T) {
	c, _ := start(t)
	e := execute(t, c, "big 10000000", nil)
	if len(e.outputs) != 2 || len(decode(t, e.outputs[1])["text"].(string)) != 10_000_000 {
		t.Fatalf("10 MB output: %v", e.types())
	}
}

func TestManyQuickExecutes(t *testing.T) {
	c, _ := start(t)
	for i := range 200 {
		e := execute(t, c, "print "+strconv.Itoa(i), nil)
		if e.reply["status"] != "ok" || e.reply["execution_count"] != float64(i+1) {
			t.Fatalf("execute %d: %v", i, e.reply)
		}
	}
	if info := call(t, c, client.Shell, "kernel_info_request", map[string]any{}); info["status"] != "ok" {
		t.Fatal("unhealthy after 200 executes")
	}
}

func TestHistory(t *testing.T) {
	c, _ := start(t)
	for _, code := range []string{"print a", "print b", "print a"} {
		execute(t, c, code, nil)
	}
	entries := func(content map[string]any) []string {
		var out []string
		for _, h := range call(t, c, client.Shell, "history_request", content)["history"].([]any) {
			out = append(out, h.([]any)[2].(string))
		}
		return out
	}
	if got := entries(map[string]any{"hist_access_type": "tail", "n": 2}); strings.Join(got, "|") != "print b|print a" {
		t.Errorf("tail: %v", got)
	}
	if got := entries(map[string]any{"hist_access_type": "range", "session": 0, "start": 1, "stop": 3}); strings.Join(got, "|") != "print a|print b" {
		t.Errorf("range: %v", got)
	}
	if got := entries(map[string]any{"hist_access_type": "search", "pattern": "print a*", "unique": true}); strings.Join(got, "|") != "print a" {
		t.Errorf("search: %v", got)
	}
}

func TestCompleteInspectCommInfo(t *testing.T) {
	c, _ := start(t)
	r := call(t, c, client.Shell, "complete_request", map[string]any{"code": "fmt.Pr", "cursor_pos": 6})
	if r["cursor_start"] != 4.0 || len(r["matches"].([]any)) != 2 {
		t.Errorf("complete: %v", r)
	}
	// JupyterLab reads the matches' kinds from the metadata.
	types, _ := r["metadata"].(map[string]any)["_jupyter_types_experimental"].([]any)
	if len(types) != 2 || fmt.Sprint(types[1]) != "map[end:6 signature:func Printf start:4 text:Printf type:function]" {
		t.Errorf("complete metadata: %v", r["metadata"])
	}
	r = call(t, c, client.Shell, "inspect_request", map[string]any{"code": "fmt.Println", "cursor_pos": 8, "detail_level": 0})
	if r["found"] != true {
		t.Errorf("inspect: %v", r)
	}
	r = call(t, c, client.Shell, "comm_info_request", map[string]any{})
	if r["status"] != "ok" {
		t.Errorf("comm_info: %v", r)
	}
	r = call(t, c, client.Shell, "is_complete_request", map[string]any{"code": "for {"})
	if r["status"] != "incomplete" || r["indent"] != "\t" {
		t.Errorf("is_complete: %v", r)
	}
}

func TestShutdown(t *testing.T) {
	c, _ := start(t)
	r := call(t, c, client.Control, "shutdown_request", map[string]any{"restart": false})
	if r["status"] != "ok" || r["restart"] != false {
		t.Fatalf("shutdown: %v", r)
	}
}

// echoComms is a script engine with comms: it answers every comm message
// with a comm_msg that echoes its data, metadata and buffers, and says so
// on stdout, as a widget's callback prints; a message whose data has
// "fail" fails, as a callback that panics does.
type echoComms struct{ script }

func (e *echoComms) Comm(_ context.Context, m front.CommMessage, out front.Output) error {
	var c struct {
		CommID string         `json:"comm_id"`
		Data   map[string]any `json:"data"`
	}
	_ = json.Unmarshal(m.Content, &c)
	if c.Data["fail"] != nil {
		return fmt.Errorf("the callback of %s panicked", c.CommID)
	}
	out.Stream("stdout", "callback of "+c.CommID+"\n")
	reply, _ := json.Marshal(map[string]any{"comm_id": c.CommID, "data": map[string]any{"echo": m.Type, "was": c.Data}})
	out.Comm(front.CommMessage{Type: "comm_msg", Content: reply, Metadata: m.Metadata, Buffers: m.Buffers})
	return nil
}

// Comm messages go both ways with their metadata and binary buffers; what
// a callback prints goes out in reply to the message that ran it; a
// failing callback leaves the kernel answering; comm_info lists the open
// comms.
func TestCommsGoToTheEngine(t *testing.T) {
	ports := freePorts(t, 5)
	conn := &wire.Connection{Transport: "tcp", IP: "127.0.0.1", Key: "k",
		ShellPort: ports[0], ControlPort: ports[1], StdinPort: ports[2], IOPubPort: ports[3], HBPort: ports[4]}
	k, err := front.New(conn, &echoComms{}, front.Info{Implementation: "tensornb"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = k.Run(ctx) }()
	c, err := client.Dial(ctx, conn)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ready, cancelReady := context.WithTimeout(ctx, hangAfter)
	defer cancelReady()
	if err := c.WaitReady(ready); err != nil {
		t.Fatal(err)
	}
	// What the kernel publishes in reply to each message sent, by its id.
	replies := make(chan *wire.Message, 16)
	c.OnUnclaimed(func(m *wire.Message) { replies <- m })
	send := func(msgType string, data map[string]any, buffers ...[]byte) (echo *wire.Message, printed string) {
		t.Helper()
		m, err := c.NewMessage(msgType, map[string]any{"comm_id": "w1", "target_name": "jupyter.widget", "data": data})
		if err != nil {
			t.Fatal(err)
		}
		m.Metadata = json.RawMessage(`{"version":"2.1.0"}`)
		m.Buffers = buffers
		if err := c.SendMessage(client.Shell, m); err != nil {
			t.Fatal(err)
		}
		for echo == nil {
			select {
			case r := <-replies:
				var parent wire.Header
				_ = json.Unmarshal(r.ParentHeader, &parent)
				if parent.MsgID != m.Header.MsgID {
					t.Fatalf("%s in reply to %q, not to the %s", r.Type(), parent.MsgID, msgType)
				}
				switch r.Type() {
				case "stream":
					printed += decode(t, r)["text"].(string)
				case "comm_msg":
					echo = r
				}
			case <-time.After(hangAfter):
				t.Fatalf("no echo for %s", msgType)
			}
		}
		return echo, printed
	}
	echo, printed := send("comm_open", map[string]any{"x": 1}, []byte{1, 2, 3})
	if got := decode(t, echo)["data"].(map[string]any)["echo"]; got != "comm_open" || printed != "callback of w1\n" {
		t.Fatalf("comm_open: echo %v, printed %q", got, printed)
	}
	if string(echo.Metadata) != `{"version":"2.1.0"}` || len(echo.Buffers) != 1 || string(echo.Buffers[0]) != "\x01\x02\x03" {
		t.Fatalf("comm_open's metadata %s and buffers %v", echo.Metadata, echo.Buffers)
	}
	echo, _ = send("comm_msg", map[string]any{"method": "update"}, []byte("a"), []byte("bc"))
	if len(echo.Buffers) != 2 || string(echo.Buffers[1]) != "bc" {
		t.Fatalf("comm_msg's buffers: %q", echo.Buffers)
	}
	comms := call(t, c, client.Shell, "comm_info_request", map[string]any{})["comms"].(map[string]any)
	if comms["w1"].(map[string]any)["target_name"] != "jupyter.widget" {
		t.Fatalf("comm_info: %v", comms)
	}
	if _, err := c.Send(client.Shell, "comm_msg", map[string]any{"comm_id": "w1", "data": map[string]any{"fail": true}}); err != nil {
		t.Fatal(err)
	}
	if e := execute(t, c, "print still here", nil); e.reply["status"] != "ok" {
		t.Fatalf("after a failing callback: %v", e.reply)
	}
	send("comm_close", map[string]any{})
	if comms := call(t, c, client.Shell, "comm_info_request", map[string]any{})["comms"].(map[string]any); len(comms) != 0 {
		t.Fatalf("comm_info after close: %v", comms)
	}
}

// Past the output limit a cell's text is dropped, cut between characters,
// with a notice when it starts and one that says how much at the end;
// the next cell starts afresh.
func TestOutputLimit(t *testing.T) {
	conn, _ := startKernelWith(t, func(k *front.Kernel) { k.SetOutputLimit(1 << 20) })
	c := dial(t, conn)
	streams := func(e execution) (stdout, stderr string) {
		for _, m := range e.outputs {
			if m.Type() == "stream" {
				content := decode(t, m)
				if content["name"] == "stdout" {
					stdout += content["text"].(string)
				} else {
					stderr += content["text"].(string)
				}
			}
		}
		return stdout, stderr
	}
	e := execute(t, c, "big 700001\nwide 200000\nbig 700000", nil)
	stdout, stderr := streams(e)
	if !utf8.ValidString(stdout) || len(stdout) > 1<<20 || len(stdout) < 1<<20-1 {
		t.Errorf("%d bytes of stdout (valid UTF-8: %t), want the first MiB, cut between characters", len(stdout), utf8.ValidString(stdout))
	}
	if n := strings.Count(stderr, "tensornb:"); n != 2 || !strings.Contains(stderr, "more than 1.0 MiB") ||
		!strings.Contains(stderr, "0.7 MiB of this cell's output was dropped") || !strings.Contains(stderr, "TENSORNB_OUTPUT_LIMIT") {
		t.Errorf("the notices are %q", stderr)
	}
	if e.reply["status"] != "ok" {
		t.Errorf("the cell ended %v", e.reply)
	}
	stdout, stderr = streams(execute(t, c, "big 1000", nil))
	if len(stdout) != 1000 || stderr != "" {
		t.Errorf("the next cell printed %d bytes and %q", len(stdout), stderr)
	}
}

// TestIOPubWelcome checks that each client subscribing to iopub gets an
// iopub_welcome (JEP 65) with no request made: how it knows it will see
// what the kernel publishes next. jupyter_client waits 0.2 s for an iopub
// message after its first kernel_info_reply, and asks again without one.
func TestIOPubWelcome(t *testing.T) {
	conn, _ := startKernel(t)
	signer, err := conn.Signer()
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		sub, err := zsock.Dial(zsock.Sub, conn.Endpoint(conn.IOPubPort), zsock.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer sub.Close()
		ctx, cancel := context.WithTimeout(context.Background(), hangAfter)
		defer cancel()
		for {
			frames, err := sub.Recv(ctx)
			if err != nil {
				t.Fatalf("subscriber %d: no iopub_welcome (%v)", i+1, err)
			}
			m, err := signer.Decode(frames)
			if err != nil {
				t.Fatal(err)
			}
			if m.Type() != "iopub_welcome" {
				continue // the starting status, for the first
			}
			var content map[string]any
			if err := m.Decode(&content); err != nil || content["subscription"] != "" || string(m.ParentHeader) != "{}" {
				t.Errorf("subscriber %d: welcome %s with parent %s (%v), want subscription \"\" and no parent", i+1, m.Content, m.ParentHeader, err)
			}
			break
		}
	}
}
