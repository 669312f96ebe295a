// Package site builds tensornb's static site: the notebooks as pages
// whose code cells run in the browser, in the instant engine compiled to
// WebAssembly (package kernel/internal/browser), with no server behind them. Any
// file server serves it (GitHub Pages, Serve).
//
// The notebooks are the module's notebooks/, or those of a folder of a
// teacher's own, sub-folders kept (Options); each is checked first as the
// browser's engine will check its cells (Check), so that the builder
// names the cells that cannot run there.
//
// Each notebook becomes NAME.html: its markdown rendered, its code cells
// editable and runnable, their outputs shown by JupyterLab's own output
// area and renderers (the stored outputs until a cell runs). The page
// script, web/page.js, is bundled with esbuild from the npm packages
// locked in web/package-lock.json, into web/dist, before Write runs:
//
//	npm ci --prefix kernel/internal/browser/site/web
//	npm run --prefix kernel/internal/browser/site/web build
//
// scripts/site does both, the same for the JupyterLite app (package
// kernel/internal/browser/lite), then Write.
package site

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/browser"
	"github.com/tensornb/tensornb/kernel/internal/browser/lite"
	ipynb "github.com/tensornb/tensornb/kernel/internal/notebook"
)

// The page script, its styles and the scripts it loads on first use
// (web/lazy.js), in web/dist, and their names in the site.
var bundleFiles = []string{"page.js", "page.css", "lazy-mermaid.js", "lazy-mathjax.js", "lazy-widgets.js", "lazy-widgets.css"}

// BundleDir is the bundle's directory, relative to the module's.
const BundleDir = "kernel/internal/browser/site/web/dist"

// DefaultTitle is the index's title when Options give none.
const DefaultTitle = "tensornb notebooks"

// Options say what a site holds.
type Options struct {
	// Notebooks is the folder whose notebooks the site holds: every
	// .ipynb file under it, in its sub-folders too, but those in hidden
	// folders (.ipynb_checkpoints). "" is the module's notebooks/.
	Notebooks string
	// Title is the index's title; "" is DefaultTitle.
	Title string
	// SkipProblems leaves out the notebooks that have problems (see
	// Check) and writes the site with the others. Without it, a problem
	// stops Write before it writes anything.
	SkipProblems bool
	// Solutions serves an exercise in nbgrader's format as it is, with
	// its solutions and hidden tests. Without it, the site serves the
	// student's version (tensornb assign's).
	Solutions bool
}

// Write builds the site into dir from the tensornb module at moduleDir,
// with the notebooks opts names, once they passed Check: the engine's
// files (browser.Build), the bundled page script, a page for each
// notebook, at its path in the folder (week2/im2col.html for
// week2/im2col.ipynb), the notebooks in JupyterLite (lab/, with api/ and
// files/: package kernel/internal/browser/lite) and index.html, which
// lists them. An exercise in nbgrader's format is served as the
// student's version, unless opts.Solutions. If a notebook has a problem, Write writes nothing and
// returns a *ProblemsError, unless opts.SkipProblems: then it leaves the
// notebooks with problems out, and returns their problems.
func Write(moduleDir, dir string, opts Options) ([]Problem, error) {
	src := opts.Folder(moduleDir)
	good, problems, err := Check(moduleDir, src)
	if err != nil {
		return nil, err
	}
	if len(problems) > 0 && !opts.SkipProblems {
		return problems, &ProblemsError{Problems: problems, Notebooks: len(good) + len(Named(problems))}
	}
	if len(good) == 0 {
		return problems, fmt.Errorf("every notebook in %s has a problem: there is nothing to write", src)
	}
	if err := Bundled(moduleDir); err != nil {
		return problems, err
	}
	if err := lite.Bundled(moduleDir); err != nil {
		return problems, err
	}
	if err := browser.Build(moduleDir, dir); err != nil {
		return problems, err
	}
	served, err := serveable(src, good, opts.Solutions)
	defer os.RemoveAll(served)
	if err != nil {
		return problems, err
	}
	if err := lite.Write(moduleDir, dir, served, good); err != nil {
		return problems, err
	}
	for _, name := range bundleFiles {
		data, err := os.ReadFile(filepath.Join(moduleDir, BundleDir, name))
		if err != nil {
			return problems, err
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return problems, err
		}
	}
	return problems, writePages(dir, served, good, opts)
}

// writePages writes into dir the page of each notebook of src at
// notebooks (paths relative to it, with slashes), in its folder, and the
// index.
func writePages(dir, src string, notebooks []string, opts Options) error {
	var entries []entry
	for _, rel := range notebooks {
		nb, err := ReadNotebook(filepath.Join(src, filepath.FromSlash(rel)))
		if err != nil {
			return err
		}
		e := entry{Page: PageName(rel), Title: nb.Title(), Notebook: path.Base(rel), Folder: path.Dir(rel)}
		if e.Folder == "." {
			e.Folder = ""
		}
		var b bytes.Buffer
		if err := pageTemplate.Execute(&b, struct {
			Title, Root           string
			Notebook, EarlyEngine template.JS
		}{e.Title, strings.Repeat("../", strings.Count(rel, "/")), template.JS(nb.raw), lite.EarlyEngine}); err != nil {
			return err
		}
		page := filepath.Join(dir, filepath.FromSlash(e.Page))
		if err := os.MkdirAll(filepath.Dir(page), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(page, b.Bytes(), 0o644); err != nil {
			return err
		}
		entries = append(entries, e)
	}
	index := indexPage{Title: opts.Title, Ours: opts.Notebooks == "", Folders: folders(entries)}
	if index.Title == "" {
		index.Title = DefaultTitle
	}
	var b bytes.Buffer
	if err := indexTemplate.Execute(&b, index); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "index.html"), b.Bytes(), 0o644)
}

// Folder is the folder of the notebooks, with the tensornb module at
// moduleDir.
func (o Options) Folder(moduleDir string) string {
	if o.Notebooks == "" {
		return filepath.Join(moduleDir, "notebooks")
	}
	return o.Notebooks
}

// Bundled says whether the page script is bundled in the tensornb module
// at moduleDir, and if not, what to do.
func Bundled(moduleDir string) error {
	for _, name := range bundleFiles {
		if _, err := os.Stat(filepath.Join(moduleDir, BundleDir, name)); err != nil {
			return fmt.Errorf("the page script is not bundled (%v): run npm ci --prefix kernel/internal/browser/site/web and npm run --prefix kernel/internal/browser/site/web build, or scripts/site", err)
		}
	}
	return nil
}

// An entry is a notebook in the index: its page, title, file name and
// folder ("" for the top one).
type entry struct{ Page, Title, Notebook, Folder string }

// An indexPage is what the index shows: its title, whether the notebooks
// are the module's own (which it then says what they teach), and the
// notebooks, folder by folder.
type indexPage struct {
	Title   string
	Ours    bool
	Folders []folder
}

// A folder is the notebooks of one folder, in the index.
type folder struct {
	Name    string // "" for the top one
	Entries []entry
}

// folders groups entries, sorted by folder (the top one first), by
// folder.
func folders(entries []entry) []folder {
	var out []folder
	for _, e := range entries {
		if len(out) == 0 || out[len(out)-1].Name != e.Folder {
			out = append(out, folder{Name: e.Folder})
		}
		f := &out[len(out)-1]
		f.Entries = append(f.Entries, e)
	}
	return out
}

// PageName is the name, in the site, of the page of the notebook at rel,
// its path in the folder of notebooks, with slashes: week2/im2col.html
// for week2/im2col.ipynb.
func PageName(rel string) string {
	return strings.TrimSuffix(rel, ".ipynb") + ".html"
}

// A Notebook is a notebook as the page needs it: its cells, with their
// sources and outputs' texts as single strings (nbformat stores them as
// lists of lines on disk).
type Notebook struct {
	Cells []Cell `json:"cells"`
	// Kernel is the kernelspec of its metadata, nil if it has none.
	Kernel *Kernelspec `json:"-"`
	// Format is its nbformat: 4 (an older one has no cells).
	Format int    `json:"-"`
	raw    []byte // the notebook as the page reads it, JSON
}

// A Kernelspec names a notebook's kernel.
type Kernelspec struct {
	Name        string `json:"name"`
	DisplayName string `json:"display_name"`
}

// A Cell is a notebook cell.
type Cell struct {
	Type     string           `json:"cell_type"`
	Source   string           `json:"source"`
	Metadata map[string]any   `json:"metadata"`
	Count    any              `json:"execution_count,omitempty"`
	Outputs  []map[string]any `json:"outputs,omitempty"`
}

// Tags are the cell's tags, as package notebook (ipynb) reads them.
func (c Cell) Tags() []string { return (&ipynb.Cell{Metadata: c.Metadata}).Tags() }

var heading = regexp.MustCompile(`(?m)^#+\s+(.+)$`)

// Title is the notebook's first heading.
func (nb *Notebook) Title() string {
	for _, c := range nb.Cells {
		if c.Type == "markdown" {
			if m := heading.FindStringSubmatch(c.Source); m != nil {
				return strings.TrimSpace(m[1])
			}
		}
	}
	return "tensornb notebook"
}

// ReadNotebook reads the notebook (nbformat 4) at path.
func ReadNotebook(path string) (*Notebook, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	nb, err := parseNotebook(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return nb, nil
}

// parseNotebook reads a notebook from its JSON with package notebook and
// keeps what the page needs, its outputs' texts joined. A notebook of an
// nbformat before 4 (or of none) has only its Format, which Check
// reports; JSON that does not parse gives the decoder's error.
func parseNotebook(data []byte) (*Notebook, error) {
	read, err := ipynb.Parse(data)
	var bad *ipynb.NotANotebook
	switch {
	case errors.As(err, &bad) && bad.JSON != nil:
		return nil, bad.JSON
	case errors.As(err, &bad) && bad.Format < 4:
		return &Notebook{Format: bad.Format}, nil
	case err != nil:
		return nil, err
	}
	nb := &Notebook{Format: read.Format}
	if _, ok := read.Metadata["kernelspec"].(map[string]any); ok {
		name, display := read.Kernel()
		nb.Kernel = &Kernelspec{Name: name, DisplayName: display}
	}
	for _, c := range read.Cells {
		cell := Cell{Type: c.Type, Source: c.Source, Metadata: c.Metadata}
		if c.ExecutionCount != nil {
			cell.Count = *c.ExecutionCount
		}
		for _, o := range c.Outputs {
			cell.Outputs = append(cell.Outputs, lite.JoinOutput(o))
		}
		nb.Cells = append(nb.Cells, cell)
	}
	raw, err := json.Marshal(nb) // escapes <, > and &: safe inside <script>
	if err != nil {
		return nil, err
	}
	nb.raw = raw
	return nb, nil
}

// Handler serves the site in dir: net/http's file server, which sends
// .wasm files as application/wasm, as WebAssembly.instantiateStreaming
// requires.
func Handler(dir string) http.Handler {
	return http.FileServer(http.Dir(dir))
}

var pageTemplate = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}} — tensornb</title>
<link rel="stylesheet" href="{{.Root}}page.css">
<script>
// The engine starts loading now, while the page script loads; page.js
// adopts it. A page in a sub-folder of the site finds the site's files
// in the folders above it; page.js finds them beside itself.
{{.EarlyEngine}}
startEarlyEngine({{.Root}} + "worker.js");
</script>
<script src="{{.Root}}page.js"></script>
</head>
<body class="jp-ThemedContainer">
<script type="application/json" id="tnb-notebook">{{.Notebook}}</script>
</body>
</html>
`))

var indexTemplate = template.Must(template.New("index").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<link rel="stylesheet" href="page.css">
</head>
<body class="jp-ThemedContainer">
<main class="tnb-notebook tnb-index">
<h1>{{.Title}}</h1>
<p>{{if .Ours}}Notebooks that teach how a tensor lives in memory, in Go. Their code
cells{{else}}The code cells of these notebooks, in Go,{{end}} run in this browser: the tensornb instant engine, compiled to
WebAssembly, interprets them in a Web Worker, with no server. Edit a cell
and press Shift-Enter, or Run all; Tab completes, Shift-Tab shows what a
name is. What a cell declares stays for the next cells until Restart
(after an interrupt, the next cell runs the earlier ones again).</p>
<p id="tnb-lab">Or open them in <a href="lab/index.html">JupyterLab</a>, running in this
browser too (JupyterLite), with the same engine as their kernel.</p>
{{range .Folders}}{{if .Name}}<h2 class="tnb-folder">{{.Name}}/</h2>
{{end}}<ul>
{{range .Entries}}<li><a href="{{.Page}}">{{.Title}}</a> <small>({{.Notebook}})</small></li>
{{end}}</ul>
{{end}}</main>
</body>
</html>
`))
