package site

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/storage"
	"github.com/chromedp/chromedp"

	"github.com/tensornb/tensornb/internal/browsertest"
	"github.com/tensornb/tensornb/kernel/internal/browser/lite"
)

// docsImage makes the lab test write the README's picture,
// docs/images/jupyterlab.png: what JupyterLab shows of
// 02-strides-and-storage once its cells ran and a cell of its explorer
// was clicked. docs/testing.md says how to run it.
var docsImage = flag.Bool("docs-image", false, "write the README's screenshot, docs/images/jupyterlab.png (with -run 'TestSite$/lab/02')")

// docsImageWritten says that writeDocsImage ran.
var docsImageWritten bool

// docsImageFile is where -docs-image writes, from the package's directory.
var docsImageFile = filepath.Join(moduleDir, "docs", "images", "jupyterlab.png")

// A labCell is what tnbLabTest.cells() gives for a code cell: what a
// page gives, and how many outputs JupyterLab shows.
type labCell struct {
	pageCell
	Shown int `json:"shown"`
}

// testLab opens each notebook of the folder src at rels (paths relative
// to it, with slashes, as the site keeps them) in the site's JupyterLite
// app, served at site, runs all its cells with JupyterLab's Run All Cells
// through the tensornb kernel, and checks that each cell's outputs, as
// the kernel sent them, equal the stored ones (with an error exactly in
// the cells tagged raises-exception: they do not stop Run all) and that
// JupyterLab shows them. An exercise among exercises (by path) is the
// student's version, checked as exercise.checkLab says instead. With session, on the first notebook it also
// checks that a cell sees what an earlier one declared and that
// interrupting an endless loop ends it (the test logs how soon), after
// which the next cell replays the earlier ones. No page raises a JavaScript error or
// loads a file from elsewhere, or asks for one the site lacks.
func testLab(t *testing.T, ctx context.Context, site, src string, rels []string, exercises map[string]*exercise, session bool) {
	for i, rel := range rels {
		nb, err := ReadNotebook(filepath.Join(src, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		name := rel
		t.Run(strings.TrimSuffix(name, ".ipynb"), func(t *testing.T) {
			// Each notebook opens as on a first visit: JupyterLite keeps the
			// open tabs (each with its kernel) and edited files in the
			// browser's storage, which is cleared. No page of the site may
			// be open meanwhile: a database it holds open would hold up
			// its deletion, and the next page's app with it (the app did
			// not start within a minute once, in CI).
			clear := chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
				_, err := cdp.Call(ctx, target, storage.ClearDataForOrigin, storage.ClearDataForOriginParams{Origin: site, StorageTypes: "all"})
				return err
			})
			if err := chromedp.Do(ctx, chromedp.Navigate("about:blank"), clear); err != nil {
				t.Fatalf("clearing the site's storage in the browser: %v", err)
			}
			start := time.Now()
			errs := browsertest.OpenURL(t, ctx, site+"/"+lite.NotebookURL(name))
			if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.body.dataset.tnbLab === "restored" || (document.body.dataset.tnbLab === "failed" && (() => { throw new Error("the app did not start") })())`,
				chromedp.WithPollingTimeout(0))); err != nil {
				t.Fatalf("JupyterLite did not start: %v\n%s", err, strings.Join(errs.All(), "\n"))
			}
			evaluate[bool](t, ctx, browsertest.LabJS)
			kernel, err := chromedp.Run(ctx, chromedp.Evaluate[string](`tnbLabTest.open(`+jsString(name)+`)`, chromedp.EvalAwaitPromise))
			if err != nil {
				t.Fatalf("opening %s: %v\n%s", name, err, strings.Join(errs.All(), "\n"))
			}
			if kernel != lite.KernelName {
				t.Fatalf("%s opened with the kernel %q, want %q", name, kernel, lite.KernelName)
			}
			opened := time.Since(start)
			// A notebook left changed would make the next navigation wait
			// for an answer to JupyterLab's question, even after a failure.
			defer func() {
				_, _ = chromedp.Run(ctx, chromedp.Evaluate[bool]("window.tnbLabTest ? tnbLabTest.leave() : true"))
			}()
			restored := evaluate[float64](t, ctx, "window.tnbLabRestoredMS")
			if ex := exercises[name]; ex != nil {
				ex.checkLab(t, ctx)
				t.Logf("%s: JupyterLab started %.1f s after the navigation, the notebook was open with its kernel %.1f s after it; its cells and the self-check took %.1f s more",
					name, restored/1000, opened.Seconds(), time.Since(start).Seconds()-opened.Seconds())
			} else {
				runAllLab(t, ctx)
				cells := evaluate[[]labCell](t, ctx, "tnbLabTest.cells()")
				if n := evaluate[int](t, ctx, "tnbLabTest.requests()"); n != len(cells) {
					t.Fatalf("Run All Cells sent the kernel %d of the %d code cells: the client dropped the rest after an error (see MutexMap in kernel/internal/browser/lite/web/kernel.js)", n, len(cells))
				}
				t.Logf("%s: JupyterLab started %.1f s after the navigation, the notebook was open with its kernel %.1f s after it; Run All Cells took %.1f s more",
					name, restored/1000, opened.Seconds(), time.Since(start).Seconds()-opened.Seconds())
				for _, c := range cells {
					if (c.Shown == 0) != (len(c.Outputs) == 0) {
						t.Errorf("cell %d: the kernel sent %d outputs, JupyterLab shows %d", c.Index, len(c.Outputs), c.Shown)
					}
					tagged := slices.Contains(c.Tags, "raises-exception")
					if status, _ := c.Reply["status"].(string); (status == "ok") == tagged {
						t.Errorf("cell %d (tagged raises-exception: %v) replied %q", c.Index, tagged, status)
					}
				}
				checkOutputs(t, nb, labPage(cells))
			}
			// JupyterLab's renderers draw the notebook: the markdown's display
			// math typeset by MathJax, the Mermaid diagrams drawn by Mermaid
			// (the notebook draws its cells as they come into view: these
			// wait a little).
			raw := string(nb.raw)
			for _, want := range []struct{ in, selector, what string }{
				{`$$`, "mjx-container", "the markdown's math is not typeset by MathJax"},
				{`text/vnd.mermaid`, ".jp-RenderedMermaid figure[data-jp-mermaid-version] img", "no Mermaid diagram is drawn"},
			} {
				if !strings.Contains(raw, want.in) {
					continue
				}
				if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`tnbLabTest.count(`+jsString(want.selector)+`) > 0`, chromedp.WithPollingTimeout(0))); err != nil {
					t.Errorf("%s (%v)", want.what, err)
				}
			}
			if session && i == 0 {
				checkLabSession(t, ctx)
			}
			if name == "02-strides-and-storage.ipynb" {
				// Run all left the notebook scrolled to its end; the
				// explorer is brought into view first, as a reader would
				// scroll to it, and clicked once the notebook (which lays
				// out the cells that come into view) has stopped moving.
				if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`tnbLabTest.scrollTo(".tnb-explorer")`, chromedp.EvalAwaitPromise)); err != nil {
					t.Fatalf("scrolling to the explorer: %v", err)
				}
				browsertest.CheckExplorerClick(t, ctx)
				if *docsImage {
					writeDocsImage(t, ctx)
				}
			}
			checkLocal(t, ctx, site)
			// Every file the app asks for is in the site.
			if missing := evaluate[[]string](t, ctx, `performance.getEntriesByType("resource").filter(e => e.responseStatus >= 400).map(e => e.responseStatus + " " + e.name)`); len(missing) > 0 {
				t.Errorf("the app asked for files the site does not have:\n%s", strings.Join(missing, "\n"))
			}
			screenshot(t, ctx, "lab-"+strings.ReplaceAll(strings.TrimSuffix(name, ".ipynb"), "/", "-")+".png")
			if e := errs.All(); len(e) > 0 {
				t.Errorf("JavaScript errors on the page:\n%s", strings.Join(e, "\n"))
			}
			if session && i == 0 {
				checkLabRevisit(t, ctx, site, name)
			}
		})
	}
}

// checkLabRevisit opens the notebook at name again, in the same
// browser, with its storage kept: the workspace JupyterLab saved
// restores the notebook's tab, the app opens ?path= as soon as it has
// started (openearly.js) and JupyterLite's router opens it too, and the
// notebook must still be open in one tab only.
func checkLabRevisit(t *testing.T, ctx context.Context, site, name string) {
	t.Helper()
	evaluate[bool](t, ctx, "tnbLabTest.leave()")
	errs := browsertest.OpenURL(t, ctx, site+"/"+lite.NotebookURL(name))
	// The router removes ?path= from the address once it has opened the
	// file, its last step.
	routed := `document.body.dataset.tnbLab === "restored" && !new URLSearchParams(location.search).has("path")`
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](routed, chromedp.WithPollingTimeout(0))); err != nil {
		t.Fatalf("the second visit of %s was not routed: %v\n%s", name, err, strings.Join(errs.All(), "\n"))
	}
	open := `Array.from(jupyterapp.shell.widgets("main")).filter((w) => w.context && w.context.path === ` + jsString(name) + `).length`
	if n := evaluate[int](t, ctx, open); n != 1 {
		t.Errorf("visited again, %s is open in %d tabs, want 1", name, n)
	}
	evaluate[bool](t, ctx, browsertest.LabJS)
	evaluate[bool](t, ctx, "tnbLabTest.leave()")
	if e := errs.All(); len(e) > 0 {
		t.Errorf("JavaScript errors on the page, visited again:\n%s", strings.Join(e, "\n"))
	}
}

// runAllLab runs all cells of the open notebook with JupyterLab's Run
// All Cells and waits until it has ended.
func runAllLab(t *testing.T, ctx context.Context) {
	t.Helper()
	evaluate[bool](t, ctx, "tnbLabTest.runAll()")
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool]("tnbLabTest.done()", chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(0))); err != nil {
		t.Fatalf("Run All Cells did not end: %v\n%s", err, jsonText(evaluate[[]labCell](t, ctx, "tnbLabTest.cells()")))
	}
}

// checkLabSession checks, on the open notebook's kernel, that a cell
// sees what an earlier one declared, that the kernel completes and
// inspects names, and that an interrupt ends an endless loop (how soon
// is logged, not checked: a loaded machine makes an honest interrupt
// slow), after which the next cell first replays the cells that ran
// without an error, as the server's instant engine does.
func checkLabSession(t *testing.T, ctx context.Context) {
	t.Helper()
	exec := func(code string) string {
		out, err := chromedp.Run(ctx, chromedp.Evaluate[string](`tnbLabTest.execute(`+jsString(code)+`)`, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("running %q: %v", code, err)
		}
		return out
	}
	if out := exec("probe := 41"); out != "" {
		t.Errorf("probe := 41 shows %q", out)
	}
	if out := exec("probe + 1"); out != "42" {
		t.Errorf("probe + 1, after probe := 41 in another cell, shows %q, want 42", out)
	}
	matches, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`tnbLabTest.complete("display.Ca")`, chromedp.EvalAwaitPromise))
	if err != nil || !slices.Contains(matches, "Card") {
		t.Errorf("completing display.Ca: %q (%v), want Card among the matches", matches, err)
	}
	doc, err := chromedp.Run(ctx, chromedp.Evaluate[string](`tnbLabTest.inspect("display.Card")`, chromedp.EvalAwaitPromise))
	if err != nil || !strings.Contains(doc, "func Card") {
		t.Errorf("inspecting display.Card: %q (%v), want its declaration", doc, err)
	}
	type interrupted struct {
		MS   float64
		Text string
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[interrupted](`tnbLabTest.interrupt()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("interrupting an endless loop: %v", err)
	}
	t.Logf("the endless loop ended %.0f ms after the interrupt", got.MS)
	if !strings.Contains(got.Text, "Interrupted: the cell was interrupted; the interpreter was restarted, and the next cell first replays the cells that had run without an error") {
		t.Errorf("the interrupted cell shows %q, want an Interrupted error that says the next cell replays", got.Text)
	}
	if out := exec("probe + 1"); !strings.Contains(out, "tensornb: a cell was interrupted; the interpreter was restarted. Replaying what had run without an error, In [") || !strings.HasSuffix(out, "42") {
		t.Errorf("probe + 1 after the interrupt shows %q, want the replay's note and 42", out)
	}
	if out := exec("answer := 6 * 7\nanswer"); out != "42" {
		t.Errorf("6 * 7 after the interrupt shows %q", out)
	}
}

// writeDocsImage writes what the browser's window shows (1280×857
// pixels, about 130 KB) to docsImageFile.
func writeDocsImage(t *testing.T, ctx context.Context) {
	t.Helper()
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("the README's screenshot: %v", err)
	}
	if err := os.WriteFile(docsImageFile, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	docsImageWritten = true
	t.Logf("wrote %s, %d KB", docsImageFile, len(shot)>>10)
}
