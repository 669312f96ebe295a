package site

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/kernel/internal/install"
	"github.com/tensornb/tensornb/kernel/internal/interp/browsercheck"
)

// A course is a teacher's folder of notebooks, outside the repository,
// as the site's tests write it: notebooks at the top and in sub-folders,
// a notebook of another kernel, and cells that cannot run in the
// browser's engine. Its good notebooks hold the outputs they show in the
// browser.
var course = map[string]any{
	"intro.ipynb": notebook(tensornbKernel,
		markdown("# Welcome to the course\n\nStart with [week 1](week1/strides.ipynb)."),
		code(`fmt.Println("hello")`, stream("hello\n"))),
	"week1/strides.ipynb": notebook(tensornbKernel,
		markdown("# Strides, week 1\n\nBack to [the start](../intro.ipynb). Element $(i, j)$ is at\n\n$$\\text{offset} + i \\cdot s_0 + j \\cdot s_1$$"),
		code("import \"github.com/tensornb/tensornb/tensor\"\n\nx := tensor.Float32.Arange(6).View(2, 3)\ny := x.T()\ny.Strides()", result("(1, 3)")),
		tagged(code(`var n int = "six"`, compileError(`cell line 1: cannot use "six" (untyped string constant) as int value in variable declaration`)), "raises-exception"),
		code("fmt.Println(y.IsContiguous())\ny.Contiguous().Strides()", stream("false\n"), result("(2, 1)"))),
	"week2/im2col.ipynb": notebook(tensornbKernel,
		markdown("# im2col"),
		code("x := 1"),
		code("import \"net/http\"\n\nresp, err := http.Get(\"https://example.com\")"),
		code("var s string = x"),
		tagged(code(`import "os/exec"`), "raises-exception"),
		tagged(code("x.Foo()"), "raises-exception"),
		code("%%gonb\nfunc main() {}")),
	"week3/numpy.ipynb": notebook(map[string]any{"name": "python3", "display_name": "Python 3", "language": "python"},
		code("import numpy as np")),
	// Jupyter's copies, which are no notebooks of the course.
	".ipynb_checkpoints/intro-checkpoint.ipynb": notebook(map[string]any{"name": "python3", "display_name": "Python 3"}),
	"week1/notes.md": "# Notes\n",
}

// courseProblems are what the builder prints for the course.
var courseProblems = []string{
	`week2/im2col.ipynb: cell 3: import "net/http": ` + browserLacks,
	`week2/im2col.ipynb: cell 4: line 1: cannot use x (variable of type int) as string value in variable declaration`,
	`week2/im2col.ipynb: cell 5: import "os/exec": ` + browserLacks,
	`week2/im2col.ipynb: cell 7: line 1: %%gonb: the browser has no GoNB to compile this cell (the tensornb kernel in Jupyter has)`,
	`week3/numpy.ipynb: kernel "python3" (Python 3): the site runs only notebooks of the Go (tensornb) kernel`,
}

// courseGood are the course's notebooks that pass the check.
var courseGood = []string{"intro.ipynb", "week1/strides.ipynb"}

// browserLacks ends the problem of a package the browser lacks: the
// packages it has (browsercheck's test checks the list).
var browserLacks = browsercheck.Lacks()

var tensornbKernel = map[string]any{"name": "tensornb", "display_name": "Go (tensornb)", "language": "go"}

// writeCourse writes the course into a new temporary folder, and returns
// the folder.
func writeCourse(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for rel, content := range course {
		data, ok := content.(string)
		if !ok {
			b, err := json.MarshalIndent(content, "", " ")
			if err != nil {
				t.Fatal(err)
			}
			data = string(b)
		}
		path := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func notebook(kernel map[string]any, cells ...map[string]any) map[string]any {
	return map[string]any{"cells": cells, "metadata": map[string]any{"kernelspec": kernel}, "nbformat": 4, "nbformat_minor": 5}
}

func markdown(src string) map[string]any {
	return map[string]any{"cell_type": "markdown", "metadata": map[string]any{}, "source": src}
}

func code(src string, outputs ...map[string]any) map[string]any {
	return map[string]any{"cell_type": "code", "execution_count": nil, "metadata": map[string]any{}, "source": src, "outputs": append([]map[string]any{}, outputs...)}
}

func tagged(cell map[string]any, tags ...string) map[string]any {
	cell["metadata"] = map[string]any{"tags": tags}
	return cell
}

func stream(text string) map[string]any {
	return map[string]any{"output_type": "stream", "name": "stdout", "text": text}
}

func result(text string) map[string]any {
	return map[string]any{"output_type": "execute_result", "execution_count": 1, "metadata": map[string]any{}, "data": map[string]any{"text/plain": text}}
}

func compileError(value string) map[string]any {
	return map[string]any{"output_type": "error", "ename": "CompileError", "evalue": value, "traceback": []string{}}
}

// Check, on a teacher's folder outside the repository, finds every
// notebook under it but Jupyter's hidden copies, and names each problem
// with the notebook's path in the folder and the cell's number among all
// its cells: a notebook of another kernel by its kernelspec; a cell that
// imports a package the browser's engine lacks (tagged raises-exception
// or not), one that does not type-check against the cells before it
// (unless tagged raises-exception), a %%gonb cell. The others pass.
// Write then writes nothing, and says how to go on.
func TestCheckFolder(t *testing.T) {
	src := writeCourse(t)
	found, err := Find(src)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"intro.ipynb", "week1/strides.ipynb", "week2/im2col.ipynb", "week3/numpy.ipynb"}; !slices.Equal(found, want) {
		t.Errorf("Find found %q, want %q", found, want)
	}
	good, problems, err := Check(moduleDir, src)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range problems {
		got = append(got, p.String())
	}
	if !slices.Equal(got, courseProblems) {
		t.Errorf("the problems are\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(courseProblems, "\n"))
	}
	if !slices.Equal(good, courseGood) {
		t.Errorf("the notebooks that pass are %q, want %q", good, courseGood)
	}

	site := t.TempDir()
	_, err = Write(moduleDir, site, Options{Notebooks: src})
	var pe *ProblemsError
	if !errors.As(err, &pe) || len(pe.Problems) != len(courseProblems) {
		t.Fatalf("Write of the course: %v, want its problems", err)
	}
	if want := "2 of the 4 notebooks have problems, so nothing was written: fix them, or build the site without them with --skip-problems"; err.Error() != want {
		t.Errorf("Write's error says %q, want %q", err, want)
	}
	if written, _ := os.ReadDir(site); len(written) > 0 {
		t.Errorf("Write wrote %d files with problems in the notebooks", len(written))
	}
}

// A notebook that is not one of nbformat 4, that names no kernel, or
// whose page would be one of the site's own is a problem too.
func TestCheckNotebookForm(t *testing.T) {
	src := t.TempDir()
	for name, text := range map[string]string{
		"broken.ipynb":    "{",
		"old.ipynb":       `{"nbformat": 3, "metadata": {}, "worksheets": []}`,
		"nokernel.ipynb":  `{"nbformat": 4, "metadata": {}, "cells": []}`,
		"index.ipynb":     `{"nbformat": 4, "metadata": {"kernelspec": {"name": "tensornb"}}, "cells": []}`,
		"lab/index.ipynb": `{"nbformat": 4, "metadata": {"kernelspec": {"name": "tensornb"}}, "cells": []}`,
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(src, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(src, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	good, problems, err := Check(moduleDir, src)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range problems {
		got = append(got, p.String())
	}
	want := []string{
		"broken.ipynb: not a notebook (unexpected end of JSON input)",
		"index.ipynb: its page would be index.html, which the site has for itself: rename the notebook",
		"nokernel.ipynb: no kernel named in its metadata (kernelspec): the site runs only notebooks of the Go (tensornb) kernel",
		"old.ipynb: a notebook of nbformat 3: the site reads nbformat 4 (open and save it in Jupyter to convert it)",
		"lab/index.ipynb: its page would be lab/index.html, which the site has for itself: rename the notebook",
	}
	if len(good) > 0 || !slices.Equal(got, want) {
		t.Errorf("the problems are\n%s\nand %q pass; want\n%s", strings.Join(got, "\n"), good, strings.Join(want, "\n"))
	}
	if _, _, err := Check(moduleDir, t.TempDir()); err == nil || !strings.Contains(err.Error(), "no notebooks") {
		t.Errorf("Check of an empty folder: %v, want an error that says it has no notebooks", err)
	}
}

// The kernels whose notebooks a site runs are those the installer
// writes.
func TestKernels(t *testing.T) {
	if want := []string{install.Name, install.CompiledName}; !slices.Equal(Kernels, want) {
		t.Errorf("Kernels are %q, want the installer's %q", Kernels, want)
	}
}

// The pages of a folder's notebooks keep its sub-folders, and load the
// site's files from its root; the index has the title given and lists
// each notebook by its title, folder by folder.
func TestPagesOfAFolder(t *testing.T) {
	src := writeCourse(t)
	site := t.TempDir()
	if err := writePages(site, src, courseGood, Options{Notebooks: src, Title: "Tensors, week by week"}); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(site, "week1", "strides.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<title>Strides, week 1 — tensornb</title>`, `href="../page.css"`, `<script src="../page.js">`, `startEarlyEngine("../" + "worker.js")`} {
		if !strings.Contains(string(page), want) {
			t.Errorf("week1/strides.html lacks %s", want)
		}
	}
	top, err := os.ReadFile(filepath.Join(site, "intro.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(top), `<script src="page.js">`) || !strings.Contains(string(top), `startEarlyEngine("" + "worker.js")`) {
		t.Errorf("intro.html does not load page.js and worker.js beside it")
	}
	index, err := os.ReadFile(filepath.Join(site, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	want := `<h1>Tensors, week by week</h1>`
	if !strings.Contains(string(index), "<title>Tensors, week by week</title>") || !strings.Contains(string(index), want) {
		t.Errorf("the index lacks the title given")
	}
	if strings.Contains(string(index), "how a tensor lives in memory") {
		t.Errorf("the index of a teacher's folder says what tensornb's own notebooks teach")
	}
	lists := `<ul>
<li><a href="intro.html">Welcome to the course</a> <small>(intro.ipynb)</small></li>
</ul>
<h2 class="tnb-folder">week1/</h2>
<ul>
<li><a href="week1/strides.html">Strides, week 1</a> <small>(strides.ipynb)</small></li>
</ul>`
	if !strings.Contains(string(index), lists) {
		t.Errorf("the index does not list the notebooks by folder:\n%s\nwant in it\n%s", index, lists)
	}
}
