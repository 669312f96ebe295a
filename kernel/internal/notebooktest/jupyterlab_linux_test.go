package notebooktest

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/tensornb/tensornb/internal/browsertest"
	"github.com/tensornb/tensornb/kernel/internal/install"
	"github.com/tensornb/tensornb/kernel/internal/jupytertest"
	nbfile "github.com/tensornb/tensornb/kernel/internal/notebook"
)

// jupyterLabImage makes TestJupyterLab write docs/images/jupyterlab-widgets.png:
// JupyterLab with notebook 02's slider, moved, and the picture it redrew.
var jupyterLabImage = flag.Bool("jupyterlab-image", false, "write docs/images/jupyterlab-widgets.png (with -run TestJupyterLab)")

// jupyterLabApp is the JupyterLab that scripts/run serves, as npm run
// build makes it.
var jupyterLabApp = filepath.Join("..", "browser", "lite", "web", "dist-jupyterlab", "jupyterlab.js")

// A labCell is what tnbLabTest.cells() gives for a code cell.
type labCell struct {
	Index   int              `json:"index"`
	Tags    []string         `json:"tags"`
	Outputs []map[string]any `json:"outputs"`
	Reply   map[string]any   `json:"reply"`
	Shown   int              `json:"shown"`
}

// A jupyterLab is the JupyterLab of scripts/run, open in a browser.
type jupyterLab struct {
	t    *testing.T
	ctx  context.Context
	errs *browsertest.Errors
}

// TestJupyterLab opens the notebooks in the JupyterLab that scripts/run
// serves: scripts/jupyterlab/serve, which scripts/run ends with, on
// Debian's jupyter_server and jupyterlab_server, with the tensornb kernel
// installed. Its first page is the tour. In the tour, 01 and 02, Run All
// Cells runs every cell on the tensornb kernel, each replies ok (or
// fails where tagged raises-exception) and JupyterLab shows what the
// kernel sent. The explorer answers a click; 01's lineage is drawn by
// JupyterLab's own Mermaid; 02's slider, moved, redraws its picture
// through the Go callback. No page raises a JavaScript error.
func TestJupyterLab(t *testing.T) {
	jupytertest.Require(t, "jupyter_server", "jupyterlab_server")
	browsertest.Require(t)
	if _, err := os.Stat(jupyterLabApp); err != nil {
		msg := "tensornb's JupyterLab is not built (npm ci --prefix kernel/internal/browser/lite/web && npm run --prefix kernel/internal/browser/lite/web build; scripts/test does it): " + err.Error()
		if os.Getenv("TENSORNB_REQUIRE_BROWSER") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	env := jupytertest.Install(t)
	dir := t.TempDir()
	for _, name := range []string{"00-tour.ipynb", "01-flat-buffer-and-a-promise.ipynb", "02-strides-and-storage.ipynb", "05-stride-puzzles.ipynb"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "..", "notebooks", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	serve, err := filepath.Abs(filepath.Join("..", "..", "..", "scripts", "jupyterlab", "serve"))
	if err != nil {
		t.Fatal(err)
	}
	server, version := startServer(t, env, "JupyterLab", "jpserver", func(port int, token string) []string {
		return []string{serve, dir, "--no-browser", "--port=" + strconv.Itoa(port), "--ServerApp.port_retries=0", "--ServerApp.token=" + token}
	})
	t.Logf("jupyter_server %s at %s", version, server.url)

	ctx := browsertest.StartUntilDeadline(t)
	start := time.Now()
	lab := &jupyterLab{t: t, ctx: ctx, errs: browsertest.OpenURL(t, ctx, server.url+"?token="+server.token)}
	lab.poll(`document.body.dataset.tnbLab === "restored" || (document.body.dataset.tnbLab === "failed" && (() => { throw new Error("the app did not start") })())`, "JupyterLab did not start")
	if path := eval[string](lab, "location.pathname"); path != "/lab/tree/00-tour.ipynb" {
		t.Errorf("the server's first page is %s, not the tour", path)
	}

	lab.open("00-tour.ipynb")
	t.Logf("the tour open with its kernel %.1f s after the navigation (JupyterLab restored at %.1f s)", time.Since(start).Seconds(), eval[float64](lab, "window.tnbLabRestoredMS")/1000)
	lab.runAll()
	t.Logf("the tour's cells answered %.1f s after the navigation", time.Since(start).Seconds())
	checkLabKernel(lab)

	lab.open("01-flat-buffer-and-a-promise.ipynb")
	lab.runAll()
	lab.poll(`tnbLabTest.count(".jp-RenderedMermaid figure[data-jp-mermaid-version] img") > 0`, "JupyterLab drew no Mermaid diagram")

	lab.open("02-strides-and-storage.ipynb")
	lab.runAll()
	eval[bool](lab, `tnbLabTest.scrollTo(".tnb-explorer")`)
	browsertest.CheckExplorerClick(t, ctx)
	checkLabSlider(lab)
	if *jupyterLabImage {
		shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("..", "..", "..", "docs", "images", "jupyterlab-widgets.png"), shot, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	saveLabShot(t, ctx, filepath.Join("jupyterlab", "02-slider.png"))

	lab.open("05-stride-puzzles.ipynb")
	checkNbgraderForm(lab, dir)
	eval[bool](lab, "tnbLabTest.leave()")
	if e := lab.errs.All(); len(e) > 0 {
		t.Errorf("JavaScript errors on the page:\n%s", strings.Join(e, "\n"))
	}
}

// checkLabSlider moves the first slider of the open notebook, by typing
// into its readout, and waits for the picture under it to change.
func checkLabSlider(lab *jupyterLab) {
	lab.t.Helper()
	eval[bool](lab, `tnbLabTest.scrollTo(".widget-slider")`)
	eval[bool](lab, browsertest.WidgetJS)
	lab.poll(`tnbWidgetTest.picture() !== ""`, "the slider's picture is not drawn")
	before, _ := json.Marshal(eval[string](lab, "tnbWidgetTest.picture()"))
	eval[bool](lab, "tnbWidgetTest.slide(1)") // rows: 2 to 1
	lab.poll(`tnbWidgetTest.picture() !== "" && tnbWidgetTest.picture() !== `+string(before), "moving the slider did not redraw its picture")
}

// checkLabKernel checks, on the open notebook's kernel, what a session
// in JupyterLab asks of it beyond running cells: a cell sees what an
// earlier one declared; completion and inspection answer; an interrupt
// ends an endless loop (how soon is logged); input() reads what is typed
// into JupyterLab's input box; and after JupyterLab's restart the
// kernel has forgotten the earlier cells.
func checkLabKernel(lab *jupyterLab) {
	lab.t.Helper()
	t := lab.t
	exec := func(code string) string {
		t.Helper()
		js, _ := json.Marshal(code)
		return eval[string](lab, "tnbLabTest.execute("+string(js)+")")
	}
	if out := exec("probe := 41"); out != "" {
		t.Errorf("probe := 41 shows %q", out)
	}
	if out := exec("probe + 1"); out != "42" {
		t.Errorf("probe + 1, after probe := 41 in another cell, shows %q, want 42", out)
	}
	if matches := eval[[]string](lab, `tnbLabTest.complete("display.Ca")`); !slices.Contains(matches, "Card") {
		t.Errorf("completing display.Ca gives %q, want Card among the matches", matches)
	}
	if doc := eval[string](lab, `tnbLabTest.inspect("display.Card")`); !strings.Contains(doc, "func Card") {
		t.Errorf("inspecting display.Card gives %q, want its declaration", doc)
	}
	type interrupted struct {
		MS   float64
		Text string
	}
	got := eval[interrupted](lab, "tnbLabTest.interrupt()")
	t.Logf("the endless loop ended %.0f ms after the interrupt", got.MS)
	if !strings.Contains(got.Text, "Interrupted") {
		t.Errorf("the interrupted cell shows %q, want an Interrupted error", got.Text)
	}
	checkLabInput(lab)
	eval[bool](lab, "tnbLabTest.restart()")
	if out := exec("probe + 1"); !strings.Contains(out, "undefined: probe") {
		t.Errorf("probe + 1 after a restart shows %q, want an error that probe is undefined", out)
	}
}

// checkLabInput runs a cell that reads a line with fmt.Scanln through
// the notebook, as a person would, types a word into the input box
// JupyterLab shows and checks that the cell printed it.
func checkLabInput(lab *jupyterLab) {
	lab.t.Helper()
	eval[bool](lab, `tnbLabTest.runCode("var word string\nfmt.Print(\"word? \")\nfmt.Scanln(&word)\nfmt.Println(\"read\", word)")`)
	lab.poll(`document.querySelector("input.jp-Stdin-input") !== null`, "JupyterLab shows no input box for fmt.Scanln")
	box := chromedp.CSS("input.jp-Stdin-input")
	if err := chromedp.Do(lab.ctx, chromedp.SendKeys(box, "strides"), chromedp.SendKeys(box, kb.Enter)); err != nil {
		lab.t.Fatalf("typing into the input box: %v", err)
	}
	lab.poll(`tnbLabTest.lastOutput().includes("read strides")`, "the cell did not print the word typed into the input box")
}

// checkNbgraderForm checks the property inspector's nbgrader form on
// the open notebook, 05-stride-puzzles.ipynb in dir: for its first test
// cell (row_test, worth 1 point), the form shows its grade_id and
// points; points changed to 2 in the form are in the file once saved.
func checkNbgraderForm(lab *jupyterLab, dir string) {
	lab.t.Helper()
	const testCell = 6
	eval[bool](lab, `(async () => {
  const p = Array.from(jupyterapp.shell.widgets("main")).find((w) => w.context && w.context.path === "05-stride-puzzles.ipynb");
  jupyterapp.shell.activateById(p.id);
  p.content.activeCellIndex = `+strconv.Itoa(testCell)+`;
  await jupyterapp.commands.execute("property-inspector:show-panel");
  return true;
})()`)
	const field = `document.getElementById("jp-MetadataForm-tensornb:nbgrader_/nbgrader/%s")`
	// The form's section starts folded: a click on its title unfolds it.
	lab.poll(`(() => {
  const title = Array.from(document.querySelectorAll("#jp-property-inspector .jp-Collapse-header .jp-Collapser-title")).find((e) => e.textContent.trim() === "nbgrader");
  if (title && !`+fmt.Sprintf(field, "grade_id")+`) {
    title.click();
  }
  return `+fmt.Sprintf(field, "grade_id")+` !== null;
})()`, "the property inspector has no nbgrader form")
	lab.poll(fmt.Sprintf(field, "grade_id")+`.value === "row_test" && `+fmt.Sprintf(field, "points")+`.value === "1"`, "the nbgrader form does not show row_test's grade_id and points")
	// Typed as a person would: React reads the field's value from its
	// input event.
	eval[bool](lab, `(() => {
  const points = `+fmt.Sprintf(field, "points")+`;
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").set.call(points, "2");
  points.dispatchEvent(new Event("input", { bubbles: true }));
  return true;
})()`)
	lab.poll(`Array.from(jupyterapp.shell.widgets("main")).find((w) => w.context && w.context.path === "05-stride-puzzles.ipynb").content.widgets[`+strconv.Itoa(testCell)+`].model.getMetadata("nbgrader").points === 2`, "points typed into the nbgrader form did not reach the cell's metadata")
	eval[bool](lab, `Array.from(jupyterapp.shell.widgets("main")).find((w) => w.context && w.context.path === "05-stride-puzzles.ipynb").context.save().then(() => true)`)
	saved, err := nbfile.Read(filepath.Join(dir, "05-stride-puzzles.ipynb"))
	if err != nil {
		lab.t.Fatal(err)
	}
	var meta struct {
		Nbgrader struct {
			GradeID string  `json:"grade_id"`
			Points  float64 `json:"points"`
		} `json:"nbgrader"`
	}
	data, _ := json.Marshal(saved.Cells[testCell].Metadata)
	if err := json.Unmarshal(data, &meta); err != nil {
		lab.t.Fatal(err)
	}
	if meta.Nbgrader.GradeID != "row_test" || meta.Nbgrader.Points != 2 {
		lab.t.Errorf("saved, the test cell's nbgrader metadata has grade_id %q and points %v, want row_test and 2", meta.Nbgrader.GradeID, meta.Nbgrader.Points)
	}
}

// open opens the notebook at path, waits for its kernel and checks that
// it is tensornb's.
func (lab *jupyterLab) open(path string) {
	lab.t.Helper()
	name, _ := json.Marshal(path)
	eval[bool](lab, `window.tnbLabTest ? tnbLabTest.leave() : true`)
	eval[bool](lab, browsertest.LabJS) // a new tnbLabTest, for this notebook
	eval[bool](lab, `jupyterapp.commands.execute("docmanager:open", { path: `+string(name)+` }).then(() => true)`)
	if kernel := eval[string](lab, `tnbLabTest.open(`+string(name)+`)`); kernel != install.Name {
		lab.t.Fatalf("%s opened with the kernel %q, want %q", path, kernel, install.Name)
	}
}

// runAll runs every cell of the open notebook with JupyterLab's Run All
// Cells, and checks each cell's reply and that JupyterLab shows what the
// kernel sent.
func (lab *jupyterLab) runAll() {
	lab.t.Helper()
	eval[bool](lab, "tnbLabTest.runAll()")
	// With no bound of its own (see browsertest.StartUntilDeadline), but
	// ended a little before the browser's session, to say what the kernel
	// got and sent if it hangs.
	bound := time.Duration(0)
	if deadline, ok := lab.ctx.Deadline(); ok {
		bound = time.Until(deadline) - 15*time.Second
	}
	if _, err := chromedp.Run(lab.ctx, chromedp.Poll[bool]("tnbLabTest.done()", chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(bound))); err != nil {
		lab.t.Fatalf("Run All Cells did not end (%v); the cells (index, outputs, reply, shown): %s\nthe last messages to and from the kernel:\n%s",
			err, eval[string](lab, `JSON.stringify(tnbLabTest.cells().map(c => [c.index, c.outputs.length, c.reply && c.reply.status, c.shown]))`),
			strings.Join(eval[[]string](lab, "tnbLabTest.messages()"), "\n"))
	}
	cells := eval[[]labCell](lab, "tnbLabTest.cells()")
	if n := eval[int](lab, "tnbLabTest.requests()"); n != len(cells) {
		lab.t.Fatalf("Run All Cells sent the kernel %d of the %d code cells", n, len(cells))
	}
	for _, c := range cells {
		tagged := slices.Contains(c.Tags, "raises-exception")
		if status, _ := c.Reply["status"].(string); (status == "ok") == tagged {
			lab.t.Errorf("cell %d (tagged raises-exception: %v) replied %q: %v", c.Index, tagged, status, c.Outputs)
		}
		if want := shownOutputs(c.Outputs); c.Shown != want {
			lab.t.Errorf("cell %d: the kernel sent %d outputs, which JupyterLab shows as %d, but it shows %d", c.Index, len(c.Outputs), want, c.Shown)
		}
	}
}

// shownOutputs is how many outputs JupyterLab shows for outputs: it
// joins a stream's text to the output before it when that is text of the
// same stream.
func shownOutputs(outputs []map[string]any) int {
	n := 0
	for i, o := range outputs {
		if i > 0 && o["output_type"] == "stream" && outputs[i-1]["output_type"] == "stream" && o["name"] == outputs[i-1]["name"] {
			continue
		}
		n++
	}
	return n
}

// poll waits, with no bound but the browser's, for js to be true.
func (lab *jupyterLab) poll(js, what string) {
	lab.t.Helper()
	if _, err := chromedp.Run(lab.ctx, chromedp.Poll[bool](js, chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(0))); err != nil {
		lab.t.Fatalf("%s: %v\nJavaScript errors: %s", what, err, strings.Join(lab.errs.All(), "\n"))
	}
}

// eval evaluates js in the page, awaiting a promise, and returns its value.
func eval[T any](lab *jupyterLab, js string) T {
	lab.t.Helper()
	v, err := chromedp.Run(lab.ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		lab.t.Fatalf("%s: %v\nJavaScript errors: %s", js, err, strings.Join(lab.errs.All(), "\n"))
	}
	return v
}
