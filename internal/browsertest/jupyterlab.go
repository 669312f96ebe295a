package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// A Lab is a JupyterLab application served by a Jupyter server (the one
// scripts/run serves, or the image's), open in a tab of the browser.
type Lab struct {
	T    *testing.T
	Ctx  context.Context
	Errs *Errors // the JavaScript errors its pages raised
}

// A LabCell is what tnbLabTest.cells() gives for a code cell: its tags,
// the outputs the kernel sent, its execute_reply, and how many outputs
// JupyterLab shows.
type LabCell struct {
	Index   int              `json:"index"`
	Tags    []string         `json:"tags"`
	Outputs []map[string]any `json:"outputs"`
	Reply   map[string]any   `json:"reply"`
	Shown   int              `json:"shown"`
}

// OpenLab opens url, a page of a JupyterLab server with its token, in the
// browser of ctx and waits until JupyterLab has restored its layout.
func OpenLab(t *testing.T, ctx context.Context, url string) *Lab {
	t.Helper()
	lab := &Lab{T: t, Ctx: ctx, Errs: OpenURL(t, ctx, url)}
	lab.Poll(`document.body.dataset.tnbLab === "restored" || (document.body.dataset.tnbLab === "failed" && (() => { throw new Error("the app did not start") })())`, "JupyterLab did not start")
	return lab
}

// Open opens the notebook at path (relative to the server's root), waits
// for its kernel and fails the test unless that is kernel.
func (lab *Lab) Open(path, kernel string) {
	lab.T.Helper()
	name, _ := json.Marshal(path)
	Eval[bool](lab, `window.tnbLabTest ? tnbLabTest.leave() : true`)
	Eval[bool](lab, LabJS) // a new tnbLabTest, for this notebook
	Eval[bool](lab, `jupyterapp.commands.execute("docmanager:open", { path: `+string(name)+` }).then(() => true)`)
	if got := Eval[string](lab, `tnbLabTest.open(`+string(name)+`)`); got != kernel {
		lab.T.Fatalf("%s opened with the kernel %q, want %q", path, got, kernel)
	}
}

// RunAll runs every cell of the open notebook with JupyterLab's Run All
// Cells, and checks each cell's reply (ok, or an error where the cell is
// tagged raises-exception) and that JupyterLab shows what the kernel
// sent.
func (lab *Lab) RunAll() {
	lab.T.Helper()
	Eval[bool](lab, "tnbLabTest.runAll()")
	// With no bound of its own (see StartUntilDeadline), but ended a
	// little before the browser's session, to say what the kernel got and
	// sent if it hangs.
	bound := time.Duration(0)
	if deadline, ok := lab.Ctx.Deadline(); ok {
		bound = time.Until(deadline) - 15*time.Second
	}
	if _, err := chromedp.Run(lab.Ctx, chromedp.Poll[bool]("tnbLabTest.done()", chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(bound))); err != nil {
		lab.T.Fatalf("Run All Cells did not end (%v)%s", err, lab.runState())
	}
	cells := Eval[[]LabCell](lab, "tnbLabTest.cells()")
	if n := Eval[int](lab, "tnbLabTest.requests()"); n != len(cells) {
		lab.T.Fatalf("Run All Cells sent the kernel %d of the %d code cells%s", n, len(cells), lab.runState())
	}
	for _, c := range cells {
		tagged := slices.Contains(c.Tags, "raises-exception")
		if status, _ := c.Reply["status"].(string); (status == "ok") == tagged {
			lab.T.Errorf("cell %d (tagged raises-exception: %v) replied %q: %v", c.Index, tagged, status, c.Outputs)
		}
		if want := shownOutputs(c.Outputs); c.Shown != want {
			lab.T.Errorf("cell %d: the kernel sent %d outputs, which JupyterLab shows as %d, but it shows %d", c.Index, len(c.Outputs), want, c.Shown)
		}
	}
}

// runState says, for a failure, what each code cell of the open notebook
// shows and what the kernel last got and sent.
func (lab *Lab) runState() string {
	return fmt.Sprintf("; the cells (index, outputs, reply, shown, execution count, state): %s\nthe last messages to and from the kernel:\n%s",
		Eval[string](lab, `JSON.stringify(tnbLabTest.cells().map((c) => [c.index, c.outputs.length, c.reply && c.reply.status, c.shown, c.count, c.state]))`),
		strings.Join(Eval[[]string](lab, "tnbLabTest.messages()"), "\n"))
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

// CheckMermaid fails the test unless the open notebook shows a diagram
// drawn by JupyterLab's own Mermaid renderer.
func (lab *Lab) CheckMermaid() {
	lab.T.Helper()
	lab.Poll(`tnbLabTest.count(".jp-RenderedMermaid figure[data-jp-mermaid-version] img") > 0`, "JupyterLab drew no Mermaid diagram")
}

// CheckWidgets checks the explorer and the first slider of the open
// notebook, which has run: the explorer answers a click, and the slider,
// moved by typing into its readout, redraws the picture under it through
// its Go callback.
func (lab *Lab) CheckWidgets() {
	lab.T.Helper()
	Eval[bool](lab, `tnbLabTest.scrollTo(".tnb-explorer")`)
	CheckExplorerClick(lab.T, lab.Ctx)
	// The widget manager draws the slider once it has its model, which
	// may be after Run All Cells has ended.
	Eval[bool](lab, `tnbLabTest.reveal("application/vnd.jupyter.widget-view+json")`)
	lab.Poll(`document.querySelector(".widget-slider") !== null`, "the slider is not drawn")
	Eval[bool](lab, `tnbLabTest.scrollTo(".widget-slider")`)
	Eval[bool](lab, WidgetJS)
	lab.Poll(`tnbWidgetTest.picture() !== ""`, "the slider's picture is not drawn")
	before, _ := json.Marshal(Eval[string](lab, "tnbWidgetTest.picture()"))
	Eval[bool](lab, "tnbWidgetTest.slide(1)")
	lab.Poll(`tnbWidgetTest.picture() !== "" && tnbWidgetTest.picture() !== `+string(before), "moving the slider did not redraw its picture")
}

// Screenshot saves a screenshot of the whole page as the artifact name.
func (lab *Lab) Screenshot(name string) {
	lab.T.Helper()
	SaveScreenshot(lab.T, lab.Ctx, name)
}

// Leave ends the open notebook's recording and fails the test if any
// page raised a JavaScript error.
func (lab *Lab) Leave() {
	lab.T.Helper()
	Eval[bool](lab, "window.tnbLabTest ? tnbLabTest.leave() : true")
	if e := lab.Errs.All(); len(e) > 0 {
		lab.T.Errorf("JavaScript errors on the page:\n%s", strings.Join(e, "\n"))
	}
}

// Poll waits, with no bound but the browser's, for js to be true.
func (lab *Lab) Poll(js, what string) {
	lab.T.Helper()
	if _, err := chromedp.Run(lab.Ctx, chromedp.Poll[bool](js, chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(0))); err != nil {
		lab.T.Fatalf("%s: %v\nJavaScript errors: %s", what, err, strings.Join(lab.Errs.All(), "\n"))
	}
}

// Eval evaluates js in lab's page, awaiting a promise, and returns its
// value.
func Eval[T any](lab *Lab, js string) T {
	lab.T.Helper()
	v, err := chromedp.Run(lab.Ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		lab.T.Fatalf("%s: %v\nJavaScript errors: %s", js, err, strings.Join(lab.Errs.All(), "\n"))
	}
	return v
}
