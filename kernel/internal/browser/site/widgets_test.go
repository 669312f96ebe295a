package site

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/tensornb/tensornb/internal/browsertest"
	"github.com/tensornb/tensornb/kernel/internal/browser/lite"
)

// Widgets and input work in both front ends of the site, with no
// server: in JupyterLite, JupyterLab's widget manager draws the slider
// of an Interact, and typing a value into it redraws the picture below
// it; a click on a button runs its Go callback, which changes its label;
// a cell that reads two lines shows JupyterLab's input box for each and
// prints them. The site's page does the same with its own widget
// manager and JupyterLab's input box.
func TestWidgetsAndInput(t *testing.T) {
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
	src := t.TempDir()
	var cells []map[string]any
	for _, c := range browsertest.WidgetCells {
		cells = append(cells, code(c))
	}
	data, err := json.MarshalIndent(notebook(map[string]any{"name": lite.KernelName, "display_name": "Go (tensornb)", "language": "go"}, cells...), "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "widgets.ipynb"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := Write(moduleDir, dir, Options{Notebooks: src}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(Handler(dir))
	t.Cleanup(srv.Close)
	// The session, and every wait in it, has no bound of its own: a page
	// that never answers runs into go test's -timeout, and a slow one, on
	// a loaded machine, fails nothing (browsertest.StartUntilDeadline).
	ctx := browsertest.StartUntilDeadline(t)

	t.Run("lab", func(t *testing.T) {
		errs := browsertest.OpenURL(t, ctx, srv.URL+"/"+lite.NotebookURL("widgets.ipynb"))
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.body.dataset.tnbLab === "restored"`, chromedp.WithPollingTimeout(0))); err != nil {
			t.Fatalf("JupyterLite did not start: %v\n%s", err, strings.Join(errs.All(), "\n"))
		}
		evaluate[bool](t, ctx, browsertest.LabJS)
		evaluate[bool](t, ctx, browsertest.WidgetJS)
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[string](`tnbLabTest.open("widgets.ipynb")`, chromedp.EvalAwaitPromise)); err != nil {
			t.Fatalf("opening widgets.ipynb: %v\n%s", err, strings.Join(errs.All(), "\n"))
		}
		defer func() { _, _ = chromedp.Run(ctx, chromedp.Evaluate[bool]("tnbLabTest.leave()")) }()
		run := func(i int) {
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool]("tnbLabTest.run("+strconv.Itoa(i)+")", chromedp.EvalAwaitPromise)); err != nil {
				t.Fatalf("running cell %d: %v", i, err)
			}
		}
		checkWidgets(t, ctx, errs, run, func(i int) { evaluate[bool](t, ctx, "tnbLabTest.run("+strconv.Itoa(i)+"), true") })
		screenshot(t, ctx, "widgets-lab.png")
		if e := errs.All(); len(e) > 0 {
			t.Errorf("JavaScript errors on the page:\n%s", strings.Join(e, "\n"))
		}
	})

	t.Run("page", func(t *testing.T) {
		errs := browsertest.OpenURL(t, ctx, srv.URL+"/"+PageName("widgets.ipynb"))
		evaluate[bool](t, ctx, browsertest.WidgetJS)
		run := func(i int) {
			if text := waitRun(t, ctx, i); strings.Contains(text, "Error") {
				t.Fatalf("cell %d: %s", i, text)
			}
		}
		checkWidgets(t, ctx, errs, run, func(i int) { clickRun(t, ctx, i) })
		screenshot(t, ctx, "widgets-page.png")
		if e := errs.All(); len(e) > 0 {
			t.Errorf("JavaScript errors on the page:\n%s", strings.Join(e, "\n"))
		}
	})
}

// checkWidgets runs the cells of browsertest.WidgetCells, with run (which waits for
// the cell) and start (which does not), and works their widgets and the
// input box.
func checkWidgets(t *testing.T, ctx context.Context, errs *browsertest.Errors, run, start func(int)) {
	t.Helper()
	poll := func(js, what string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](js, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(0))); err != nil {
			t.Fatalf("%s: %v\n%s\nJavaScript errors: %q", what, err, evaluate[string](t, ctx, "tnbWidgetTest.text()"), errs.All())
		}
	}
	run(0)
	checkRedraw(t, ctx, poll)
	run(1)
	poll(`tnbWidgetTest.label() === "click me"`, "the button is not drawn")
	evaluate[bool](t, ctx, "tnbWidgetTest.click()")
	poll(`tnbWidgetTest.label() === "clicked 1"`, "a click did not run the button's callback")

	start(2)
	for _, line := range []string{"hello", "world wide"} {
		poll(`tnbWidgetTest.stdin() === 1`, "no input box for the line "+line)
		box := chromedp.CSS("input.jp-Stdin-input:not([data-typed])")
		if err := chromedp.Do(ctx, chromedp.SendKeys(box, line), chromedp.SendKeys(box, kb.Enter)); err != nil {
			t.Fatal(err)
		}
		evaluate[bool](t, ctx, "tnbWidgetTest.typed()")
		poll(`tnbWidgetTest.text().includes(`+jsString(line)+`)`, "the line typed, "+line+", is not shown")
	}
	poll(`tnbWidgetTest.text().includes("hello|world wide")`, "the lines typed were not printed")
}

// checkRedraw checks that the Interact's picture is drawn, and redrawn
// when its slider moves.
func checkRedraw(t *testing.T, ctx context.Context, poll func(js, what string)) {
	t.Helper()
	poll(`document.querySelector(".widget-slider .widget-readout") !== null && tnbWidgetTest.picture() !== ""`, "the Interact's slider and picture are not drawn")
	before := evaluate[string](t, ctx, "tnbWidgetTest.picture()")
	evaluate[bool](t, ctx, "tnbWidgetTest.slide(6)")
	poll(`tnbWidgetTest.picture() !== "" && tnbWidgetTest.picture() !== `+jsString(before), "moving the slider did not redraw the picture")
}
