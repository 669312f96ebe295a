package site

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/tensornb/tensornb/internal/browsertest"
	"github.com/tensornb/tensornb/kernel/internal/browser"
	"github.com/tensornb/tensornb/kernel/internal/browser/lite"
	"github.com/tensornb/tensornb/kernel/internal/interp/worker"
)

const moduleDir = "../../../.."

// The test binary is also the server engine's worker, for the timings of
// the same cells on the server: with TENSORNB_TEST_WORKER set, it serves
// instead of testing.
func TestMain(m *testing.M) {
	if os.Getenv("TENSORNB_TEST_WORKER") != "" {
		if err := worker.Serve(moduleDir, os.NewFile(worker.RequestsFD, "requests"), os.NewFile(worker.EventsFD, "events"), os.NewFile(worker.CrashFD, "crash")); err != nil {
			os.Stderr.WriteString(err.Error())
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// A pageCell is what the page's tnb.cells() gives for a code cell.
type pageCell struct {
	Index   int              `json:"index"`
	Tags    []string         `json:"tags"`
	Outputs []map[string]any `json:"outputs"`
	Reply   map[string]any   `json:"reply"`
	MS      float64          `json:"ms"`
	Wall    float64          `json:"wall"`
	At      float64          `json:"at"`
}

// The site, built and served from loopback, runs every notebook in
// headless Chromium: Run all runs each code cell in the browser's engine,
// and each cell's outputs, as JupyterLab's output area holds them, equal
// the notebook's stored outputs (compared as the notebooks' freshness
// check compares them); the cells tagged raises-exception raise, and no
// other; no page is wider than the window. An exercise in nbgrader's
// format is served as the student's version: its page and JupyterLab
// give what tensornb grade gives for it (outputs, and each test cell's
// verdict with the grader's feedback), and for a right answer and a copy
// typed into one answer cell (exercise), and no file of the site holds a
// line of the teacher's solutions or hidden tests. Then, on one page: a
// cell sees what an earlier one declared, Tab completes a variable and a
// package's names and Shift-Tab inspects, Interrupt ends an endless loop
// (the test logs how soon), after which the next cell replays the cells
// that ran without an error (an interrupt of the replay stops it),
// Restart empties the session, and a cell that takes all memory ends
// with a MemoryError;
// a link to a heading's anchor shows it; the explorer and the playground
// answer a click; and a page opened from a file says why its engine
// cannot start. The same notebooks run
// in the site's JupyterLab (JupyterLite, testLab). A site built from a
// teacher's folder of notebooks (testFolder) runs its nested notebook
// too. The page raises no JavaScript error. The test prints the engine's
// start-up, the first cell's time and the median cell's, beside the same
// cells' median on the server's instant engine; screenshots go to
// artifacts/site/.
func TestSite(t *testing.T) {
	browsertest.Require(t)
	for _, bundled := range []func(string) error{Bundled, lite.Bundled} {
		if err := bundled(moduleDir); err != nil {
			msg := err.Error() + " (scripts/test does it)"
			if os.Getenv("TENSORNB_REQUIRE_BROWSER") != "" {
				t.Fatal(msg)
			}
			t.Skip(msg)
		}
	}
	paths, err := filepath.Glob(filepath.Join(moduleDir, "notebooks", "*.ipynb"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no notebooks (%v)", err)
	}
	notebooks := make([]*Notebook, len(paths))
	for i, path := range paths {
		if notebooks[i], err = ReadNotebook(path); err != nil {
			t.Fatal(err)
		}
	}

	// The server's engine runs the same cells meanwhile, for their times,
	// and is done before the browser starts.
	server := make(chan []float64, 1)
	go func() { server <- serverTimes(notebooks) }()

	dir := t.TempDir()
	start := time.Now()
	if _, err := Write(moduleDir, dir, Options{}); err != nil {
		t.Fatal(err)
	}
	t.Logf("Write: %.1f s", time.Since(start).Seconds())
	// The exercises, served as the student's versions, are graded by
	// tensornb grade meanwhile, as a student's submissions would be.
	exercises := map[string]*exercise{}
	for _, path := range paths {
		ex, err := newExercise(filepath.Dir(path), dir, filepath.Base(path), t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		if ex != nil {
			exercises[ex.rel] = ex
			t.Cleanup(func() { <-ex.done })
		}
	}
	if len(exercises) == 0 {
		t.Fatal("notebooks/ holds no exercise in nbgrader's format")
	}
	srv := httptest.NewServer(Handler(dir))
	t.Cleanup(srv.Close)
	serverMS := <-server

	// The session, and every wait in it, has no bound of its own: a page
	// that never answers runs into go test's -timeout, and a slow one, on
	// a loaded machine, fails nothing (browsertest.StartUntilDeadline).
	ctx := browsertest.StartUntilDeadline(t)
	var browserMS, loadMS, firstMS []float64
	for i, path := range paths {
		nb := notebooks[i]
		name := strings.TrimSuffix(filepath.Base(path), ".ipynb")
		t.Run(name, func(t *testing.T) {
			errs := browsertest.OpenURL(t, ctx, srv.URL+"/"+PageName(filepath.Base(path)))
			var cells []pageCell
			if ex := exercises[filepath.Base(path)]; ex != nil {
				cells = ex.checkPage(t, ctx)
			} else {
				cells = runAll(t, ctx)
				checkOutputs(t, nb, cells)
			}
			// The page makes the editors once the engine started, when idle.
			checkShown(t, ctx, fmt.Sprintf("#tnb-code-%d .cm-content", len(cells)-1), "the last cell's editor is not made")
			if n := evaluate[int](t, ctx, `document.querySelectorAll(".tnb-source").length`); n > 0 {
				t.Errorf("%d cells still show their source instead of an editor", n)
			}
			var ms []float64
			for _, c := range cells {
				ms = append(ms, c.MS)
			}
			browserMS = append(browserMS, ms[1:]...)
			engine := evaluate[struct{ ReadyMS, LoadMS, BuildMS float64 }](t, ctx, "tnb.engine()")
			loadMS = append(loadMS, engine.LoadMS)
			firstMS = append(firstMS, cells[0].At)
			t.Logf("%s: the engine ready %.0f ms after the page's navigation started (%.0f ms after the worker's start); the first cell's reply %.0f ms after the navigation started, %.0f ms after Run all (it ran %.0f ms); median of the other %d cells %.2f ms; the page built its cells in %.0f ms",
				name, engine.LoadMS, engine.ReadyMS, cells[0].At, cells[0].Wall, ms[0], len(ms)-1, browsertest.Median(ms[1:]), engine.BuildMS)
			if name == "02-strides-and-storage" {
				browsertest.CheckExplorerClick(t, ctx)
				checkPlaygroundClick(t, ctx)
			}
			checkLocal(t, ctx, srv.URL)
			if w := evaluate[struct{ Page, Window int }](t, ctx, `({ page: document.documentElement.scrollWidth, window: document.documentElement.clientWidth })`); w.Page > w.Window {
				t.Errorf("the page is %d px wide, wider than the window's %d px", w.Page, w.Window)
			}
			if strings.Contains(string(nb.raw), "$$") {
				// The display math of the markdown, typeset by MathJax,
				// which the page loads on first use.
				checkShown(t, ctx, ".tnb-markdown mjx-container", "the markdown's math is not typeset")
			}
			if strings.Contains(string(nb.raw), `"text/vnd.mermaid"`) {
				// The diagrams, drawn by JupyterLab's Mermaid renderer,
				// which the page loads on first use.
				checkShown(t, ctx, ".jp-RenderedMermaid img[src^='data:image/svg+xml']", "the Mermaid diagrams are not drawn")
			}
			screenshot(t, ctx, name+".png")
			if e := errs.All(); len(e) > 0 {
				t.Errorf("JavaScript errors on the page:\n%s", strings.Join(e, "\n"))
			}
		})
	}
	var names []string
	for _, p := range paths {
		names = append(names, filepath.Base(p))
	}
	t.Run("lab", func(t *testing.T) {
		testLab(t, ctx, srv.URL, filepath.Join(moduleDir, "notebooks"), names, exercises, true)
	})
	if *docsImage && !docsImageWritten {
		t.Errorf("-docs-image wrote nothing: it needs the lab test of 02-strides-and-storage to run (-run 'TestSite$/lab/02')")
	}
	t.Run("index", func(t *testing.T) {
		errs := browsertest.OpenURL(t, ctx, srv.URL+"/")
		links := evaluate[[]string](t, ctx, `Array.from(document.querySelectorAll("li a"), a => a.getAttribute("href"))`)
		var want []string
		for _, p := range paths {
			want = append(want, PageName(filepath.Base(p)))
		}
		if !slices.Equal(links, want) {
			t.Errorf("the index links to %q, want %q", links, want)
		}
		if got, want := evaluate[string](t, ctx, `(document.querySelector("#tnb-lab a") || {}).getAttribute?.("href") || ""`), lite.Dir+"/index.html"; got != want {
			t.Errorf("the index links to JupyterLite at %q, want %q", got, want)
		}
		if e := errs.All(); len(e) > 0 {
			t.Errorf("JavaScript errors on the page:\n%s", strings.Join(e, "\n"))
		}
	})
	t.Run("no solutions", func(t *testing.T) {
		// The site holds the student's version of each exercise: no
		// file of it holds a line of the teacher's solutions or hidden
		// tests.
		for rel := range exercises {
			var others []string
			for _, p := range paths {
				if filepath.Base(p) != rel {
					others = append(others, p)
				}
			}
			checkNoSolutions(t, dir, filepath.Join(moduleDir, "notebooks", rel), others)
		}
	})
	t.Run("opened from a file", func(t *testing.T) {
		// A browser starts no worker for a page opened from a file: the
		// page says what to do, and a cell fails saying it.
		errs := browsertest.Open(t, ctx, filepath.Join(dir, PageName(filepath.Base(paths[0]))))
		status, err := chromedp.Run(ctx, chromedp.Poll[string](`document.body.dataset.engine === "broken" && document.getElementById("tnb-status").textContent`, chromedp.WithPollingTimeout(0)))
		if err != nil {
			t.Fatalf("the page opened from a file does not say its engine could not start: %v", err)
		}
		if !strings.Contains(status, "could not start") || !strings.Contains(status, "scripts/site --serve") {
			t.Errorf("the status line of a page opened from a file says %q", status)
		}
		if out := runCell(t, ctx, 0, "1 + 1"); !strings.Contains(out, "EngineError: the engine could not start") {
			t.Errorf("a cell of a page opened from a file shows %q", out)
		}
		if e := errs.All(); len(e) > 0 {
			t.Errorf("JavaScript errors on the page:\n%s", strings.Join(e, "\n"))
		}
	})
	t.Run("anchors", func(t *testing.T) {
		// A link to a heading's anchor shows the heading below the
		// toolbar, opened from elsewhere or clicked on the page (its ¶,
		// which JupyterLab's CSS shows while the mouse is on the heading).
		errs := browsertest.OpenURL(t, ctx, srv.URL+"/02-strides-and-storage.html#What-a-transpose-does")
		checkHeadingShown(t, ctx, "What-a-transpose-does")
		evaluate[bool](t, ctx, `(document.querySelector('[data-jupyter-id="Handle,-tensor,-storage"] a.jp-InternalAnchorLink').click(), true)`)
		checkHeadingShown(t, ctx, "Handle,-tensor,-storage")
		if e := errs.All(); len(e) > 0 {
			t.Errorf("JavaScript errors on the page:\n%s", strings.Join(e, "\n"))
		}
	})
	t.Run("replay interrupted", func(t *testing.T) {
		// An interrupt during the replay stops it: the cell it was for
		// says so and does not run, and the next cell replays nothing.
		errs := browsertest.OpenURL(t, ctx, srv.URL+"/02-strides-and-storage.html") // a page of more than four code cells
		setEditor(t, ctx, 0, "slow := 1\ntime.Sleep(3 * time.Second)")
		if out := waitRun(t, ctx, 0); out != "" {
			t.Errorf("the slow cell shows %q", out)
		}
		// A cell run while the replay goes on waits for it, and for the
		// cell the replay is for.
		interrupt(t, ctx, 1)
		setEditor(t, ctx, 2, "slow + 1")
		setEditor(t, ctx, 3, "slow + 2")
		clickRun(t, ctx, 2)
		clickRun(t, ctx, 3)
		if out := waitCell(t, ctx, 3); out != "3" {
			t.Errorf("slow + 2, run during the replay, shows %q, want 3", out)
		}
		if out := waitCell(t, ctx, 2); !strings.HasSuffix(out, "a replay runs everything again, sleeps and long loops too.\n\n2") {
			t.Errorf("slow + 1, after the interrupt, shows %q, want the replay's note on the slow cell and 2", out)
		}
		if cells := evaluate[[]pageCell](t, ctx, "tnb.cells()"); cells[3].At < cells[2].At {
			t.Errorf("slow + 2, run during the replay, ended %.0f ms before slow + 1, the cell the replay was for", cells[2].At-cells[3].At)
		}
		// An interrupt during the replay stops it. The page clicks
		// Interrupt itself as soon as the cell says it replays: the
		// replay lasts the slow cell's 3 s, which a click sent from
		// here, a few round trips to a loaded browser later, could miss.
		interrupt(t, ctx, 1)
		clickRun(t, ctx, 2)
		interruptReplay := `new Promise((resolve) => {
			const replaying = () => tnb.cells()[2].outputs.some(o => o.output_type === "stream" && o.text.includes("Replaying"));
			const check = () => replaying() ? resolve(document.getElementById("tnb-interrupt").click() ?? true) : setTimeout(check, 10);
			check();
		})`
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](interruptReplay, chromedp.EvalAwaitPromise)); err != nil {
			t.Fatalf("the cell after the interrupt does not say it replays: %v", err)
		}
		if out := waitCell(t, ctx, 2); !strings.Contains(out, "with outputs hidden… interrupted during In [1].") ||
			!strings.HasSuffix(out, "Interrupted: the replay of the earlier cells was interrupted, so this cell did not run, and what earlier cells declared is gone: run them again") {
			t.Errorf("the cell whose replay was interrupted shows %q", out)
		}
		if out := runCell(t, ctx, 0, "slow"); !strings.Contains(out, "undefined: slow") || strings.Contains(out, "tensornb:") {
			t.Errorf("after the interrupted replay, slow shows %q, want a compile error and no replay", out)
		}
		if e := errs.All(); len(e) > 0 {
			t.Errorf("JavaScript errors on the page:\n%s", strings.Join(e, "\n"))
		}
	})
	t.Run("worker load fails once", func(t *testing.T) {
		// A worker that cannot load its scripts once (a busy machine, a
		// dropped connection) is started again: the cell sent to it
		// runs in the next one. A server that fails the first request
		// for wasm_exec.js after the interrupt makes the load fail.
		var failNext atomic.Bool
		flaky := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, "/wasm_exec.js") {
				// Each worker asks for it, rather than take the cache's.
				w.Header().Set("Cache-Control", "no-store")
				if failNext.CompareAndSwap(true, false) {
					http.Error(w, "busy", http.StatusServiceUnavailable)
					return
				}
			}
			Handler(dir).ServeHTTP(w, r)
		}))
		defer flaky.Close()
		errs := browsertest.OpenURL(t, ctx, flaky.URL+"/02-strides-and-storage.html")
		failNext.Store(true)
		interrupt(t, ctx, 1)
		if out := runCell(t, ctx, 0, "1 + 1"); !strings.HasSuffix(out, "\n\n2") || strings.Contains(out, "EngineError") {
			t.Errorf("the cell after a worker's failed load shows %q, want the replay's note and 2", out)
		}
		if failNext.Load() {
			t.Error("the worker after the interrupt never asked for wasm_exec.js")
		}
		if e := errs.All(); len(e) > 0 {
			t.Errorf("JavaScript errors on the page:\n%s", strings.Join(e, "\n"))
		}
	})
	t.Run("state and interrupt", func(t *testing.T) {
		errs := browsertest.OpenURL(t, ctx, srv.URL+"/"+PageName(filepath.Base(paths[0])))
		if out := runCell(t, ctx, 0, "probe := 41"); out != "" {
			t.Errorf("probe := 41 shows %q", out)
		}
		// Shift-Enter runs a cell, as in Jupyter.
		setEditor(t, ctx, 1, "probe + 1")
		if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS("#tnb-code-1 .cm-content")), chromedp.KeyEvent(kb.Enter, chromedp.KeyModifiers(chromedp.ModifierShift))); err != nil {
			t.Fatal(err)
		}
		if out := waitCell(t, ctx, 1); out != "42" {
			t.Errorf("probe + 1, after probe := 41 in another cell, shows %q, want 42", out)
		}
		checkCompletion(t, ctx, 1)
		interrupt(t, ctx, 2)
		// The engine restarted, and the next cell first replays the cells
		// that ran without an error (In [1] and [2]), as on the server.
		if out := runCell(t, ctx, 1, "probe + 1"); !strings.Contains(out, "tensornb: a cell was interrupted; the interpreter was restarted. Replaying what had run without an error, In [1], [2], with outputs hidden… done in ") || !strings.HasSuffix(out, "\n42") {
			t.Errorf("probe + 1 after the interrupt shows %q, want the replay's note and 42", out)
		}
		if out := runCell(t, ctx, 0, "answer := 6 * 7\nanswer"); out != "42" {
			t.Errorf("6 * 7 after the interrupt shows %q", out)
		}
		// Restart starts an empty session too.
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("tnb-restart"))); err != nil {
			t.Fatal(err)
		}
		if out := runCell(t, ctx, 1, "answer"); !strings.Contains(out, "undefined: answer") {
			t.Errorf("answer after Restart shows %q, want a compile error: undefined: answer", out)
		}
		outOfMemory(t, ctx, 2)
		screenshot(t, ctx, "interrupted.png")
		if e := errs.All(); len(e) > 0 {
			t.Errorf("JavaScript errors on the page:\n%s", strings.Join(e, "\n"))
		}
	})
	t.Run("a teacher's folder", func(t *testing.T) { testFolder(t, ctx) })
	if len(loadMS) > 1 {
		t.Logf("from a page's navigation to its engine's start: %.0f ms for the first page (a fresh browser profile), a median of %.0f ms for the %d others (the browser's caches warm)",
			loadMS[0], browsertest.Median(loadMS[1:]), len(loadMS)-1)
		t.Logf("from a page's navigation to its first cell's reply, Run all clicked once the page loaded: %.0f ms for the first page, a median of %.0f ms for the others",
			firstMS[0], browsertest.Median(firstMS[1:]))
	}
	t.Logf("all notebooks, cells after each notebook's first: median %.2f ms in the browser (%d cells), %.2f ms on the server's instant engine (%d cells)",
		browsertest.Median(browserMS), len(browserMS), browsertest.Median(serverMS), len(serverMS))
	for _, name := range append([]string{browser.EngineFile, lite.Dir + "/build/lab.js"}, bundleFiles...) {
		raw, gz := browsertest.FileSizes(t, filepath.Join(dir, name))
		t.Logf("%s: %.1f MB, %.1f MB gzipped", name, mb(raw), mb(gz))
	}
}

// checkShown waits for the page to show an element that matches
// selector, and reports problem if it never does (by the browser
// session's end).
func checkShown(t *testing.T, ctx context.Context, selector, problem string) {
	t.Helper()
	js := fmt.Sprintf("document.querySelector(%q) !== null", selector)
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](js, chromedp.WithPollingTimeout(0))); err != nil {
		t.Errorf("%s: no %s on the page (%v)", problem, selector, err)
	}
}

// runAll clicks Run all and waits until every code cell has run, and
// returns what the cells hold.
func runAll(t *testing.T, ctx context.Context) []pageCell {
	t.Helper()
	completed, cells := clickRunAll(t, ctx)
	if !completed {
		for _, c := range cells {
			if c.Reply == nil || c.Reply["status"] != "ok" && !slices.Contains(c.Tags, "raises-exception") {
				t.Fatalf("Run all stopped at cell %d: %s", c.Index, jsonText(c.Outputs))
			}
		}
		t.Fatal("Run all stopped")
	}
	return cells
}

// clickRunAll clicks Run all and waits until it has ended, and returns
// whether it ran every code cell (it stops at an error) and what the
// cells hold.
func clickRunAll(t *testing.T, ctx context.Context) (completed bool, cells []pageCell) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("tnb-run-all"))); err != nil {
		t.Fatal(err)
	}
	type state struct{ Done, Completed bool }
	done, err := chromedp.Run(ctx, chromedp.Poll[state]("tnb.lastRunAll() && tnb.lastRunAll().done && tnb.lastRunAll()",
		chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(0)))
	if err != nil {
		t.Fatalf("Run all did not end: %v", err)
	}
	return done.Completed, evaluate[[]pageCell](t, ctx, "tnb.cells()")
}

// checkOutputs compares each code cell's outputs in the page with the
// stored ones.
func checkOutputs(t *testing.T, nb *Notebook, cells []pageCell) {
	t.Helper()
	for _, c := range cells {
		stored := nb.Cells[c.Index]
		tagged := slices.Contains(stored.Tags(), "raises-exception")
		raised := slices.ContainsFunc(c.Outputs, func(o map[string]any) bool { return o["output_type"] == "error" })
		if raised != tagged {
			t.Errorf("cell %d (tagged raises-exception: %v) raised: %v", c.Index, tagged, raised)
		}
		if got, want := Comparable(c.Outputs), Comparable(stored.Outputs); got != want {
			at := mismatch(got, want)
			t.Errorf("cell %d %q: the page's outputs differ from the stored outputs at byte %d:\n%s\nstored:\n%s", c.Index, firstLine(stored.Source), at, around(got, at), around(want, at))
		}
	}
}

// randomIDs are the element ids displays draw at random, and the comm
// ids of widgets' models, as in kernel/internal/notebooktest/testdata/execute.py.
var randomIDs = regexp.MustCompile(`tnb-(?:explorer|playground)-\d+-[0-9a-f]{8}|tensornb-mermaid-[0-9a-f]{16}|"model_id": "[0-9a-f]{32}"`)

// Comparable is execute.py's comparable in Go: the outputs as JSON
// without what changes from run to run (execution counts, transient
// fields, an error's traceback, the displays' random ids), each stream's
// text whole.
func Comparable(outputs []map[string]any) string {
	streams := map[string]string{}
	others := []map[string]any{}
	for _, o := range outputs {
		o = lite.JoinOutput(o)
		if o["output_type"] == "stream" {
			name, _ := o["name"].(string)
			s, _ := o["text"].(string)
			streams[name] += s
			continue
		}
		delete(o, "execution_count")
		delete(o, "transient")
		if o["output_type"] == "error" {
			delete(o, "traceback")
		}
		others = append(others, o)
	}
	data, _ := json.MarshalIndent(map[string]any{"streams": streams, "outputs": others}, "", " ")
	return randomIDs.ReplaceAllString(string(data), "<id>")
}

// runCell types code into code cell i, clicks its Run button and returns
// its outputs' text once it has run: the text/plain of its results and
// displays, its streams and errors (as ENAME: EVALUE).
func runCell(t *testing.T, ctx context.Context, i int, code string) string {
	t.Helper()
	editor := chromedp.CSS("#tnb-code-" + strconv.Itoa(i) + " .cm-content")
	setEditor(t, ctx, i, "")
	if err := chromedp.Do(ctx, chromedp.SendKeys(editor, code)); err != nil {
		t.Fatal(err)
	}
	clickRun(t, ctx, i)
	return waitCell(t, ctx, i)
}

// clickRun clicks code cell i's ▶.
func clickRun(t *testing.T, ctx context.Context, i int) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#tnb-code-"+strconv.Itoa(i)+" .tnb-run"))); err != nil {
		t.Fatal(err)
	}
}

// waitRun clicks code cell i's ▶ and returns its outputs' text once it
// has run.
func waitRun(t *testing.T, ctx context.Context, i int) string {
	t.Helper()
	clickRun(t, ctx, i)
	return waitCell(t, ctx, i)
}

// waitCell waits until code cell i has run and returns its outputs' text
// (see runCell).
func waitCell(t *testing.T, ctx context.Context, i int) string {
	t.Helper()
	ran := "tnb.cells()[" + strconv.Itoa(i) + "].reply !== null"
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](ran, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(0))); err != nil {
		t.Fatalf("code cell %d did not finish: %v", i, err)
	}
	return outputText(evaluate[[]pageCell](t, ctx, "tnb.cells()")[i].Outputs)
}

func outputText(outputs []map[string]any) string {
	var parts []string
	for _, o := range JoinOutputs(outputs) {
		switch o["output_type"] {
		case "stream":
			parts = append(parts, o["text"].(string))
		case "error":
			parts = append(parts, o["ename"].(string)+": "+o["evalue"].(string))
		default:
			if data, ok := o["data"].(map[string]any); ok {
				s, _ := data["text/plain"].(string)
				parts = append(parts, s)
			}
		}
	}
	return strings.Join(parts, "\n")
}

// JoinOutputs is lite.JoinOutput of each output.
func JoinOutputs(outputs []map[string]any) []map[string]any {
	var out []map[string]any
	for _, o := range outputs {
		out = append(out, lite.JoinOutput(o))
	}
	return out
}

// setEditor sets the text of code cell i, once the page is built.
func setEditor(t *testing.T, ctx context.Context, i int, code string) {
	t.Helper()
	js := `window.tnb && (tnb.page.cells[` + strconv.Itoa(i) + `].editor.source = ` + jsString(code) + `, true)`
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](js, chromedp.WithPollingTimeout(0))); err != nil {
		t.Fatal(err)
	}
}

func jsString(s string) string {
	data, _ := json.Marshal(s)
	return string(data)
}

// interrupt runs an endless loop in code cell i, clicks Interrupt and
// checks that the cell ends, saying it was interrupted. How soon it ended
// is logged, not checked: on a loaded machine an honest interrupt may
// take seconds. One that never ends the cell runs into the browser's
// session, which ends with go test's -timeout.
func interrupt(t *testing.T, ctx context.Context, i int) {
	t.Helper()
	setEditor(t, ctx, i, "for {\n}")
	clickRun(t, ctx, i)
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.body.dataset.engine === "busy"`, chromedp.WithPollingTimeout(0))); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond) // the loop is running
	start := time.Now()
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("tnb-interrupt"))); err != nil {
		t.Fatal(err)
	}
	ended := `tnb.cells()[` + strconv.Itoa(i) + `].outputs.some(o => o.output_type === "error" && o.ename === "Interrupted")`
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](ended, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(0))); err != nil {
		t.Fatalf("the interrupted cell shows no Interrupted error: %v", err)
	}
	t.Logf("the endless loop ended %.0f ms after the click on Interrupt", float64(time.Since(start).Milliseconds()))
	status := evaluate[string](t, ctx, `document.getElementById("tnb-status").textContent`)
	if !strings.Contains(status, "interrupted") {
		t.Errorf("after the interrupt the status line says %q", status)
	}
}

// checkCompletion checks, in code cell i, once probe := 41 ran, that Tab
// completes the student's variable in place (one match), lists a
// package's names to pick from (several), and that Shift-Tab shows what
// the engine knows of the variable.
func checkCompletion(t *testing.T, ctx context.Context, i int) {
	t.Helper()
	content := chromedp.CSS("#tnb-code-" + strconv.Itoa(i) + " .cm-content")
	source := `tnb.page.cells[` + strconv.Itoa(i) + `].editor.source`
	press := func(key string, modifiers ...chromedp.Modifier) {
		t.Helper()
		if focused := evaluate[bool](t, ctx, `document.activeElement === document.querySelector("#tnb-code-`+strconv.Itoa(i)+` .cm-content")`); !focused {
			if err := chromedp.Do(ctx, chromedp.Focus(content)); err != nil {
				t.Fatal(err)
			}
		}
		if err := chromedp.Do(ctx, chromedp.KeyEvent(key, chromedp.KeyModifiers(modifiers...))); err != nil {
			t.Fatal(err)
		}
	}
	waitFor := func(js, what string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](js, chromedp.WithPollingTimeout(0))); err != nil {
			t.Errorf("%s: %v (the editor holds %q)", what, err, evaluate[string](t, ctx, source))
		}
	}
	setEditor(t, ctx, i, "x := pro")
	press(kb.Tab)
	waitFor(source+` === "x := probe"`, "Tab after pro, with probe declared, does not complete probe")

	setEditor(t, ctx, i, "fmt.Sprin")
	press(kb.Tab)
	waitFor(`[...document.querySelectorAll(".cm-tooltip-autocomplete li")].map(li => li.textContent).join(" ").includes("Sprintf")`, "Tab after fmt.Sprin does not list fmt.Sprintf")
	// CodeMirror ignores a pick within 75 ms of the list's opening
	// (interactionDelay), which a person's Tab never is.
	time.Sleep(300 * time.Millisecond)
	press(kb.Tab) // Enter picks too, but chromedp sends it as a character as well
	waitFor(source+` === "fmt.Sprint"`, "Tab in the list of fmt.Sprin's completions does not pick the first, Sprint")

	setEditor(t, ctx, i, "probe")
	press(kb.Tab, chromedp.ModifierShift)
	waitFor(`[...document.querySelectorAll(".tnb-inspection")].some(e => e.textContent.includes("int"))`, "Shift-Tab on probe does not show its type")
}

// checkHeadingShown waits until the heading whose anchor is id is at the
// top of the window, below the toolbar.
func checkHeadingShown(t *testing.T, ctx context.Context, id string) {
	t.Helper()
	js := fmt.Sprintf(`(() => {
		const h = document.querySelector('[data-jupyter-id=%q]');
		const bar = document.querySelector(".tnb-toolbar").getBoundingClientRect();
		return h !== null && h.getBoundingClientRect().top >= bar.bottom && h.getBoundingClientRect().top < bar.bottom + 100;
	})()`, id)
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](js, chromedp.WithPollingTimeout(0))); err != nil {
		top := evaluate[float64](t, ctx, fmt.Sprintf(`(document.querySelector('[data-jupyter-id=%q]') || {getBoundingClientRect: () => ({top: -1})}).getBoundingClientRect().top`, id))
		t.Errorf("the heading #%s is not shown below the toolbar (its top at %.0f px): %v", id, top, err)
	}
}

// outOfMemory runs a cell in code cell i that allocates until the engine
// has all the memory WebAssembly can address, and checks that the cell
// ends with a MemoryError, as on the server, and that cells run again
// (in a new engine).
func outOfMemory(t *testing.T, ctx context.Context, i int) {
	t.Helper()
	setEditor(t, ctx, i, "var hoard [][]byte\nfor {\n\thoard = append(hoard, make([]byte, 16<<20))\n}")
	start := time.Now()
	clickRun(t, ctx, i)
	ended := `tnb.cells()[` + strconv.Itoa(i) + `].outputs.some(o => o.output_type === "error")`
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](ended, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(0))); err != nil {
		t.Fatalf("a cell that takes all memory shows no error: %v", err)
	}
	t.Logf("the cell that takes all memory ended %.1f s after it started", time.Since(start).Seconds())
	outputs := evaluate[[]pageCell](t, ctx, "tnb.cells()")[i].Outputs
	const limit = "out of memory (a page's engine has at most 4 GiB, all that WebAssembly can address)"
	if out := outputText(outputs); out != "MemoryError: the cell ran "+limit {
		t.Errorf("a cell that takes all memory shows %q, want a MemoryError", out)
	}
	// Its traceback's last line says what the next cell does, in the
	// server's words.
	if tb := fmt.Sprint(outputs[len(outputs)-1]["traceback"]); !strings.Contains(tb, "The next cell starts a new interpreter and first replays the earlier cells that ran without an error (not this one)") {
		t.Errorf("the MemoryError's traceback is %s", tb)
	}
	// Since the last Restart no cell ran without an error: nothing to replay.
	if out := runCell(t, ctx, 0, "6 * 7"); out != "tensornb: the last cell ran "+limit+"; the interpreter was restarted, and no earlier cell had run without an error, so there was nothing to replay.\n\n42" {
		t.Errorf("6 * 7 after a cell ran out of memory shows %q", out)
	}
}

// checkPlaygroundClick clicks the transpose preset of the first
// playground on the page, whose tensor is named a, and checks the Go line
// it writes.
func checkPlaygroundClick(t *testing.T, ctx context.Context) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`.tnb-playground [data-preset="transpose"]`))); err != nil {
		t.Fatalf("clicking the playground's transpose preset: %v", err)
	}
	if got, want := evaluate[string](t, ctx, `document.querySelector(".tnb-playground .tp-go").textContent`), "a.T()"; got != want {
		t.Errorf("after a click on the transpose preset the playground writes %q, want %q", got, want)
	}
}

// checkLocal checks that the page and its worker loaded nothing from
// anywhere but the site.
func checkLocal(t *testing.T, ctx context.Context, site string) {
	t.Helper()
	loaded := evaluate[[]string](t, ctx, `performance.getEntriesByType("resource").map(e => e.name)`)
	for _, u := range loaded {
		if !strings.HasPrefix(u, site+"/") && !strings.HasPrefix(u, "data:") && !strings.HasPrefix(u, "blob:") {
			t.Errorf("the page loaded %s, which is not in the site", u)
		}
	}
}

// hangAfter bounds each cell the server's engine runs for the tests'
// figures and grading: they take milliseconds, the first of a worker
// (with its start) seconds, tens of them under the race detector on a
// loaded machine. Only a cell that never ends takes minutes, so the
// bound is no timing assertion; it lets the test go on, or fail, saying
// which.
const hangAfter = 5 * time.Minute

// serverTimes runs the code cells of the notebooks on the server's
// instant engine (a worker process, a new one for each notebook) and
// returns the times of the cells after each notebook's first, in ms.
func serverTimes(notebooks []*Notebook) []float64 {
	var ms []float64
	for _, nb := range notebooks {
		e := worker.NewEngine(os.Args[0], "-test.run=^$")
		e.Env = []string{"TENSORNB_TEST_WORKER=1"}
		count := 0
		for _, c := range nb.Cells {
			if c.Type != "code" {
				continue
			}
			count++
			ctx, cancel := context.WithTimeout(context.Background(), hangAfter)
			start := time.Now()
			browser.Execute(ctx, e, c.Source, count, browser.Host{Publish: func(string, map[string]any) {}})
			if count > 1 {
				ms = append(ms, float64(time.Since(start).Microseconds())/1000)
			}
			cancel()
		}
		_ = e.Shutdown(false)
	}
	return ms
}

func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)) // PNG at quality 100
	if err != nil {
		t.Fatal(err)
	}
	browsertest.SaveArtifact(t, filepath.Join("site", name), shot)
}

func evaluate[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

func mb(n int64) float64 { return float64(n) / 1e6 }

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	if len(line) > 60 {
		line = line[:60]
	}
	return line
}

// mismatch is the offset of the first byte where a and b differ.
func mismatch(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}

// around is the part of s around offset at, for the log.
func around(s string, at int) string {
	from, to := max(0, at-300), min(len(s), at+300)
	return "…" + s[from:to] + "…"
}

func jsonText(v any) string {
	data, _ := json.MarshalIndent(v, "", "  ")
	return string(data)
}

// testFolder builds a site from a teacher's folder outside the
// repository (course), leaving out the notebooks with problems, which
// Write names, and checks that the site runs the notebook in the
// folder's sub-folder as it runs the module's notebooks, on its page and
// in JupyterLite, with its outputs equal to the stored ones; that the
// page's links lead to the site's root and to the other notebook's page,
// and that it loads MathJax from the site's root;
// and that the index, titled as asked, links to both good notebooks and
// no other.
func testFolder(t *testing.T, ctx context.Context) {
	src := writeCourse(t)
	dir := t.TempDir()
	problems, err := Write(moduleDir, dir, Options{Notebooks: src, Title: "A course of tensors", SkipProblems: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range problems {
		got = append(got, p.String())
	}
	if !slices.Equal(got, courseProblems) {
		t.Errorf("Write named the problems\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(courseProblems, "\n"))
	}
	for _, name := range []string{"week2/im2col.html", "week3/numpy.html", "files/week2/im2col.ipynb", "files/week3/numpy.ipynb", "api/contents/week3/all.json"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("the site holds %s, of a notebook with problems", name)
		}
	}
	srv := httptest.NewServer(Handler(dir))
	t.Cleanup(srv.Close)

	const nested = "week1/strides.ipynb"
	t.Run("page", func(t *testing.T) {
		nb, err := ReadNotebook(filepath.Join(src, nested))
		if err != nil {
			t.Fatal(err)
		}
		errs := browsertest.OpenURL(t, ctx, srv.URL+"/"+PageName(nested))
		checkOutputs(t, nb, runAll(t, ctx))
		links := evaluate[[]string](t, ctx, `[document.querySelector(".tnb-toolbar a").href, ...Array.from(document.querySelectorAll(".tnb-notebook a[href$='.html']"), a => a.href)]`)
		if want := []string{srv.URL + "/index.html", srv.URL + "/intro.html"}; !slices.Equal(links, want) {
			t.Errorf("the page links to %q, want the index and the intro's page %q", links, want)
		}
		// MathJax, which the page loads on first use from the site's root.
		checkShown(t, ctx, ".tnb-markdown mjx-container", "the markdown's math is not typeset")
		checkLocal(t, ctx, srv.URL)
		screenshot(t, ctx, "folder-week1-strides.png")
		if e := errs.All(); len(e) > 0 {
			t.Errorf("JavaScript errors on the page:\n%s", strings.Join(e, "\n"))
		}
	})
	t.Run("lab", func(t *testing.T) { testLab(t, ctx, srv.URL, src, []string{nested}, nil, false) })
	t.Run("index", func(t *testing.T) {
		errs := browsertest.OpenURL(t, ctx, srv.URL+"/")
		if title := evaluate[string](t, ctx, `document.querySelector("h1").textContent`); title != "A course of tensors" {
			t.Errorf("the index's title is %q", title)
		}
		links := evaluate[[]string](t, ctx, `Array.from(document.querySelectorAll("li a"), a => a.getAttribute("href"))`)
		if want := []string{"intro.html", "week1/strides.html"}; !slices.Equal(links, want) {
			t.Errorf("the index links to %q, want %q", links, want)
		}
		if e := errs.All(); len(e) > 0 {
			t.Errorf("JavaScript errors on the page:\n%s", strings.Join(e, "\n"))
		}
	})
}
