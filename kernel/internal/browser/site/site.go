// Package site builds tensornb's static site: the notebooks as pages
// whose code cells run in the browser, in the instant engine compiled to
// WebAssembly (package kernel/internal/browser), with no server behind them. Any
// file server serves it (GitHub Pages, Serve).
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
	"fmt"
	"html/template"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/browser"
	"github.com/tensornb/tensornb/kernel/internal/browser/lite"
)

// The page script, its styles and the scripts it loads on first use
// (web/lazy.js), in web/dist, and their names in the site.
var bundleFiles = []string{"page.js", "page.css", "lazy-mermaid.js", "lazy-mathjax.js"}

// BundleDir is the bundle's directory, relative to the module's.
const BundleDir = "kernel/internal/browser/site/web/dist"

// Write builds the site into dir from the tensornb module at moduleDir:
// the engine's files (browser.Build), the bundled page script, a page for
// each notebook in notebooks/, the notebooks in JupyterLite (lab/, with
// api/ and files/: package kernel/internal/browser/lite) and index.html, which
// lists them.
func Write(moduleDir, dir string) error {
	if err := Bundled(moduleDir); err != nil {
		return err
	}
	if err := lite.Bundled(moduleDir); err != nil {
		return err
	}
	paths, err := filepath.Glob(filepath.Join(moduleDir, "notebooks", "*.ipynb"))
	if err != nil {
		return err
	}
	if len(paths) == 0 {
		return fmt.Errorf("no notebooks in %s", filepath.Join(moduleDir, "notebooks"))
	}
	if err := browser.Build(moduleDir, dir); err != nil {
		return err
	}
	if err := lite.Write(moduleDir, dir, paths); err != nil {
		return err
	}
	for _, name := range bundleFiles {
		data, err := os.ReadFile(filepath.Join(moduleDir, BundleDir, name))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	var entries []entry
	for _, path := range paths {
		nb, err := ReadNotebook(path)
		if err != nil {
			return err
		}
		e := entry{Page: PageName(path), Title: nb.Title(), Notebook: filepath.Base(path)}
		var b bytes.Buffer
		if err := pageTemplate.Execute(&b, struct {
			Title    string
			Notebook template.JS
		}{e.Title, template.JS(nb.raw)}); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, e.Page), b.Bytes(), 0o644); err != nil {
			return err
		}
		entries = append(entries, e)
	}
	var b bytes.Buffer
	if err := indexTemplate.Execute(&b, entries); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "index.html"), b.Bytes(), 0o644)
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

type entry struct{ Page, Title, Notebook string }

// PageName is the name of the page of the notebook at path.
func PageName(path string) string {
	return strings.TrimSuffix(filepath.Base(path), ".ipynb") + ".html"
}

// A Notebook is a notebook as the page needs it: its cells, with their
// sources and outputs' texts as single strings (nbformat stores them as
// lists of lines on disk).
type Notebook struct {
	Cells []Cell `json:"cells"`
	raw   []byte // the notebook as the page reads it, JSON
}

// A Cell is a notebook cell.
type Cell struct {
	Type     string           `json:"cell_type"`
	Source   string           `json:"source"`
	Metadata map[string]any   `json:"metadata"`
	Count    any              `json:"execution_count,omitempty"`
	Outputs  []map[string]any `json:"outputs,omitempty"`
}

// Tags are the cell's tags.
func (c Cell) Tags() []string {
	var tags []string
	list, _ := c.Metadata["tags"].([]any)
	for _, t := range list {
		if s, ok := t.(string); ok {
			tags = append(tags, s)
		}
	}
	return tags
}

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
	var file struct {
		Cells []struct {
			Type     string           `json:"cell_type"`
			Source   any              `json:"source"`
			Metadata map[string]any   `json:"metadata"`
			Count    any              `json:"execution_count"`
			Outputs  []map[string]any `json:"outputs"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	nb := &Notebook{}
	for _, c := range file.Cells {
		cell := Cell{Type: c.Type, Source: text(c.Source), Metadata: c.Metadata, Count: c.Count}
		if cell.Metadata == nil {
			cell.Metadata = map[string]any{}
		}
		for _, o := range c.Outputs {
			cell.Outputs = append(cell.Outputs, lite.JoinOutput(o))
		}
		nb.Cells = append(nb.Cells, cell)
	}
	nb.raw, err = json.Marshal(nb) // escapes <, > and &: safe inside <script>
	if err != nil {
		return nil, err
	}
	return nb, nil
}

// text is a multiline string as one string.
func text(v any) string {
	s, _ := lite.JoinLines(v).(string)
	return s
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
<link rel="stylesheet" href="page.css">
<script>
// The engine starts loading now, while the page script loads; page.js
// adopts the worker and the messages it sent meanwhile.
try {
  var worker = new Worker("worker.js"), messages = [];
  worker.onmessage = function (e) { messages.push(e.data); };
  worker.onerror = function (e) {
    e.preventDefault();
    messages.push({type: "error", message: e.message || "worker.js failed to load"});
  };
  window.tnbEarlyEngine = {worker: worker, started: performance.now(), messages: messages};
} catch (e) {
  // page.js tries again, and says why it cannot start.
}
</script>
<script src="page.js"></script>
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
<title>tensornb notebooks</title>
<link rel="stylesheet" href="page.css">
</head>
<body class="jp-ThemedContainer">
<main class="tnb-notebook tnb-index">
<h1>tensornb notebooks</h1>
<p>Notebooks that teach how a tensor lives in memory, in Go. Their code
cells run in this browser: the tensornb instant engine, compiled to
WebAssembly, interprets them in a Web Worker, with no server. Edit a cell
and press Shift-Enter, or Run all; Tab completes, Shift-Tab shows what a
name is. What a cell declares stays for the next cells until Restart
(after an interrupt, the next cell runs the earlier ones again).</p>
<p id="tnb-lab">Or open them in <a href="lab/index.html">JupyterLab</a>, running in this
browser too (JupyterLite), with the same engine as their kernel.</p>
<ul>
{{range .}}<li><a href="{{.Page}}">{{.Title}}</a> <small>({{.Notebook}})</small></li>
{{end}}</ul>
</main>
</body>
</html>
`))
