// Package notebooktest tests the articles' executable notebooks, which live
// in the repository's notebooks/ folder with nothing else beside them, as
// a student sees it in Jupyter's file list: every notebook is executed with nbclient on the
// installed tensornb kernel and compared with its stored outputs
// (testdata/execute.py), the articles' numbers are looked up in the fresh
// outputs, and each notebook is exported with nbconvert and opened in
// headless Chromium; notebook6_linux_test.go opens the saved notebooks,
// untrusted, in the classic Notebook 6 UI.
package notebooktest

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/tensornb/tensornb/internal/browsertest"
	"github.com/tensornb/tensornb/internal/nbformat"
	"github.com/tensornb/tensornb/kernel/internal/install"
	"github.com/tensornb/tensornb/kernel/internal/jupytertest"
)

// TestMain shares one scratch installation of the kernel among the tests.
func TestMain(m *testing.M) { os.Exit(jupytertest.Main(m)) }

// A notebook as stored on disk, with what the tests read of it.
type notebook struct {
	Metadata struct {
		Kernelspec struct {
			Name string `json:"name"`
		} `json:"kernelspec"`
	} `json:"metadata"`
	Cells []cell `json:"cells"`
}

type cell struct {
	CellType string         `json:"cell_type"`
	Source   any            `json:"source"`
	Metadata map[string]any `json:"metadata"`
	Outputs  []struct {
		OutputType string         `json:"output_type"`
		Text       any            `json:"text"`
		Data       map[string]any `json:"data"`
		EName      string         `json:"ename"`
		EValue     string         `json:"evalue"`
	} `json:"outputs"`
}

// shown is what a cell printed or showed as text: its streams, the plain
// text of its results and displays, and its error.
func (c cell) shown() string {
	var b strings.Builder
	for _, o := range c.Outputs {
		b.WriteString(nbformat.Text(o.Text))
		b.WriteString(nbformat.Text(o.Data["text/plain"]))
		if o.OutputType == "error" {
			b.WriteString(o.EName + ": " + o.EValue)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func readNotebook(t *testing.T, path string) notebook {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var nb notebook
	if err := json.Unmarshal(data, &nb); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return nb
}

// find returns the code cell whose source contains code.
func (nb notebook) find(code string) (cell, bool) {
	for _, c := range nb.Cells {
		if c.CellType == "code" && strings.Contains(nbformat.Text(c.Source), code) {
			return c, true
		}
	}
	return cell{}, false
}

// articles names, per notebook, the article it tells and must cite.
var articles = map[string]string{
	"01-flat-buffer-and-a-promise.ipynb": "A Tensor Is a Flat Buffer and a Promise",
	"02-strides-and-storage.ipynb":       "Tensor, strides, and storage: why a transpose can be free",
	"03-shapes-and-broadcasting.ipynb":   "Tensors, shapes and broadcasting",
	"04-one-dimensional.ipynb":           "A tensor is one-dimensional",
}

// notebooksDir holds the notebooks; this package holds only their tests, so that
// a student sees nothing but notebooks in that folder.
var notebooksDir = filepath.Join("..", "..", "..", "notebooks")

// notebookPaths returns the notebooks' paths.
func notebookPaths(t *testing.T) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(notebooksDir, "*.ipynb"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no notebooks in %s: %v", notebooksDir, err)
	}
	return paths
}

// TestNotebooksAreWellFormed checks what needs no kernel: the kernelspec,
// the citation of each article, the tour's links, and that every cell
// tagged raises-exception holds code.
func TestNotebooksAreWellFormed(t *testing.T) {
	paths := notebookPaths(t)
	for _, path := range paths {
		nb := readNotebook(t, path)
		if nb.Metadata.Kernelspec.Name != "tensornb" {
			t.Errorf("%s: kernelspec %q, want tensornb", path, nb.Metadata.Kernelspec.Name)
		}
		var prose strings.Builder
		for _, c := range nb.Cells {
			if c.CellType == "markdown" {
				prose.WriteString(nbformat.Text(c.Source))
			}
		}
		if title, ok := articles[filepath.Base(path)]; ok && !strings.Contains(prose.String(), title) {
			t.Errorf("%s does not cite its article %q by title", path, title)
		}
	}
	for path := range articles {
		if _, err := os.Stat(filepath.Join(notebooksDir, path)); err != nil {
			t.Errorf("the notebook for %q is missing: %v", articles[path], err)
		}
	}
	tour := readNotebook(t, filepath.Join(notebooksDir, "00-tour.ipynb"))
	var links strings.Builder
	for _, c := range tour.Cells {
		links.WriteString(nbformat.Text(c.Source))
	}
	for path := range articles {
		if !strings.Contains(links.String(), "("+path+")") {
			t.Errorf("the tour does not link %s", path)
		}
	}
}

// TestNotebooks executes every notebook under both kernelspecs, the
// instant engine and GoNB, each run compared with the stored outputs (so
// the two engines must agree); then it checks the articles' numbers in
// the instant engine's outputs, and the notebooks in a browser.
func TestNotebooks(t *testing.T) {
	jupytertest.Require(t, "nbclient", "nbformat", "nbconvert")
	env := jupytertest.Install(t)
	paths := notebookPaths(t)
	var out string
	for _, kernel := range []string{install.Name, install.CompiledName} {
		dir := t.TempDir()
		if kernel == install.Name {
			out = dir
		}
		run := exec.Command(jupytertest.Python, append([]string{filepath.Join("testdata", "execute.py"), "--kernel", kernel, "check", dir}, paths...)...)
		run.Env = env
		output, err := run.CombinedOutput()
		t.Logf("under %s:\n%s", kernel, output)
		if err != nil {
			t.Fatalf("executing the notebooks under %s failed: %v (see the log above)", kernel, err)
		}
	}
	t.Run("numbers", func(t *testing.T) {
		for path, want := range articleNumbers {
			nb := readNotebook(t, filepath.Join(out, path))
			for _, n := range want {
				c, ok := nb.find(n.code)
				if !ok {
					t.Errorf("%s: no cell with %q", path, n.code)
					continue
				}
				for _, w := range n.shows {
					if !strings.Contains(c.shown(), w) {
						t.Errorf("%s: the cell with %q does not show %q; it shows:\n%s", path, n.code, w, c.shown())
					}
				}
			}
		}
	})
	t.Run("browser", func(t *testing.T) { checkInBrowser(t, env, out, paths) })
}

// checkInBrowser exports the executed notebooks to HTML with nbconvert,
// opens each in headless Chromium, and fails on JavaScript errors; in the
// notebooks with an explorer, a click on a cell must work out its address.
// The pages and their screenshots are kept in artifacts/notebooks/.
func checkInBrowser(t *testing.T, env []string, executed string, paths []string) {
	html := t.TempDir()
	args := []string{"-m", "nbconvert", "--to", "html", "--output-dir", html}
	for _, p := range paths {
		args = append(args, filepath.Join(executed, filepath.Base(p)))
	}
	convert := exec.Command(jupytertest.Python, args...)
	convert.Env = env
	if out, err := convert.CombinedOutput(); err != nil {
		t.Fatalf("nbconvert: %v\n%s", err, out)
	}
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".ipynb")
		t.Run(name, func(t *testing.T) {
			page := filepath.Join(html, name+".html")
			data, err := os.ReadFile(page)
			if err != nil {
				t.Fatal(err)
			}
			browsertest.SaveArtifact(t, filepath.Join("notebooks", name+".html"), data)
			ctx := browsertest.StartUntilDeadline(t)
			errs := browsertest.Open(t, ctx, page)
			if strings.Contains(string(data), `class="tnb-explorer"`) {
				browsertest.CheckExplorerClick(t, ctx)
			}
			shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)) // PNG at quality 100
			if err != nil {
				t.Fatal(err)
			}
			browsertest.SaveArtifact(t, filepath.Join("notebooks", name+".png"), shot)
			if e := errs.All(); len(e) > 0 {
				t.Errorf("JavaScript errors on the page:\n%s", strings.Join(e, "\n"))
			}
			checkStaticView(t, name, string(data), readNotebook(t, filepath.Join(executed, filepath.Base(p))))
		})
	}
}

// scriptsAndStyles are the elements a static viewer of notebooks (GitHub's
// kind) leaves out of a notebook's page.
var scriptsAndStyles = regexp.MustCompile(`(?is)<script\b.*?</script>|<style\b.*?</style>`)

// checkStaticView opens the page nbconvert made of nb without its scripts
// and styles, as a static viewer shows it, and checks that every picture
// still shows: each output with an SVG form shows at least one SVG image,
// every such image loads and none is shrunk below its size.
func checkStaticView(t *testing.T, name, page string, nb notebook) {
	t.Helper()
	pictures := 0
	for _, c := range nb.Cells {
		for _, o := range c.Outputs {
			if _, ok := o.Data["image/svg+xml"]; ok {
				pictures++
			}
		}
	}
	static := scriptsAndStyles.ReplaceAllString(page, "")
	path := filepath.Join(t.TempDir(), name+"-static.html")
	if err := os.WriteFile(path, []byte(static), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := browsertest.StartUntilDeadline(t)
	browsertest.Open(t, ctx, path)
	loaded := `Array.from(document.images).every(i => i.complete)`
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](loaded, chromedp.WithPollingTimeout(0))); err != nil {
		t.Fatalf("the static view's images did not load: %v", err)
	}
	// A picture is an SVG image (the HTML form of most pictures) or an
	// inline SVG (a diagram, whose SVG form nbconvert puts in the page).
	type picture struct {
		Kind           string
		Natural, Shown float64
	}
	shown, err := chromedp.Run(ctx, chromedp.Evaluate[[]picture](`Array.from(document.images).filter(i => i.src.startsWith("data:image/svg+xml")).map(i => ({Kind: "SVG image", Natural: i.naturalWidth, Shown: i.getBoundingClientRect().width})).concat(
  Array.from(document.querySelectorAll("svg")).filter(s => !s.parentElement.closest("svg")).map(s => ({Kind: "inline SVG", Natural: Number(s.getAttribute("width")) || 0, Shown: s.getBoundingClientRect().width})))`))
	if err != nil {
		t.Fatal(err)
	}
	if len(shown) < pictures {
		t.Errorf("the static view shows %d SVG pictures for %d pictures", len(shown), pictures)
	}
	for i, p := range shown {
		if p.Natural == 0 || p.Shown < p.Natural-1 {
			t.Errorf("%s %d of the static view: %v px wide, shown at %v px", p.Kind, i, p.Natural, p.Shown)
		}
	}
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	browsertest.SaveArtifact(t, filepath.Join("notebooks", name+"-static.png"), shot)
}

// A number an article prints, looked up in the cell whose code contains
// code: the cell must show every string in shows.
type number struct {
	code  string
	shows []string
}
