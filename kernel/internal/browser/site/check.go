package site

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/browser/lite"
	"github.com/tensornb/tensornb/kernel/internal/interp/browsercheck"
)

// Kernels are the names of the kernelspecs whose notebooks a site runs:
// the tensornb kernel's two, as package kernel/internal/install names
// them. A notebook of the compiled one runs in the browser's instant
// engine too.
var Kernels = []string{"tensornb", "tensornb-compiled"}

// sitePages are the pages the site has for itself, which no notebook's
// page may take the place of: the index, and JupyterLite's.
var sitePages = []string{"index.html", lite.Dir + "/index.html"}

// A Problem is why a notebook, or one of its cells, cannot be on the
// site: a reader would find the cell failing where the notebook's author
// did not mean it to.
type Problem struct {
	Notebook string // its path in the folder of notebooks, with slashes
	Cell     int    // the cell, counting all the notebook's cells from 1; 0 for the notebook as a whole
	Msg      string
}

// String is the problem as the builder prints it:
// "week2/im2col.ipynb: cell 7: MSG".
func (p Problem) String() string {
	if p.Cell > 0 {
		return fmt.Sprintf("%s: cell %d: %s", p.Notebook, p.Cell, p.Msg)
	}
	return p.Notebook + ": " + p.Msg
}

// A ProblemsError is the problems that stopped Write before it wrote
// anything.
type ProblemsError struct {
	Problems  []Problem
	Notebooks int // the notebooks in the folder, with problems or not
}

// Error says how many notebooks have problems and what to do; the
// problems themselves are in Problems.
func (e *ProblemsError) Error() string {
	n := len(Named(e.Problems))
	have := "notebooks have problems"
	if n == 1 {
		have = "notebook has a problem"
	}
	return fmt.Sprintf("%d of the %d %s, so nothing was written: fix them, or build the site without them with --skip-problems", n, e.Notebooks, have)
}

// Named lists the notebooks that problems name, each once, in the order
// of the problems.
func Named(problems []Problem) []string {
	var names []string
	for _, p := range problems {
		if !slices.Contains(names, p.Notebook) {
			names = append(names, p.Notebook)
		}
	}
	return names
}

// Find returns the notebooks under the folder src: the paths, relative to
// it and with slashes, of its .ipynb files and of those in its
// sub-folders, but hidden ones (Jupyter's .ipynb_checkpoints), the top
// folder's first, then folder by folder.
func Find(src string) ([]string, error) {
	var found []string
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != src && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() || !strings.HasSuffix(d.Name(), ".ipynb") {
			return nil
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		found = append(found, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		return nil, err
	}
	folderOf := func(rel string) string {
		if dir := path.Dir(rel); dir != "." {
			return dir
		}
		return ""
	}
	sort.Slice(found, func(i, j int) bool {
		a, b := folderOf(found[i]), folderOf(found[j])
		if a != b {
			return a < b
		}
		return found[i] < found[j]
	})
	return found, nil
}

// Check checks the notebooks under src (Find) before a site is built
// from them, with the tensornb module at moduleDir, and returns those
// that passed and the problems of the others. A notebook passes if its
// page takes the place of none of the site's own (index.html), if it is
// a notebook (nbformat 4) of the tensornb kernel (Kernels), and if each of
// its code cells, taken in order, passes the checks the browser's engine
// makes before it runs a cell (browsercheck.Checker): no %%gonb, no
// package the browser does not have, and, but for a cell tagged
// raises-exception, no type error or refusal. No cell runs.
func Check(moduleDir, src string) (good []string, problems []Problem, err error) {
	notebooks, err := Find(src)
	if err != nil {
		return nil, nil, err
	}
	if len(notebooks) == 0 {
		return nil, nil, fmt.Errorf("no notebooks (.ipynb files) in %s or its folders", src)
	}
	var checker *browsercheck.Checker
	for _, rel := range notebooks {
		if page := PageName(rel); slices.Contains(sitePages, page) {
			problems = append(problems, Problem{Notebook: rel, Msg: fmt.Sprintf("its page would be %s, which the site has for itself: rename the notebook", page)})
			continue
		}
		found, err := checkNotebook(filepath.Join(src, filepath.FromSlash(rel)), func() (*browsercheck.Checker, error) {
			if checker == nil {
				var err error
				if checker, err = browsercheck.New(moduleDir); err != nil {
					return nil, err
				}
			}
			return checker, nil
		})
		if err != nil {
			return nil, nil, err
		}
		for _, p := range found {
			p.Notebook = rel
			problems = append(problems, p)
		}
		if len(found) == 0 {
			good = append(good, rel)
		}
	}
	return good, problems, nil
}

// checkNotebook returns the problems of the notebook in file; checker
// gives the checker of its cells.
func checkNotebook(file string, checker func() (*browsercheck.Checker, error)) ([]Problem, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	nb, err := parseNotebook(data)
	if err != nil {
		return []Problem{{Msg: "not a notebook (" + err.Error() + ")"}}, nil
	}
	if nb.Format < 4 {
		return []Problem{{Msg: fmt.Sprintf("a notebook of nbformat %d: the site reads nbformat 4 (open and save it in Jupyter to convert it)", nb.Format)}}, nil
	}
	const only = "the site runs only notebooks of the Go (tensornb) kernel"
	switch k := nb.Kernel; {
	case k == nil:
		return []Problem{{Msg: "no kernel named in its metadata (kernelspec): " + only}}, nil
	case !slices.Contains(Kernels, k.Name):
		kernel := fmt.Sprintf("kernel %q", k.Name)
		if k.DisplayName != "" {
			kernel += " (" + k.DisplayName + ")"
		}
		return []Problem{{Msg: kernel + ": " + only}}, nil
	}
	var cells []browsercheck.Cell
	var at []int // the notebook cell of each of cells
	for i, c := range nb.Cells {
		if c.Type == "code" {
			cells = append(cells, browsercheck.Cell{Code: c.Source, MayFail: slices.Contains(c.Tags(), "raises-exception")})
			at = append(at, i+1)
		}
	}
	if len(cells) == 0 {
		return nil, nil
	}
	bc, err := checker()
	if err != nil {
		return nil, err
	}
	var problems []Problem
	for _, p := range bc.Check(cells) {
		problems = append(problems, Problem{Cell: at[p.Cell], Msg: p.String()})
	}
	return problems, nil
}
