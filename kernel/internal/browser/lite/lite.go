// Package lite writes the JupyterLite form of tensornb's static site:
// JupyterLab itself, running in the browser with JupyterLite's
// in-browser services instead of a server, the notebooks as its files,
// and a tensornb kernel whose cells run in the instant engine compiled
// to WebAssembly (package kernel/internal/browser).
//
// The app is bundled with esbuild from the npm packages locked in
// web/package-lock.json (JupyterLab's extensions, JupyterLite's
// services, the kernel in web/kernel.js), into web/dist, before Write
// runs:
//
//	npm ci --prefix kernel/internal/browser/lite/web
//	npm run --prefix kernel/internal/browser/lite/web build
//
// Write lays out in the site what JupyterLite's own (Python) builder
// would: in lab/, the page and its configuration, the bundle and the
// settings schemas; at the site's root, which is the app's base, the
// notebooks as the contents of the file browser (files/, in their
// folders, and a listing of each folder, api/contents/all.json for the
// root, api/contents/FOLDER/all.json for the others) and an English
// translation listing. The
// engine's files are the site's own, at its root too (package
// kernel/internal/browser/site writes them).
package lite

import (
	"encoding/json"
	"fmt"
	"html/template"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/tensornb/tensornb/internal/nbformat"
	"github.com/tensornb/tensornb/kernel/internal/notebook"
)

// bundleDir is the bundle's directory, relative to the module's.
const bundleDir = "kernel/internal/browser/lite/web/dist"

// Dir is the directory of the app in the site.
const Dir = "lab"

// KernelName is the tensornb kernel's name in the app, as the
// notebooks' kernelspec metadata names it.
const KernelName = "tensornb"

// The options of the app's page configuration that the tensornb kernel
// (web/kernel.js) reads: the address of the engine's worker.js, and the
// engine's Go version, for its language_info. kernel.js has these names,
// and KernelName, from kernel/internal/browser/shared.js, which go
// generate makes from them.
const (
	WorkerURLOption = "tensornbWorkerUrl"
	GoVersionOption = "tensornbGoVersion"
)

// The bundle's files that must exist (beside them, in assets/, lie the
// fonts and images the styles load).
var bundleFiles = []string{"lab.js", "lab.css", "schemas/all.json", "themes/@jupyterlab/theme-light-extension/index.css"}

// Write writes the app into siteDir from the tensornb module at
// moduleDir: the bundle and the page in lab/, and the notebooks as its
// contents, in files/ and api/; it deletes what those three directories
// held first. The notebooks are those of the folder src at notebooks,
// paths relative to it with slashes, which the app's files keep, in
// folders as in src. The engine (browser.Build) must be in siteDir
// already.
func Write(moduleDir, siteDir, src string, notebooks []string) error {
	if err := Bundled(moduleDir); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(siteDir, "worker.js")); err != nil {
		return fmt.Errorf("the engine is not in %s (%v): build it there first (browser.Build; site.Write does both)", siteDir, err)
	}
	bundle := filepath.Join(moduleDir, bundleDir)
	for _, name := range []string{Dir, "api", "files"} {
		if err := os.RemoveAll(filepath.Join(siteDir, name)); err != nil {
			return err
		}
	}
	dir := filepath.Join(siteDir, Dir)
	if err := copyDir(bundle, filepath.Join(dir, "build")); err != nil {
		return fmt.Errorf("copying the bundle: %v", err)
	}
	// The files' times in the file browser are the site's.
	built := time.Now().UTC().Format(time.RFC3339)
	listings := map[string][]contentModel{"": nil} // folder → its listing
	for _, rel := range notebooks {
		m, err := writeNotebook(filepath.Join(src, filepath.FromSlash(rel)), filepath.Join(siteDir, "files"), rel, built)
		if err != nil {
			return err
		}
		addToListings(listings, m, built)
	}
	files := map[string]any{
		// JupyterLite's translation connector asks for the languages
		// there are, and for English; the app is in English only.
		"api/translations/all.json": map[string]any{"data": map[string]any{"en": map[string]string{"displayName": "English", "nativeName": "English"}}, "message": ""},
		"api/translations/en.json":  map[string]any{"data": map[string]any{}, "message": ""},
	}
	// JupyterLite reads a folder's listing from api/contents/FOLDER/all.json.
	for folder, listing := range listings {
		sort.Slice(listing, func(i, j int) bool { return listing[i].Name < listing[j].Name })
		name := "" // the root's
		if folder != "" {
			name = path.Base(folder)
		}
		files[path.Join("api/contents", folder, "all.json")] = contentModel{Name: name, Path: folder, Type: "directory", Created: built, LastModified: built, Writable: true, Content: listing}
	}
	for name, v := range files {
		if err := writeJSON(filepath.Join(siteDir, filepath.FromSlash(name)), v); err != nil {
			return err
		}
	}
	config, err := json.Marshal(config())
	if err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, "index.html"))
	if err != nil {
		return err
	}
	page := struct {
		Config, EarlyEngine template.JS
		WorkerOption        string
	}{template.JS(config), EarlyEngine, WorkerURLOption}
	if err := pageTemplate.Execute(f, page); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// addToListings adds the model m of a file to the listing of its folder,
// and each folder above it, made the first time, to its parent's.
func addToListings(listings map[string][]contentModel, m contentModel, built string) {
	for {
		folder := path.Dir(m.Path)
		if folder == "." {
			folder = ""
		}
		_, known := listings[folder]
		listings[folder] = append(listings[folder], m)
		if known {
			return
		}
		m = contentModel{Name: path.Base(folder), Path: folder, Type: "directory", Created: built, LastModified: built, Writable: true}
	}
}

// Bundled says whether the app is bundled in the tensornb module at
// moduleDir, and if not, what to do.
func Bundled(moduleDir string) error {
	for _, name := range bundleFiles {
		if _, err := os.Stat(filepath.Join(moduleDir, bundleDir, name)); err != nil {
			return fmt.Errorf("the JupyterLite app is not bundled (%v): run npm ci --prefix kernel/internal/browser/lite/web and npm run --prefix kernel/internal/browser/lite/web build, or scripts/site", err)
		}
	}
	return nil
}

// config is the app's page configuration (JupyterLab's PageConfig,
// which JupyterLite's builder writes into jupyter-lite.json): the URLs
// of the site's parts, relative to lab/index.html (the page makes the
// ones that start with "." absolute before the app reads them), and the
// kernel the notebooks run in.
func config() map[string]any {
	return map[string]any{
		"appName":             "JupyterLite",
		"appUrl":              "./",
		"baseUrl":             "../", // the site's root: JupyterLite's router wants the app in lab/ under it
		"fullStaticUrl":       "./build",
		"settingsUrl":         "./build/schemas",
		"themesUrl":           Dir + "/build/themes", // joined to baseUrl by JupyterLab
		"contentsAllJsonFile": "all.json",
		"defaultKernelName":   KernelName,
		WorkerURLOption:       "../worker.js",
		// The engine's Go, for the kernel's language_info (the engine is
		// built by the go command that runs this).
		GoVersionOption: strings.TrimPrefix(runtime.Version(), "go"),
		"mode":          "multiple-document",
	}
}

// A contentModel is a file's or directory's model in the Jupyter
// contents API, as JupyterLite reads it from api/contents/…/all.json.
type contentModel struct {
	Name         string         `json:"name"`
	Path         string         `json:"path"`
	Type         string         `json:"type"`
	Format       *string        `json:"format"`
	Mimetype     *string        `json:"mimetype"`
	Created      string         `json:"created"`
	LastModified string         `json:"last_modified"`
	Writable     bool           `json:"writable"`
	Size         *int           `json:"size"`
	Content      []contentModel `json:"content"`
}

// writeNotebook writes the notebook in file into dir, at rel (a path
// with slashes), as a Jupyter server's contents API gives it, which is
// how JupyterLab reads it: its multiline strings (nbformat stores them on
// disk as lists of lines) joined; JupyterLite hands the file to
// JupyterLab as it is. Its code cells are marked trusted (the site's
// builder vouches for its notebooks, so their outputs' scripts run, as
// the explorer needs). It returns the notebook's model, dated built.
func writeNotebook(file, dir, rel, built string) (contentModel, error) {
	nb, err := notebook.Read(file)
	if err != nil {
		return contentModel{}, err
	}
	doc := nb.Document(true)
	for _, cell := range doc["cells"].([]map[string]any) {
		if cell["cell_type"] != "code" {
			continue
		}
		outputs := cell["outputs"].([]map[string]any)
		for i, o := range outputs {
			outputs[i] = JoinOutput(o)
		}
		cell["metadata"].(map[string]any)["trusted"] = true
	}
	out, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		return contentModel{}, err
	}
	target := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return contentModel{}, err
	}
	if err := os.WriteFile(target, out, 0o644); err != nil {
		return contentModel{}, err
	}
	format, size := "json", len(out)
	return contentModel{Name: path.Base(rel), Path: rel, Type: "notebook", Format: &format, Created: built, LastModified: built, Writable: true, Size: &size}, nil
}

// JoinOutput returns an output with its text, and the values of its data
// but JSON ones, joined into strings, as nbformat reads them.
func JoinOutput(o map[string]any) map[string]any {
	out := make(map[string]any, len(o))
	for k, v := range o {
		out[k] = v
	}
	if t, ok := out["text"]; ok {
		out["text"] = joined(t)
	}
	if data, ok := out["data"].(map[string]any); ok {
		values := make(map[string]any, len(data))
		for mime, v := range data {
			if isJSONMime(mime) {
				values[mime] = v
			} else {
				values[mime] = joined(v)
			}
		}
		out["data"] = values
	}
	return out
}

func isJSONMime(mime string) bool {
	return mime == "application/json" || (strings.HasPrefix(mime, "application/") && strings.HasSuffix(mime, "+json"))
}

// joined returns v, nbformat's multiline string, as one string
// (nbformat.Text); a value of another kind is returned as it is.
func joined(v any) any {
	switch v.(type) {
	case nil, string, []any:
		return nbformat.Text(v)
	}
	return v
}

func writeJSON(path string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// copyDir copies the files under from into to.
func copyDir(from, to string) error {
	return filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		target := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// NotebookURL is the address, relative to the site's root, at which the
// app opens the notebook at rel, its path in the site's folder of
// notebooks, with slashes.
func NotebookURL(rel string) string {
	return Dir + "/index.html?path=" + url.QueryEscape(rel)
}

// EarlyEngine is a page's script that defines startEarlyEngine(url): it
// starts the engine's worker from url while the page's own script loads,
// and keeps the messages it sends meanwhile, with their times, in
// window.tnbEarlyEngine, for the script to adopt (engine.js). Where a
// worker cannot start, it leaves nothing: the script tries again and
// says why. The site's pages and JupyterLite's both run it.
const EarlyEngine template.JS = `function startEarlyEngine(url) {
  try {
    var worker = new Worker(url), messages = [], times = [];
    worker.onmessage = function (e) { messages.push(e.data); times.push(performance.now()); };
    worker.onerror = function (e) {
      e.preventDefault();
      messages.push({type: "error", message: e.message || "worker.js failed to load"});
      times.push(performance.now());
    };
    window.tnbEarlyEngine = {worker: worker, started: performance.now(), messages: messages, times: times};
  } catch (e) {}
}`

// The page: no icon (the browser would ask the site for /favicon.ico),
// the configuration, made absolute where it is relative (the app reads
// it through PageConfig, which caches it on first use, so this runs
// before the bundle), the engine's worker, started early, then the
// bundle, an ES module that imports its chunks itself.
var pageTemplate = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>tensornb notebooks — JupyterLite</title>
<link rel="icon" href="data:,">
<script id="jupyter-config-data" type="application/json">{{.Config}}</script>
<script>
(function () {
  var node = document.getElementById("jupyter-config-data");
  var config = JSON.parse(node.textContent);
  var here = new URL(".", location.href);
  for (var key in config) {
    var v = config[key];
    if (/Url$/.test(key) && typeof v === "string" && v.charAt(0) === ".") {
      config[key] = new URL(v, here).pathname.replace(/([^/])$/, key === "baseUrl" || key === "appUrl" ? "$1/" : "$1");
    }
  }
  node.textContent = JSON.stringify(config);
  // The engine starts loading now, while JupyterLab's script loads and
  // starts: the first tensornb kernel adopts it (engine.js).
  {{.EarlyEngine}}
  startEarlyEngine(config[{{.WorkerOption}}]);
})();
</script>
<link rel="stylesheet" href="build/lab.css">
<script type="module" src="build/lab.js"></script>
</head>
<body>
</body>
</html>
`))
