package notebooktest

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/internal/nbformat"
	"github.com/tensornb/tensornb/kernel/internal/install"
	"github.com/tensornb/tensornb/kernel/internal/jupytertest"
)

// gonbNotebooks are GoNB's own notebooks, under examples/ in its module:
// the tutorial and the test notebooks, each with the code cells (by
// number, from 1) that the test leaves out, on both kernelspecs, and why:
// they need modules from the network, which tensornb does not require, or
// a checkout of GoNB's repository.
var gonbNotebooks = []struct {
	path    string
	leftOut map[int]string
}{
	{"tutorial.ipynb", map[int]string{
		9:  "github.com/schollz/progressbar, from the network",
		12: "github.com/benc-uk/gofract, from the network",
		13: "github.com/ajstarks/svgo, from the network",
		14: "!*go get of github.com/erkkah/margaid, from the network",
		15: "github.com/erkkah/margaid, from the network",
		16: "github.com/erkkah/margaid, from the network",
		17: "gonum.org/v1/plot, from the network",
		18: "cell 17's GonumPlotExample",
		19: "github.com/MetalBlueberry/go-plotly, from the network",
		25: "cell 16's mgSinPlot",
		29: "github.com/stretchr/testify, from the network",
		30: "a checkout of GoNB in ~/Projects/gonb",
		31: "a checkout of GoNB in ~/Projects/gonb",
	}},
	{"tests/hello.ipynb", nil},
	{"tests/functions.ipynb", nil},
	{"tests/vartuple.ipynb", nil},
	{"tests/init.ipynb", nil},
	{"tests/gonbui.ipynb", map[int]string{
		2: "GONB_GIT_ROOT, a checkout of GoNB's repository",
		3: "!* and %goworkfix on that checkout",
	}},
}

// gonbOwnOutputs are the cells whose outputs the test compares with those
// GoNB stored in its notebooks, on both kernelspecs: all of the test
// notebooks', and the tutorial's that print the same on every run (its
// others print random numbers, paths, versions and GoNB's help).
var gonbOwnOutputs = map[string][]int{
	"tutorial.ipynb":        {1, 2, 4, 5, 6, 8, 20, 21, 22, 23, 24, 28},
	"tests/hello.ipynb":     {1, 2, 3, 4, 5},
	"tests/functions.ipynb": {1, 2, 3},
	"tests/vartuple.ipynb":  {1, 2, 3, 4},
	"tests/init.ipynb":      {1, 2, 3, 4, 5, 6, 7},
	"tests/gonbui.ipynb":    {4, 5},
}

// GoNB's tutorial and test notebooks, from its module at the version
// go.mod requires, run with nbclient on both kernelspecs: every cell but
// those left out by name runs without an error, and prints and shows
// what GoNB's run of it stored.
func TestGoNBNotebooksOnBothKernels(t *testing.T) {
	jupytertest.Require(t, "nbclient", "nbformat")
	env := jupytertest.Install(t)
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/janpfeifer/gonb").Output()
	if err != nil {
		t.Fatalf("GoNB's module, which go.mod requires: %v", err)
	}
	examples := filepath.Join(strings.TrimSpace(string(out)), "examples")
	leftOut := map[string][]int{}
	var paths []string
	for _, nb := range gonbNotebooks {
		paths = append(paths, filepath.Join(examples, nb.path))
		for n := range nb.leftOut {
			leftOut[filepath.Base(nb.path)] = append(leftOut[filepath.Base(nb.path)], n)
		}
	}
	// Our own notebook of GoNB's programs runs with them, on both.
	paths = append(paths, filepath.Join("testdata", programsNotebook))
	skips := filepath.Join(t.TempDir(), "leftout.json")
	data, _ := json.Marshal(leftOut)
	if err := os.WriteFile(skips, data, 0o644); err != nil {
		t.Fatal(err)
	}
	ranIn := map[string]string{} // kernel → the directory of its run
	runs := t.TempDir()          // the subtests' own are gone once they end
	for _, kernel := range []string{install.Name, install.CompiledName} {
		t.Run(kernel, func(t *testing.T) {
			dir := filepath.Join(runs, kernel)
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			ranIn[kernel] = dir
			run := exec.Command(jupytertest.Python, append([]string{filepath.Join("testdata", "gonbnotebooks.py"), kernel, dir, skips}, paths...)...)
			// As GoNB's own test of its notebooks does: the cells after
			// %goflags --cover write coverage there, not a warning.
			run.Env = append(env, "GOCOVERDIR="+t.TempDir())
			output, err := run.CombinedOutput()
			t.Logf("under %s:\n%s", kernel, output)
			if err != nil {
				t.Fatalf("executing GoNB's notebooks under %s failed: %v (see the log above)", kernel, err)
			}
			for _, nb := range gonbNotebooks {
				stored := readNotebook(t, filepath.Join(examples, nb.path))
				ran := readNotebook(t, filepath.Join(dir, filepath.Base(nb.path)))
				checkGoNBNotebook(t, nb.path, stored, ran, nb.leftOut)
			}
		})
	}
	if ranIn[install.Name] == "" || ranIn[install.CompiledName] == "" {
		t.Fatal("the programs notebook did not run on both kernelspecs")
	}
	checkPrograms(t, readNotebook(t, filepath.Join(ranIn[install.Name], programsNotebook)), readNotebook(t, filepath.Join(ranIn[install.CompiledName], programsNotebook)))
}

// programsNotebook holds cells of GoNB's kind, each case after a %reset
// (testdata/programs.ipynb): the instant engine must print what GoNB
// prints for each.
const programsNotebook = "programs.ipynb"

// checkPrograms compares the instant engine's run of the programs
// notebook with GoNB's, the compiled kernelspec's, cell by cell: what
// each printed, and that neither failed; the %reset cells aside, whose
// messages are each engine's own.
func checkPrograms(t *testing.T, instant, gonb notebook) {
	got, want := codeCells(instant), codeCells(gonb)
	if len(got) != len(want) || len(got) == 0 {
		t.Fatalf("%s: %d code cells ran on the instant engine, %d on GoNB", programsNotebook, len(got), len(want))
	}
	for i, c := range got {
		if strings.TrimSpace(nbformat.Text(c.Source)) == "%reset" {
			continue
		}
		for _, run := range []cell{c, want[i]} {
			for _, o := range run.Outputs {
				if o.OutputType == "error" {
					t.Errorf("%s cell %d %q failed: %s: %s", programsNotebook, i+1, firstLine(c), o.EName, o.EValue)
				}
			}
		}
		if g, w := outputsOf(c, want[i]), outputsOf(want[i], want[i]); g != w {
			t.Errorf("%s cell %d %q gave\n%s\nGoNB gave\n%s", programsNotebook, i+1, firstLine(c), g, w)
		}
	}
}

// checkGoNBNotebook compares a run of one of GoNB's notebooks with GoNB's.
func checkGoNBNotebook(t *testing.T, name string, stored, ran notebook, leftOut map[int]string) {
	want, got := codeCells(stored), codeCells(ran)
	if len(want) != len(got) {
		t.Fatalf("%s: %d code cells run, %d stored", name, len(got), len(want))
	}
	compared := map[int]bool{}
	for _, n := range gonbOwnOutputs[name] {
		compared[n] = true
	}
	for i, c := range got {
		n := i + 1
		if _, ok := leftOut[n]; ok {
			continue
		}
		for _, o := range c.Outputs {
			if o.OutputType == "error" {
				t.Errorf("%s cell %d %q: %s: %s", name, n, firstLine(c), o.EName, o.EValue)
			}
		}
		if !compared[n] {
			continue
		}
		if g, w := outputsOf(c, want[i]), outputsOf(want[i], want[i]); g != w {
			t.Errorf("%s cell %d %q gave\n%s\nGoNB stored\n%s", name, n, firstLine(c), g, w)
		}
	}
}

// codeCells returns a notebook's code cells.
func codeCells(nb notebook) []cell {
	var code []cell
	for _, c := range nb.Cells {
		if c.CellType == "code" {
			code = append(code, c)
		}
	}
	return code
}

// firstLine is a cell's first line, to name it in a message.
func firstLine(c cell) string {
	first, _, _ := strings.Cut(strings.TrimSpace(nbformat.Text(c.Source)), "\n")
	return first
}

// outputsOf writes what a cell printed, its streams joined, and the
// forms of its displays that the cell like holds (GoNB's: a kernel may
// show more forms than GoNB did).
func outputsOf(c, like cell) string {
	var text, shown strings.Builder
	var forms []map[string]any
	for _, o := range like.Outputs {
		if o.OutputType == "display_data" {
			forms = append(forms, o.Data)
		}
	}
	d := 0
	for _, o := range c.Outputs {
		switch o.OutputType {
		case "stream":
			text.WriteString(nbformat.Text(o.Text))
		case "display_data":
			for _, mime := range slices.Sorted(maps.Keys(o.Data)) {
				if d < len(forms) && forms[d][mime] != nil {
					fmt.Fprintf(&shown, "display %d %s: %s\n", d, mime, nbformat.Text(o.Data[mime]))
				}
			}
			d++
		}
	}
	return fmt.Sprintf("printed %q\n%s%d displays", overwritten(text.String()), blankName.ReplaceAllString(shown.String(), "_~N"), d)
}

// blankName is GoNB's name for a blank variable in %ls, random.
var blankName = regexp.MustCompile(`_~\d+`)

// overwritten is text as a terminal, or Jupyter's front end, shows it:
// what a carriage return goes back over is gone.
func overwritten(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if j := strings.LastIndex(l, "\r"); j >= 0 {
			lines[i] = l[j+1:]
		}
	}
	return strings.Join(lines, "\n")
}
