package notebooktest

import (
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

	// A page of JupyterLab's that is not there, as a mistyped address
	// asks for: jupyterlab_server 2.16 answers with its application page
	// and keeps the address in the configuration of every later page.
	server.api(t, "GET", "lab/workspaces/no/such/page", nil)

	ctx := browsertest.StartUntilDeadline(t)
	start := time.Now()
	lab := browsertest.OpenLab(t, ctx, server.url+"?token="+server.token)
	if path := browsertest.Eval[string](lab, "location.pathname"); path != "/lab/tree/00-tour.ipynb" {
		t.Errorf("the server's first page is %s, not the tour", path)
	}

	// The first page opens the tour, with no dialog.
	if url := browsertest.Eval[string](lab, `JSON.parse(document.getElementById("jupyter-config-data").textContent).notFoundUrl || ""`); url == "" {
		t.Error("the tour's page has no notFoundUrl after a page not found: the check below proves nothing")
	}
	lab.Poll(`document.querySelector(".jp-Dialog") !== null || Array.from(jupyterapp.shell.widgets("main")).some((w) => w.context && w.context.path === "00-tour.ipynb")`, "the first page opened neither the tour nor a dialog")
	if dialog := browsertest.Eval[string](lab, `Array.from(document.querySelectorAll(".jp-Dialog")).map((d) => d.textContent).join("; ")`); dialog != "" {
		t.Fatalf("the first page shows a dialog, not the tour: %s", dialog)
	}
	lab.Open("00-tour.ipynb", install.Name)
	t.Logf("the tour open with its kernel %.1f s after the navigation (JupyterLab restored at %.1f s)", time.Since(start).Seconds(), browsertest.Eval[float64](lab, "window.tnbLabRestoredMS")/1000)
	lab.RunAll()
	t.Logf("the tour's cells answered %.1f s after the navigation", time.Since(start).Seconds())
	checkLabKernel(lab)

	lab.Open("01-flat-buffer-and-a-promise.ipynb", install.Name)
	lab.RunAll()
	lab.CheckMermaid()

	lab.Open("02-strides-and-storage.ipynb", install.Name)
	lab.RunAll()
	lab.CheckWidgets()
	if *jupyterLabImage {
		shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("..", "..", "..", "docs", "images", "jupyterlab-widgets.png"), shot, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lab.Screenshot(filepath.Join("jupyterlab", "02-slider.png"))

	lab.Open("05-stride-puzzles.ipynb", install.Name)
	checkNbgraderForm(lab, dir)
	lab.Leave()
}

// checkLabKernel checks, on the open notebook's kernel, what a session
// in JupyterLab asks of it beyond running cells: a cell sees what an
// earlier one declared; completion and inspection answer; an interrupt
// ends an endless loop (how soon is logged); input() reads what is typed
// into JupyterLab's input box; and after JupyterLab's restart the
// kernel has forgotten the earlier cells.
func checkLabKernel(lab *browsertest.Lab) {
	lab.T.Helper()
	t := lab.T
	exec := func(code string) string {
		t.Helper()
		js, _ := json.Marshal(code)
		return browsertest.Eval[string](lab, "tnbLabTest.execute("+string(js)+")")
	}
	if out := exec("probe := 41"); out != "" {
		t.Errorf("probe := 41 shows %q", out)
	}
	if out := exec("probe + 1"); out != "42" {
		t.Errorf("probe + 1, after probe := 41 in another cell, shows %q, want 42", out)
	}
	if matches := browsertest.Eval[[]string](lab, `tnbLabTest.complete("display.Ca")`); !slices.Contains(matches, "Card") {
		t.Errorf("completing display.Ca gives %q, want Card among the matches", matches)
	}
	if doc := browsertest.Eval[string](lab, `tnbLabTest.inspect("display.Card")`); !strings.Contains(doc, "func Card") {
		t.Errorf("inspecting display.Card gives %q, want its declaration", doc)
	}
	type interrupted struct {
		MS   float64
		Text string
	}
	got := browsertest.Eval[interrupted](lab, "tnbLabTest.interrupt()")
	t.Logf("the endless loop ended %.0f ms after the interrupt", got.MS)
	if !strings.Contains(got.Text, "Interrupted") {
		t.Errorf("the interrupted cell shows %q, want an Interrupted error", got.Text)
	}
	checkLabInput(lab)
	browsertest.Eval[bool](lab, "tnbLabTest.restart()")
	if out := exec("probe + 1"); !strings.Contains(out, "undefined: probe") {
		t.Errorf("probe + 1 after a restart shows %q, want an error that probe is undefined", out)
	}
}

// checkLabInput runs a cell that reads a line with fmt.Scanln through
// the notebook, as a person would, types a word into the input box
// JupyterLab shows and checks that the cell printed it.
func checkLabInput(lab *browsertest.Lab) {
	lab.T.Helper()
	browsertest.Eval[bool](lab, `tnbLabTest.runCode("var word string\nfmt.Print(\"word? \")\nfmt.Scanln(&word)\nfmt.Println(\"read\", word)")`)
	lab.Poll(`document.querySelector("input.jp-Stdin-input") !== null`, "JupyterLab shows no input box for fmt.Scanln")
	box := chromedp.CSS("input.jp-Stdin-input")
	if err := chromedp.Do(lab.Ctx, chromedp.SendKeys(box, "strides"), chromedp.SendKeys(box, kb.Enter)); err != nil {
		lab.T.Fatalf("typing into the input box: %v", err)
	}
	lab.Poll(`tnbLabTest.lastOutput().includes("read strides")`, "the cell did not print the word typed into the input box")
}

// checkNbgraderForm checks the property inspector's nbgrader form on
// the open notebook, 05-stride-puzzles.ipynb in dir: for its first test
// cell (row_test, worth 1 point), the form shows its grade_id and
// points; points changed to 2 in the form are in the file once saved.
func checkNbgraderForm(lab *browsertest.Lab, dir string) {
	lab.T.Helper()
	const testCell = 6
	browsertest.Eval[bool](lab, `(async () => {
  const p = Array.from(jupyterapp.shell.widgets("main")).find((w) => w.context && w.context.path === "05-stride-puzzles.ipynb");
  jupyterapp.shell.activateById(p.id);
  p.content.activeCellIndex = `+strconv.Itoa(testCell)+`;
  await jupyterapp.commands.execute("property-inspector:show-panel");
  return true;
})()`)
	const field = `document.getElementById("jp-MetadataForm-tensornb:nbgrader_/nbgrader/%s")`
	// The form's section starts folded: a click on its title unfolds it.
	lab.Poll(`(() => {
  const title = Array.from(document.querySelectorAll("#jp-property-inspector .jp-Collapse-header .jp-Collapser-title")).find((e) => e.textContent.trim() === "nbgrader");
  if (title && !`+fmt.Sprintf(field, "grade_id")+`) {
    title.click();
  }
  return `+fmt.Sprintf(field, "grade_id")+` !== null;
})()`, "the property inspector has no nbgrader form")
	lab.Poll(fmt.Sprintf(field, "grade_id")+`.value === "row_test" && `+fmt.Sprintf(field, "points")+`.value === "1"`, "the nbgrader form does not show row_test's grade_id and points")
	// Typed as a person would: React reads the field's value from its
	// input event.
	browsertest.Eval[bool](lab, `(() => {
  const points = `+fmt.Sprintf(field, "points")+`;
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").set.call(points, "2");
  points.dispatchEvent(new Event("input", { bubbles: true }));
  return true;
})()`)
	lab.Poll(`Array.from(jupyterapp.shell.widgets("main")).find((w) => w.context && w.context.path === "05-stride-puzzles.ipynb").content.widgets[`+strconv.Itoa(testCell)+`].model.getMetadata("nbgrader").points === 2`, "points typed into the nbgrader form did not reach the cell's metadata")
	browsertest.Eval[bool](lab, `Array.from(jupyterapp.shell.widgets("main")).find((w) => w.context && w.context.path === "05-stride-puzzles.ipynb").context.save().then(() => true)`)
	saved, err := nbfile.Read(filepath.Join(dir, "05-stride-puzzles.ipynb"))
	if err != nil {
		lab.T.Fatal(err)
	}
	var meta struct {
		Nbgrader struct {
			GradeID string  `json:"grade_id"`
			Points  float64 `json:"points"`
		} `json:"nbgrader"`
	}
	data, _ := json.Marshal(saved.Cells[testCell].Metadata)
	if err := json.Unmarshal(data, &meta); err != nil {
		lab.T.Fatal(err)
	}
	if meta.Nbgrader.GradeID != "row_test" || meta.Nbgrader.Points != 2 {
		lab.T.Errorf("saved, the test cell's nbgrader metadata has grade_id %q and points %v, want row_test and 2", meta.Nbgrader.GradeID, meta.Nbgrader.Points)
	}
}
