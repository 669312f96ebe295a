//go:build !js

package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tensornb/tensornb/internal/browsertest"
	"github.com/tensornb/tensornb/kernel/internal/interp/compiled"
	"github.com/tensornb/tensornb/kernel/internal/interp/worker"
)

// The test binary is also the server engine's worker, for the reference
// outputs: with TENSORNB_TEST_WORKER set, it serves instead of testing.
func TestMain(m *testing.M) {
	if os.Getenv("TENSORNB_TEST_WORKER") != "" {
		if err := worker.Serve("../../..", os.NewFile(worker.RequestsFD, "requests"), os.NewFile(worker.EventsFD, "events"), os.NewFile(worker.CrashFD, "crash")); err != nil {
			os.Stderr.WriteString(err.Error())
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// cells are run in the browser and by the server's engine, in this order.
var cells = []string{
	"var x = tensor.Float32.Arange(6).View(2, 3)",
	"fmt.Println(x.T().Strides())",
	"fmt.Fprintln(os.Stderr, \"shape\", x.Shape())", // os.Stderr is file descriptor 2
	"x.T()",
	"display.Show(display.Card(x))",
	"display.Update(\"card\", display.Card(x))\ndisplay.Update(\"card\", display.Card(x.T()))",
	"x.View(4)",                         // a refused tensor operation
	"y := x.Undefined()",                // a compile error
	"s := []int{1, 2, 3}\ni := 5\ns[i]", // a runtime panic
	// Generic code, the cells' and the standard library's, lowered.
	"func Map[T, U any](xs []T, f func(T) U) []U {\n\tvar out []U\n\tfor _, x := range xs {\n\t\tout = append(out, f(x))\n\t}\n\treturn out\n}\nfmt.Println(Map(x.Shape(), func(n int) int { return n * n }))",
	"ys := slices.Clone(x.T().Strides())\nslices.Sort(ys)\nfmt.Println(ys, slices.Max(ys), cmp.Compare(2, 1))",
}

// A query is a completion's or an inspection's request, made once the
// cells have run.
type query struct {
	Type        string `json:"type"` // "complete" or "inspect"
	Code        string `json:"code"`
	CursorPos   int    `json:"cursor_pos"`
	DetailLevel int    `json:"detail_level"`
}

// queries ask of a variable an earlier cell defined, a tensor method, and
// a package's function.
var queries = []query{
	{Type: "complete", Code: "x.Tr", CursorPos: 4},
	{Type: "complete", Code: "display.Ca", CursorPos: 10},
	{Type: "complete", Code: "fmt.Sprintln(x", CursorPos: 14},
	{Type: "inspect", Code: "x", CursorPos: 1},
	{Type: "inspect", Code: "x.Transpose(0, 1)", CursorPos: 5},
	{Type: "inspect", Code: "display.Card(x)", CursorPos: 10},
	{Type: "complete", Code: "http.G", CursorPos: 6}, // a package the browser does not have
}

// browserCells are run in the browser after the queries, apart from the
// server: the browser refuses the standard packages it does not have,
// imported or not, naming them, sends what the interpreter cannot run to
// the kernel in Jupyter (which has GoNB), and runs the packages it has, slices and
// encoding/json among them, and those whose tables it makes as a cell
// first imports them (strings, time, strconv, math).
var browserCells = []struct{ code, evalue string }{
	{`import "net/http"`, "cell line 1: package net/http is not in the browser's engine, which has tensor, display and, of the standard library, only bufio, bytes, "},
	{"b, err := json.Marshal(1)\nfmt.Println(string(b), err, http.StatusOK)", "cell line 2: package net/http is not in the browser's engine"},
	{"import \"slices\"\nb, _ := json.Marshal(x.Shape())\nstring(b)", ""},
	{"defer fmt.Println(1)", "cell line 1: the instant engine cannot run a defer at the top level of a cell (it would run at the end of its statement, not of the cell; put it in a function); the tensornb kernel in Jupyter compiles it with GoNB when %%gonb is the cell's first line"},
	{"strings.ToUpper(\"ab\") + (3 * time.Second).String() + strconv.Itoa(int(math.Sqrt(16)))", ""},
}

// warmCell is run again and again once the cells have run, for the
// median time of a cell.
const warmCell = "x.T().Strides()"

// A message is an iopub message, as the page receives it.
type message struct {
	MsgType string         `json:"msg_type"`
	Content map[string]any `json:"content"`
}

// A cellRun is what the page's runCell returns for a cell.
type cellRun struct {
	IOPub      []message      `json:"iopub"`
	Reply      map[string]any `json:"reply"`
	MS         float64        `json:"ms"`
	SinceStart float64        `json:"sinceStart"`
}

// The instant engine, built for js/wasm and run in a Web Worker of
// headless Chromium, gives the same iopub messages and execute_replies
// as the server's engine (a worker process, through the same Execute)
// for the same cells: state kept from cell to cell, stdout, a result, a
// display, and errors (a tensor's, a compile error, a panic); and its
// verdicts of exercises' test cells are Verdict's. The test prints the
// engine's size and how long the first cell and a warm one take.
func TestCellsInABrowser(t *testing.T) {
	browsertest.Require(t) // before the build, which may take a minute or two

	// The server's engine runs the cells meanwhile, and is done before the
	// browser starts, not to slow it down.
	e := worker.NewEngine(os.Args[0], "-test.run=^$")
	e.Env = []string{"TENSORNB_TEST_WORKER=1"}
	t.Cleanup(func() { _ = e.Shutdown(false) })
	reference := make(chan []cellRun, 1)
	var wantReplies []map[string]any
	go func() {
		runs := runOnServer(e)
		wantReplies = askServer(e)
		reference <- runs
	}()

	dir := t.TempDir()
	start := time.Now()
	if err := Build("../../..", dir); err != nil {
		t.Fatal(err)
	}
	t.Logf("Build: %.1f s", time.Since(start).Seconds())
	page, err := os.ReadFile("testdata/index.html")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "index.html"), page, 0o644); err != nil {
		t.Fatal(err)
	}
	served := &servedBytes{}
	srv := httptest.NewServer(served.count(http.FileServer(http.Dir(dir))))
	t.Cleanup(srv.Close)

	want := <-reference
	_ = e.Shutdown(false)

	// The session, and every wait in it, has no bound of its own: a page
	// that never answers runs into go test's -timeout, and a slow one, on
	// a loaded machine, fails nothing (browsertest.StartUntilDeadline).
	ctx := browsertest.StartUntilDeadline(t)
	errs := browsertest.OpenURL(t, ctx, srv.URL+"/") // index.html
	var got []cellRun
	for _, code := range cells {
		run, err := chromedp.Run(ctx, chromedp.Evaluate[cellRun]("runCell("+jsString(code)+")", chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("cell %q in the browser: %v (page errors: %q)", code, err, errs.All())
		}
		if len(got) == 0 {
			served.snapshot()
		}
		got = append(got, run)
	}
	for _, c := range browserCells {
		run, err := chromedp.Run(ctx, chromedp.Evaluate[cellRun]("runCell("+jsString(c.code)+")", chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("cell %q in the browser: %v", c.code, err)
		}
		evalue, _ := run.Reply["evalue"].(string)
		switch {
		case c.evalue == "" && run.Reply["status"] != "ok":
			t.Errorf("cell %q: %s", c.code, jsonText(run.Reply))
		case c.evalue != "" && (run.Reply["ename"] != "Unsupported" || !strings.HasPrefix(evalue, c.evalue)):
			t.Errorf("cell %q: %s; want Unsupported: %s…", c.code, jsonText(run.Reply), c.evalue)
		}
	}
	checkOutputLimit(t, ctx)
	var warm []float64
	for range 21 {
		run, err := chromedp.Run(ctx, chromedp.Evaluate[cellRun]("runCell("+jsString(warmCell)+")", chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("cell %q in the browser: %v", warmCell, err)
		}
		warm = append(warm, run.MS)
	}
	var replies []map[string]any
	for _, q := range queries {
		reply, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]any]("ask("+jsonText(q)+")", chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("%s %q in the browser: %v", q.Type, q.Code, err)
		}
		replies = append(replies, reply)
	}
	checkVerdicts(t, ctx)
	started, err := chromedp.Run(ctx, chromedp.Evaluate[struct{ Ready, Compiled, Init, Session, Warm float64 }]("engine"))
	if err != nil {
		t.Fatal(err)
	}

	for i, code := range cells {
		g, w := normalize(t, got[i].IOPub), normalize(t, want[i].IOPub)
		if !reflect.DeepEqual(g, w) {
			t.Errorf("cell %q: the browser's outputs\n%s\nthe server's\n%s", code, jsonText(g), jsonText(w))
		}
		if gr, wr := roundTrip(t, got[i].Reply), roundTrip(t, want[i].Reply); !reflect.DeepEqual(gr, wr) {
			t.Errorf("cell %q: the browser's reply\n%s\nthe server's\n%s", code, jsonText(gr), jsonText(wr))
		}
	}
	checkCells(t, got)
	checkReplies(t, replies, wantReplies)
	if e := errs.All(); len(e) > 0 {
		t.Errorf("the page's errors: %q", e)
	}

	raw, gz := browsertest.FileSizes(t, filepath.Join(dir, EngineFile))
	exportsRaw, exportsGz, exportsN := dirSizes(t, filepath.Join(dir, ExportsDir))
	docsRaw, docsGz, _ := dirSizes(t, filepath.Join(dir, DocsDir))
	t.Logf("%s: %.1f MB, %.1f MB gzipped; export data: %d packages, %.1f MB, %.1f MB gzipped file by file; doc comments: %.1f MB, %.1f MB gzipped",
		EngineFile, mb(raw), mb(gz), exportsN, mb(exportsRaw), mb(exportsGz), mb(docsRaw), mb(docsGz))
	t.Logf("fetched before the first cell's result: %s", served.before)
	t.Logf("from the worker's start: the engine fetched and compiled at %.0f ms, Go initialized at %.0f ms, the session made at %.0f ms, fmt, tensor and display imported for its checker at %.0f ms (ready at %.0f ms); the first cell's result at %.0f ms (the page's clock, from the worker's creation)",
		started.Compiled, started.Init, started.Session, started.Warm, started.Ready, got[0].SinceStart)
	t.Logf("so: fetch and compile %.0f ms, Go's initialization %.0f ms, the session %.0f ms, the warm imports %.0f ms, the first cell %.0f ms",
		started.Compiled, started.Init-started.Compiled, started.Session-started.Init, started.Warm-started.Session, got[0].SinceStart-started.Ready)
	for i, code := range cells {
		t.Logf("cell %d, %.0f ms: %q", i+1, got[i].MS, code)
	}
	t.Logf("median of %d runs of %q: %.2f ms (from the page's message to the reply)", len(warm), warmCell, browsertest.Median(warm))
}

// checkOutputLimit runs a cell that prints 9 MiB in the browser: it
// shows the first 8 MiB (OutputLimit), then says that the rest is
// dropped, and at its end how much was.
func checkOutputLimit(t *testing.T, ctx context.Context) {
	t.Helper()
	code := "chunk := strings.Repeat(\"tensors\\n\", 1<<17) // 1 MiB\nfor i := 0; i < 9; i++ {\n\tfmt.Print(chunk)\n}"
	run, err := chromedp.Run(ctx, chromedp.Evaluate[cellRun]("runCell("+jsString(code)+")", chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("cell %q in the browser: %v", code, err)
	}
	var stdout, stderr strings.Builder
	for _, m := range run.IOPub {
		if m.MsgType != "stream" {
			continue
		}
		text, _ := m.Content["text"].(string)
		if m.Content["name"] == "stdout" {
			stdout.WriteString(text)
		} else {
			stderr.WriteString(text)
		}
	}
	if run.Reply["status"] != "ok" || stdout.Len() != OutputLimit || strings.Trim(stdout.String(), "tensor\n") != "" {
		t.Errorf("a cell that printed 9 MiB: status %v, %d bytes of stdout, want %d of it", run.Reply["status"], stdout.Len(), OutputLimit)
	}
	if !strings.Contains(stderr.String(), "this cell printed more than 8.0 MiB; what it prints from here on is dropped") ||
		!strings.Contains(stderr.String(), "tensornb: 1.0 MiB of this cell's output was dropped, past the limit of 8.0 MiB.") {
		t.Errorf("a cell that printed 9 MiB: stderr %q, want the notices of the output limit", stderr.String())
	}
}

// checkVerdicts asks the worker for the verdicts of verdictCases' cells,
// as the pages' self-check does: each is Verdict's, Go's rule, which the
// engine in the browser runs.
func checkVerdicts(t *testing.T, ctx context.Context) {
	t.Helper()
	for _, c := range verdictCases {
		nbgrader := c.nbgrader
		if nbgrader == "" {
			nbgrader = "undefined"
		}
		request := `ask({type: "verdict", nbgrader: ` + nbgrader + `, outputs: ` + c.outputs + `})`
		reply, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]any](request, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("%s in the browser: %v", request, err)
		}
		if got := jsonText(reply["verdict"]); reply["status"] != "ok" || !sameJSON(t, got, c.want) {
			t.Errorf("%s in the browser: %s, want the verdict %s", request, jsonText(reply), c.want)
		}
	}
}

// hangAfter bounds each cell and query of the server's engine: they take
// milliseconds, the first cell (with the worker's start) seconds, tens of
// them under the race detector on a loaded machine. Only one that never
// ends takes minutes, so the bound is no timing assertion; it makes such
// a cell's reply an error, which the comparison with the browser's shows.
const hangAfter = 5 * time.Minute

// runOnServer runs the cells on the server's engine, a worker process.
func runOnServer(e *worker.Engine) []cellRun {
	var runs []cellRun
	for i, code := range cells {
		ctx, cancel := context.WithTimeout(context.Background(), hangAfter)
		var run cellRun
		run.Reply = Execute(ctx, e, code, i+1, Host{Publish: func(msgType string, content map[string]any) {
			run.IOPub = append(run.IOPub, message{MsgType: msgType, Content: content})
		}})
		cancel()
		runs = append(runs, run)
	}
	return runs
}

// askServer asks the queries of the server's engine, after the cells.
func askServer(e *worker.Engine) []map[string]any {
	var replies []map[string]any
	for _, q := range queries {
		ctx, cancel := context.WithTimeout(context.Background(), hangAfter)
		if q.Type == "complete" {
			replies = append(replies, Complete(ctx, e, q.Code, q.CursorPos))
		} else {
			replies = append(replies, Inspect(ctx, e, q.Code, q.CursorPos, q.DetailLevel))
		}
		cancel()
	}
	return replies
}

// checkReplies compares the browser's replies to the queries with the
// server's: the same (an inspection of a compiled package's name with
// the doc comment the server reads in the package's source, and the
// browser in what Build wrote), but that the browser's completions do
// not name the packages it does not have, and that it completes no name
// of such a package.
func checkReplies(t *testing.T, got, want []map[string]any) {
	t.Helper()
	for i, q := range queries {
		g, w := roundTrip(t, got[i]), roundTrip(t, want[i])
		switch {
		case q.Type == "complete" && !strings.HasPrefix(q.Code, "http."):
			w = onlyBrowserPackages(t, w)
		case q.Type == "inspect" && q.Code != "x":
			data, _ := w["data"].(map[string]any)
			plain, _ := data["text/plain"].(string)
			if _, doc, _ := strings.Cut(plain, "\n\n"); doc == "" {
				t.Errorf("inspect %q: the server gave no doc comment: %s", q.Code, jsonText(w))
			}
		case strings.HasPrefix(q.Code, "http."):
			if m, _ := w["matches"].([]any); len(m) == 0 {
				t.Errorf("complete %q: the server has no matches: %s", q.Code, jsonText(w))
			}
			if m, _ := g["matches"].([]any); len(m) != 0 || g["status"] != "ok" {
				t.Errorf("complete %q: the browser's reply %s; want no matches", q.Code, jsonText(g))
			}
			continue
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s %q: the browser's reply\n%s\nwant\n%s", q.Type, q.Code, jsonText(g), jsonText(w))
		}
	}
	for i, q := range queries {
		if q.Type != "complete" || strings.HasPrefix(q.Code, "http.") {
			continue // an inspection, or a package the browser lacks
		}
		if m, _ := got[i]["matches"].([]any); len(m) == 0 {
			t.Errorf("complete %q: no matches", q.Code)
		}
	}
}

// onlyBrowserPackages drops from a complete_reply the packages that the
// browser's engine does not have.
func onlyBrowserPackages(t *testing.T, reply map[string]any) map[string]any {
	t.Helper()
	matches, _ := reply["matches"].([]any)
	metadata, _ := reply["metadata"].(map[string]any)
	types, _ := metadata["_jupyter_types_experimental"].([]any)
	if len(types) != len(matches) {
		return reply
	}
	browserPackages := compiled.BrowserPackages()
	var keptMatches, keptTypes []any
	for i, m := range types {
		mt, _ := m.(map[string]any)
		if mt["type"] == "module" {
			signature, _ := mt["signature"].(string) // package NAME "PATH"
			path, err := strconv.Unquote(signature[strings.Index(signature, `"`):])
			if err != nil {
				t.Fatalf("a package's signature %q: %v", signature, err)
			}
			if !slices.Contains(browserPackages, path) {
				continue
			}
		}
		keptMatches, keptTypes = append(keptMatches, matches[i]), append(keptTypes, m)
	}
	reply["matches"] = append([]any{}, keptMatches...)
	metadata["_jupyter_types_experimental"] = keptTypes
	if len(keptTypes) == 0 {
		delete(metadata, "_jupyter_types_experimental")
	}
	return roundTrip(t, reply)
}

// checkCells checks what the cells gave, apart from the reference: the
// outputs a person expects to see.
func checkCells(t *testing.T, runs []cellRun) {
	t.Helper()
	text := func(i int) string {
		var b strings.Builder
		for _, m := range runs[i].IOPub {
			switch m.MsgType {
			case "stream":
				b.WriteString(m.Content["name"].(string) + ": " + m.Content["text"].(string))
			case "execute_result", "display_data", "update_display_data":
				data, _ := m.Content["data"].(map[string]any)
				b.WriteString(m.MsgType + ": " + strings.Join(mimeTypes(data), " ") + "\n")
			case "error":
				b.WriteString("error: " + m.Content["ename"].(string) + ": " + m.Content["evalue"].(string) + "\n")
			}
		}
		return b.String()
	}
	want := []string{
		"",
		"stdout: (1, 3)\n",
		"stderr: shape (2, 3)\n",
		"execute_result: text/html text/plain\n",
		"display_data: image/svg+xml text/html text/plain\n",
		"display_data: image/svg+xml text/html text/plain\nupdate_display_data: image/svg+xml text/html text/plain\n",
		"error: RuntimeError: shape '[4]' is invalid for input of size 6\n",
		"error: CompileError: cell line 1: x.Undefined undefined (type *tensor.Tensor has no field or method Undefined)\n",
		"error: panic: runtime error: index out of range [5] with length 3\n",
		"stdout: [4 9]\n",
		"stdout: (1, 3) 3 1\n", // slices.Clone keeps the type of the strides, which prints itself
	}
	for i := range want {
		if got := text(i); got != want[i] {
			t.Errorf("cell %q gave\n%s\nwant\n%s", cells[i], got, want[i])
		}
	}
	for i, run := range runs {
		status, count := run.Reply["status"], run.Reply["execution_count"]
		if wantStatus := map[bool]string{true: "error", false: "ok"}[strings.HasPrefix(want[i], "error")]; status != wantStatus || count != float64(i+1) {
			t.Errorf("cell %q: reply status %v, execution_count %v; want %s, %d", cells[i], status, count, wantStatus, i+1)
		}
	}
}

func mimeTypes(data map[string]any) []string {
	var types []string
	for k := range data {
		types = append(types, k)
	}
	slices.Sort(types)
	return types
}

// normalize makes messages comparable: decoded from JSON, as the page
// has them, with the text of consecutive stream messages of one stream
// joined, as Jupyter's clients join them (where a server's cell prints
// is cut in pieces by a pipe, the browser's is not).
func normalize(t *testing.T, ms []message) []message {
	t.Helper()
	var out []message
	for _, m := range ms {
		m.Content = roundTrip(t, m.Content)
		if n := len(out); n > 0 && m.MsgType == "stream" && out[n-1].MsgType == "stream" && out[n-1].Content["name"] == m.Content["name"] {
			out[n-1].Content["text"] = out[n-1].Content["text"].(string) + m.Content["text"].(string)
			continue
		}
		out = append(out, m)
	}
	return out
}

func roundTrip(t *testing.T, v map[string]any) map[string]any {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	return back
}

func jsonText(v any) string {
	data, _ := json.MarshalIndent(v, "", "  ")
	return string(data)
}

func jsString(s string) string {
	data, _ := json.Marshal(s)
	return string(data)
}

// servedBytes counts what the test's server sent, and keeps a summary of
// it at a moment (the first cell's result).
type servedBytes struct {
	mu     sync.Mutex
	paths  []string
	bytes  int64
	before string
}

func (s *servedBytes) count(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cw := &countingWriter{ResponseWriter: w}
		h.ServeHTTP(cw, r)
		s.mu.Lock()
		s.paths = append(s.paths, r.URL.Path)
		s.bytes += cw.n
		s.mu.Unlock()
	})
}

func (s *servedBytes) snapshot() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.before = fmt.Sprintf("%.1f MB uncompressed, %s", mb(s.bytes), strings.Join(s.paths, " "))
}

type countingWriter struct {
	http.ResponseWriter
	n int64
}

func (w *countingWriter) Write(p []byte) (int, error) {
	n, err := w.ResponseWriter.Write(p)
	w.n += int64(n)
	return n, err
}

// dirSizes sums fileSizes over the files under dir.
func dirSizes(t *testing.T, dir string) (raw, gz int64, files int) {
	t.Helper()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		r, g := browsertest.FileSizes(t, path)
		raw, gz, files = raw+r, gz+g, files+1
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return raw, gz, files
}

func mb(n int64) float64 { return float64(n) / 1e6 }
