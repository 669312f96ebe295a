package lite

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Write lays out the app as JupyterLite reads it: the listing of each
// folder names its notebooks and sub-folders, each notebook is written as a Jupyter
// server gives it (its multiline strings joined, its code cells
// trusted), and the page holds the configuration. The bundle is a
// stand-in here; the site's test runs the real one in a browser.
func TestWrite(t *testing.T) {
	module := t.TempDir()
	for _, name := range bundleFiles {
		path := filepath.Join(module, bundleDir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("[]"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	nb := `{"cells": [
 {"cell_type": "markdown", "metadata": {}, "source": ["# A\n", "b"]},
 {"cell_type": "code", "metadata": {"tags": ["raises-exception"]}, "execution_count": 1, "source": ["x := 1\n", "x"],
  "outputs": [{"output_type": "execute_result", "execution_count": 1, "metadata": {},
   "data": {"text/plain": ["1\n", "2"], "application/json": {"a": ["b", "c"]}}},
   {"output_type": "stream", "name": "stdout", "text": ["p\n", "q\n"]}]}
 ], "metadata": {"kernelspec": {"name": "tensornb"}}, "nbformat": 4, "nbformat_minor": 5}`
	src := t.TempDir()
	rels := []string{"b.ipynb", "a.ipynb", "week 1/c.ipynb", "week 1/parts/d.ipynb"}
	for _, rel := range rels {
		path := filepath.Join(src, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(nb), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	site := t.TempDir()
	if err := Write(module, site, src, rels); err == nil || !strings.Contains(err.Error(), "the engine is not in") {
		t.Errorf("Write into a site without the engine: %v, want an error that says to build it first", err)
	}
	if err := os.WriteFile(filepath.Join(site, "worker.js"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(module, site, src, rels); err != nil {
		t.Fatal(err)
	}

	type entry struct{ Name, Path, Type string }
	for _, want := range []struct {
		file   string
		folder entry
		listed []entry
	}{
		{"api/contents/all.json", entry{"", "", "directory"}, []entry{{"a.ipynb", "a.ipynb", "notebook"}, {"b.ipynb", "b.ipynb", "notebook"}, {"week 1", "week 1", "directory"}}},
		{"api/contents/week 1/all.json", entry{"week 1", "week 1", "directory"}, []entry{{"c.ipynb", "week 1/c.ipynb", "notebook"}, {"parts", "week 1/parts", "directory"}}},
		{"api/contents/week 1/parts/all.json", entry{"parts", "week 1/parts", "directory"}, []entry{{"d.ipynb", "week 1/parts/d.ipynb", "notebook"}}},
	} {
		var listing struct {
			entry
			Content []entry `json:"content"`
		}
		readJSON(t, filepath.Join(site, want.file), &listing)
		if listing.entry != want.folder || !slices.Equal(listing.Content, want.listed) {
			t.Errorf("%s lists %+v holding %+v, want %+v holding %+v", want.file, listing.entry, listing.Content, want.folder, want.listed)
		}
	}
	for _, rel := range rels {
		if _, err := os.Stat(filepath.Join(site, "files", filepath.FromSlash(rel))); err != nil {
			t.Errorf("the notebook %s is not in files/: %v", rel, err)
		}
	}
	if got, want := NotebookURL("week 1/c.ipynb"), "lab/index.html?path=week+1%2Fc.ipynb"; got != want {
		t.Errorf("NotebookURL of week 1/c.ipynb is %q, want %q", got, want)
	}

	var written struct {
		Cells []struct {
			Source   any            `json:"source"`
			Metadata map[string]any `json:"metadata"`
			Outputs  []struct {
				Text any            `json:"text"`
				Data map[string]any `json:"data"`
			} `json:"outputs"`
		} `json:"cells"`
	}
	readJSON(t, filepath.Join(site, "files", "a.ipynb"), &written)
	if len(written.Cells) != 2 {
		t.Fatalf("the written notebook has %d cells, want 2", len(written.Cells))
	}
	md, code := written.Cells[0], written.Cells[1]
	if md.Source != "# A\nb" || code.Source != "x := 1\nx" {
		t.Errorf("the cells' sources are %q and %q, want them joined", md.Source, code.Source)
	}
	if code.Metadata["trusted"] != true || md.Metadata["trusted"] != nil {
		t.Errorf("trusted: code cell %v, markdown cell %v; want only the code cell trusted", code.Metadata["trusted"], md.Metadata["trusted"])
	}
	if got := code.Outputs[0].Data["text/plain"]; got != "1\n2" {
		t.Errorf("text/plain is %q, want the lines joined", got)
	}
	if got, _ := json.Marshal(code.Outputs[0].Data["application/json"]); string(got) != `{"a":["b","c"]}` {
		t.Errorf("application/json is %s, want it as it was", got)
	}
	if got := code.Outputs[1].Text; got != "p\nq\n" {
		t.Errorf("the stream's text is %q, want the lines joined", got)
	}

	page, err := os.ReadFile(filepath.Join(site, Dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"defaultKernelName":"tensornb"`, `"tensornbWorkerUrl":"../worker.js"`, `"baseUrl":"../"`, `src="build/lab.js"`} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	for _, name := range []string{"build/lab.js", "build/schemas/all.json"} {
		if _, err := os.Stat(filepath.Join(site, Dir, name)); err != nil {
			t.Errorf("the bundle was not copied: %v", err)
		}
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
