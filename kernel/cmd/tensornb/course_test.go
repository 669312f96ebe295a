package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/kernel/internal/jupytertest"
	"github.com/tensornb/tensornb/kernel/internal/nbgrader"
	"github.com/tensornb/tensornb/kernel/internal/notebook"
)

// puzzles is the sixth notebook, an exercise in nbgrader's format with
// its solutions.
const puzzles = "../../../notebooks/05-stride-puzzles.ipynb"

// installed returns the installed tensornb command: the one the
// kernelspec runs.
func installed(t *testing.T) string {
	t.Helper()
	env := jupytertest.Install(t)
	data, err := os.ReadFile(filepath.Join(jupytertest.JupyterPath(env), "kernels", "tensornb", "kernel.json"))
	if err != nil {
		t.Fatal(err)
	}
	var spec struct{ Argv []string }
	if err := json.Unmarshal(data, &spec); err != nil || len(spec.Argv) == 0 {
		t.Fatalf("kernel.json: %v %s", err, data)
	}
	return spec.Argv[0]
}

// answers gives each puzzle an answer written otherwise than the
// teacher's solution, which computes strides for AsStrided: the view
// methods that make each layout.
var answers = map[string]string{
	"row":             "return x.Select(0, i)",
	"column":          "return x.Select(1, j)",
	"everyotherrow":   "return x.Slice(0, 0, tensor.End, 2)",
	"transposed":      "return x.T()",
	"diagonal":        "return x.Diagonal(0, 0, 1)",
	"antidiagonal":    "n := x.Size(0)\n\tcorner := x.Select(1, n-1)\n\treturn corner.AsStrided([]int{n}, []int{x.Stride(0) - x.Stride(1)}, corner.StorageOffset())",
	"rowsof":          "return v.Unsqueeze(0).Expand(n, v.Size(0))",
	"windows":         "return v.Unfold(0, k, 1)",
	"batchtransposed": "return x.Transpose(1, 2)",
	"crop":            "return x.Narrow(0, top, h).Narrow(1, left, w)",
	"patches":         "return img.Unfold(0, k, 1).Unfold(1, k, 1)",
	"tiles":           "return img.Unfold(0, p, p).Unfold(1, p, p)",
	"hankel":          "return c.Unfold(0, n, 1)",
}

// answer replaces the body of the answer cell id in nb with body.
func answer(t *testing.T, nb *notebook.Notebook, id, body string) {
	t.Helper()
	for _, c := range nb.Cells {
		if m, ok := nbgrader.Of(c); ok && m.GradeID == id {
			signature, _, _ := strings.Cut(c.Source, "\n")
			c.Source = signature + "\n\t" + body + "\n}"
			return
		}
	}
	t.Fatalf("no cell %s", id)
}

// cellOf returns the index of the cell id in nb.
func cellOf(t *testing.T, nb *notebook.Notebook, id string) int {
	t.Helper()
	for i, c := range nb.Cells {
		if m, ok := nbgrader.Of(c); ok && m.GradeID == id {
			return i
		}
	}
	t.Fatalf("no cell %s", id)
	return -1
}

// A test's expected outcome: its feedback's start, "" for a pass.
type outcome map[string]string

// assign runs tensornb assign on the teacher's notebook and returns the
// student's version it wrote at dst.
func assign(t *testing.T, bin, teacher, dst string) *notebook.Notebook {
	t.Helper()
	if out, err := exec.Command(bin, "assign", teacher, dst).CombinedOutput(); err != nil {
		t.Fatalf("tensornb assign: %v\n%s", err, out)
	}
	nb, err := notebook.Read(dst)
	if err != nil {
		t.Fatal(err)
	}
	return nb
}

// answerAll writes the right answers into a student's version.
func answerAll(t *testing.T, nb *notebook.Notebook) {
	t.Helper()
	for id, body := range answers {
		answer(t, nb, id, body)
	}
}

// TestAssignAndGrade runs the installed command as a teacher would: assign
// makes the student's version of the puzzles, and grade -json grades
// submissions of every kind against the teacher's notebook, each field of
// its output checked.
func TestAssignAndGrade(t *testing.T) {
	bin := installed(t)
	dir := t.TempDir()
	teacherPath, err := filepath.Abs(puzzles)
	if err != nil {
		t.Fatal(err)
	}
	teacher, err := notebook.Read(teacherPath)
	if err != nil {
		t.Fatal(err)
	}
	studentPath := filepath.Join(dir, "student.ipynb")
	student := assign(t, bin, teacherPath, studentPath)
	data, _ := os.ReadFile(studentPath)
	for _, gone := range []string{"BEGIN SOLUTION", "BEGIN HIDDEN TESTS", "x.AsStrided([]int{x.Size(1)}, []int{x.Stride(1)}", `"outputs": [
    {`} {
		if bytes.Contains(data, []byte(gone)) {
			t.Errorf("the student's version holds %q", gone)
		}
	}

	// Submissions: each starts from the student's version.
	submission := func(name string, edit func(nb *notebook.Notebook)) string {
		nb := student.Clone()
		edit(nb)
		path := filepath.Join(dir, name+".ipynb")
		if err := nb.Write(path); err != nil {
			t.Fatal(err)
		}
		return path
	}
	right := func(nb *notebook.Notebook) { answerAll(t, nb) }
	with := func(id, body string) func(*notebook.Notebook) {
		return func(nb *notebook.Notebook) { right(nb); answer(t, nb, id, body) }
	}
	notNotebook := filepath.Join(dir, "essay.txt")
	if err := os.WriteFile(notNotebook, []byte("I did not do it"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.ipynb")
	otherNB := &notebook.Notebook{Format: 4, FormatMinor: 5, Metadata: map[string]any{}, Cells: []*notebook.Cell{{Type: "code", Source: "x := 1", Metadata: map[string]any{
		"nbgrader": map[string]any{"grade_id": "fizzbuzz", "solution": true, "grade": false, "locked": false, "schema_version": 3.0}}}}}
	if err := otherNB.Write(other); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		path  string
		score float64
		fails outcome // the tests that fail, by grade_id; the others pass
		err   string
	}{
		{"teacher", teacherPath, 25, nil, ""},
		{"right", submission("right", right), 25, nil, ""},
		{"copy", submission("copy", with("row", "return x.Select(0, i).Clone()")), 24, outcome{"row_test": "AssertionError: right values, but a copy: your result lives in a new storage of 4 slots"}, ""},
		{"strides", submission("strides", with("diagonal", "return x.AsStrided([]int{x.Size(0)}, []int{x.Stride(0)}, x.StorageOffset())")), 23,
			outcome{"diagonal_test": "AssertionError: wrong values: 3 of 4 elements differ, the first at [1]: yours is 4, 5 was expected"}, ""},
		// Right for the examples, old hidden test included: only the
		// generated layouts (check.Agree) show that it takes the columns
		// to be next to each other.
		{"columns together", submission("columns together", with("diagonal", "return x.AsStrided([]int{x.Size(0)}, []int{x.Stride(0) + 1}, x.StorageOffset())")), 23,
			outcome{"diagonal_test": "AssertionError: on the input x := tensor.Float32.Arange(4).View(2, 2).T(): wrong values: 1 of 2 elements differs, at [1]: yours is 2., 3. was expected"}, ""},
		{"compile", submission("compile", with("transposed", "return x.Transpose(0)")), 24, outcome{"transposed_test": "CompileError: the cell does not compile\ncell line 2: undefined: Transposed"}, ""},
		{"panic", submission("panic", with("crop", "var corner []int\n\treturn x.Narrow(0, corner[0], h).Narrow(1, left, w)")), 23, outcome{"crop_test": "panic: runtime error: index out of range"}, ""},
		{"loop", submission("loop", with("hankel", "for {\n\t}")), 22, outcome{"hankel_test": "Timeout: the cell ran past the timeout of 10s and was stopped"}, ""},
		{"tampered", submission("tampered", func(nb *notebook.Notebook) {
			with("column", "return x.Select(1, j).Contiguous()")(nb)
			nb.Cells[cellOf(t, nb, "column_test")].Source = `fmt.Println("all good")`
		}), 24, outcome{"column_test": "AssertionError: right values, but a copy"}, ""},
		{"deleted", submission("deleted", func(nb *notebook.Notebook) {
			with("windows", "return v.Unfold(0, k, 1).Clone()")(nb)
			i := cellOf(t, nb, "windows_test")
			nb.Cells = append(nb.Cells[:i], nb.Cells[i+1:]...)
		}), 23, outcome{"windows_test": "AssertionError: right values, but a copy"}, ""},
		{"stubs", studentPath, 0, outcome{"*": "panic: not written yet"}, ""},
		{"not a notebook", notNotebook, 0, nil, "not a Jupyter notebook of nbformat 4"},
		{"other assignment", other, 0, nil, "not a submission of this assignment: its cells fizzbuzz are not the assignment's"},
	}
	// The workers run on this machine, as the installed command's own
	// sandbox; docker/'s image test grades in the image's containers.
	gradebookPath := filepath.Join(dir, "gradebook.csv")
	args := []string{"grade", "-json", "-image", "none", "-timeout", "10s", "-feedback", filepath.Join(dir, "feedback"), "-csv", gradebookPath, teacherPath}
	for _, c := range cases {
		args = append(args, c.path)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tensornb grade: %v (grading ran, so it must exit 0)\n%s", err, stderr.String())
	}
	var results []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var r map[string]any
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("a line that is not JSON: %v\n%s", err, sc.Text())
		}
		results = append(results, r)
	}
	if len(results) != len(cases) {
		t.Fatalf("%d objects for %d submissions:\n%s\n%s", len(results), len(cases), out, stderr.String())
	}
	var order []string // the test cells' grade_ids in order
	for _, c := range teacher.Cells {
		if m, ok := nbgrader.Of(c); ok && m.Tests() {
			order = append(order, m.GradeID)
		}
	}
	for i, c := range cases {
		r := results[i]
		t.Run(c.name, func(t *testing.T) {
			if r["submission"] != c.path || r["max_score"] != 25.0 {
				t.Errorf("submission %v, max_score %v", r["submission"], r["max_score"])
			}
			if c.err != "" {
				if msg, _ := r["error"].(string); !strings.Contains(msg, c.err) || len(r["tests"].([]any)) != 0 {
					t.Errorf("error %q, tests %v; want an error holding %q and no tests", msg, r["tests"], c.err)
				}
				return
			}
			if r["score"] != c.score {
				t.Errorf("score %v, want %g", r["score"], c.score)
			}
			tests, _ := r["tests"].([]any)
			if len(tests) != len(order) {
				t.Fatalf("%d tests, want %d", len(tests), len(order))
			}
			for k, x := range tests {
				test := x.(map[string]any)
				id := test["grade_id"].(string)
				want, fails := c.fails[id]
				if all, ok := c.fails["*"]; ok {
					want, fails = all, true
				}
				feedback, _ := test["feedback"].(string)
				switch {
				case id != order[k]:
					t.Errorf("test %d is %s, want %s", k, id, order[k])
				case fails && (test["points"] != 0.0 || !strings.HasPrefix(feedback, want)):
					t.Errorf("%s: %v of %v points, feedback %q; want 0 and feedback starting %q", id, test["points"], test["max_points"], feedback, want)
				case !fails && (test["points"] != test["max_points"] || feedback != ""):
					t.Errorf("%s: %v of %v points, feedback %q; want a pass", id, test["points"], test["max_points"], feedback)
				}
			}
		})
	}
	page, err := os.ReadFile(filepath.Join(dir, "feedback", strings.TrimPrefix(filepath.ToSlash(filepath.Join(dir, "copy")), "/")+".html"))
	if err != nil || !bytes.Contains(page, []byte("Score: 24 of 25")) {
		t.Errorf("the copy's feedback page: %v", err)
	}
	report, err := os.ReadFile(filepath.Join(dir, "feedback", "class-report.html"))
	if err != nil || !bytes.Contains(report, []byte("a copy where a view was asked for: ")) {
		t.Errorf("the class report (%v) has no group of copies", err)
	}
	checkGradebook(t, gradebookPath, len(order), cases[1].score, cases[2].score)
}

// -classroom grades one submission as a GitHub Classroom step: its points
// printed, exit status 0 for full marks and 1 below; -gradescope writes
// Gradescope's results.json for it, a test a test cell.
func TestGradeForClassroomAndGradescope(t *testing.T) {
	bin := installed(t)
	dir := t.TempDir()
	teacherPath, err := filepath.Abs(puzzles)
	if err != nil {
		t.Fatal(err)
	}
	right := filepath.Join(dir, "right.ipynb")
	nb := assign(t, bin, teacherPath, right)
	answerAll(t, nb)
	if err := nb.Write(right); err != nil {
		t.Fatal(err)
	}
	answer(t, nb, "row", "return x.Select(0, i).Clone()")
	copied := filepath.Join(dir, "copy.ipynb")
	if err := nb.Write(copied); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path, points string
		exit         int
	}{{right, "Points 25/25\n", 0}, {copied, "Points 24/25\n", 1}} {
		cmd := exec.Command(bin, "grade", "-image", "none", "-classroom", "-feedback", filepath.Join(dir, "feedback"), teacherPath, c.path)
		out, err := cmd.Output()
		if code := cmd.ProcessState.ExitCode(); code != c.exit || !strings.HasSuffix(string(out), c.points) {
			t.Errorf("-classroom %s: exit status %d (%v), printed\n%s\nwant %d and %q last", filepath.Base(c.path), code, err, out, c.exit, c.points)
		}
	}
	// A step a test: the copy loses row_test's point alone.
	for _, c := range []struct {
		test, first, last string
		exit              int
	}{
		{"row_test", "row_test: 0/1 AssertionError: right values, but a copy: ", "Points 0/1", 1},
		{"column_test", "column_test: 1/1 passed", "Points 1/1", 0},
	} {
		cmd := exec.Command(bin, "grade", "-image", "none", "-classroom", "-test", c.test, "-feedback", filepath.Join(dir, "feedback"), teacherPath, copied)
		out, err := cmd.Output()
		lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		if code := cmd.ProcessState.ExitCode(); code != c.exit || len(lines) != 2 || !strings.HasPrefix(lines[0], c.first) || lines[1] != c.last {
			t.Errorf("-classroom -test %s: exit status %d (%v), printed\n%s\nwant %d, and %q then %q", c.test, code, err, out, c.exit, c.first, c.last)
		}
	}
	if out, err := exec.Command(bin, "grade", "-image", "none", "-classroom", "-test", "nope", teacherPath, copied).CombinedOutput(); err == nil ||
		!strings.Contains(string(out), "has no test cell of that grade_id; its test cells are row_test, column_test,") || strings.Contains(string(out), "grading") {
		t.Errorf("-test of no test cell: %v, printed\n%s\nwant it refused before grading, the test cells listed", err, out)
	}
	workflow, err := exec.Command(bin, "classroom-workflow", teacherPath, "puzzles.ipynb").Output()
	if err != nil {
		t.Fatalf("tensornb classroom-workflow: %v", err)
	}
	points := 0.0
	for _, m := range regexp.MustCompile(`(?m)^          max-score: ([\d.]+)$`).FindAllStringSubmatch(string(workflow), -1) {
		p, _ := strconv.ParseFloat(m[1], 64)
		points += p
	}
	if steps := strings.Count(string(workflow), "-classroom -test "); steps != 13 || points != 25 {
		t.Errorf("the workflow has %d steps worth %g points, want 13 worth 25:\n%s", steps, points, workflow)
	}
	// Read back as GitHub reads it, with a YAML parser: a step a test,
	// and the reporter's runners those steps' ids.
	read := exec.Command("/usr/bin/python3", "-c", `import sys, yaml
steps = yaml.safe_load(sys.stdin)["jobs"]["grade"]["steps"]
graded = [s for s in steps if s.get("uses", "").startswith("classroom-resources/autograding-command-grader")]
print(len(graded), sum(s["with"]["max-score"] for s in graded), steps[-1]["with"]["runners"] == ",".join(s["id"] for s in graded))`)
	read.Stdin = bytes.NewReader(workflow)
	if out, err := read.CombinedOutput(); err != nil || strings.TrimSpace(string(out)) != "13 25 True" {
		t.Errorf("PyYAML read the workflow as %q (%v), want 13 steps worth 25 and the reporter reading each (scripts/test installs python3-yaml)", out, err)
	}

	results := filepath.Join(dir, "autograder", "results", "results.json")
	if out, err := exec.Command(bin, "grade", "-image", "none", "-gradescope", results, "-feedback", filepath.Join(dir, "feedback"), teacherPath, copied).CombinedOutput(); err != nil {
		t.Fatalf("-gradescope: %v\n%s", err, out)
	}
	data, err := os.ReadFile(results)
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Score *float64
		Tests []struct {
			Name       string
			Score      *float64
			MaxScore   *float64 `json:"max_score"`
			Output     string
			Visibility string
		}
	}
	if err := json.Unmarshal(data, &r); err != nil || r.Score == nil || *r.Score != 24 || len(r.Tests) != 13 {
		t.Fatalf("results.json (%v):\n%s", err, data)
	}
	if first := r.Tests[0]; first.Name != "row_test" || *first.Score != 0 || *first.MaxScore != 1 || first.Visibility != "visible" || !strings.HasPrefix(first.Output, "AssertionError: right values, but a copy") {
		t.Errorf("results.json's first test: %+v", first)
	}
}

// checkGradebook reads the gradebook of TestAssignAndGrade: Canvas's
// columns, one a test, the total; a row a submission, in order, the
// second (right) and third (copy) with the scores given.
func checkGradebook(t *testing.T, path string, tests int, right, copied float64) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("the gradebook: %v", err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("the gradebook is not CSV: %v", err)
	}
	header := rows[0]
	if len(header) != 5+tests+1 || header[0] != "Student" || header[3] != "SIS Login ID" || header[5] != "row_test" || header[len(header)-1] != "05-stride-puzzles" {
		t.Fatalf("the gradebook's header: %q", header)
	}
	if possible := rows[1]; possible[0] != "Points Possible" || possible[5] != "1" || possible[len(possible)-1] != "25" {
		t.Errorf("the gradebook's points possible: %q", possible)
	}
	for i, want := range map[int]struct {
		id    string
		score float64
	}{3: {"right", right}, 4: {"copy", copied}} {
		row := rows[i]
		if row[0] != want.id || row[len(row)-1] != strconv.FormatFloat(want.score, 'f', -1, 64) {
			t.Errorf("gradebook row %d: %q, want %s with %g", i, row, want.id, want.score)
		}
	}
}

// TestGradeSaysItsSandbox checks the first line grade writes on stderr,
// which says where the workers run, when no container can: with no
// container engine on PATH, with one that has no image of tensornb,
// with docker but not its daemon, with -image none; and that -image
// naming an image the engine lacks fails, saying what to do.
func TestGradeSaysItsSandbox(t *testing.T) {
	bin := installed(t)
	dir := t.TempDir()
	code := func(id string, grade, solution bool, points float64, source string) *notebook.Cell {
		md := map[string]any{"grade_id": id, "grade": grade, "solution": solution, "locked": !solution, "schema_version": 3.0}
		if grade && !solution {
			md["points"] = points
		}
		return &notebook.Cell{Type: "code", Source: source, Metadata: map[string]any{"nbgrader": md}}
	}
	teacher := &notebook.Notebook{Format: 4, FormatMinor: 5, Metadata: map[string]any{}, Cells: []*notebook.Cell{
		code("answer", false, true, 0, "x := 2"),
		code("answer_test", true, false, 1, "if x != 2 {\n\tpanic(\"not 2\")\n}"),
	}}
	teacherPath := filepath.Join(dir, "teacher.ipynb")
	if err := teacher.Write(teacherPath); err != nil {
		t.Fatal(err)
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	// The fake engines: a podman that has no image at all, and a docker
	// whose daemon is not running.
	fakes, daemonless := t.TempDir(), t.TempDir()
	podman := "#!/bin/sh\nif [ \"$1\" = version ]; then echo 4.3.1; exit 0; fi\necho \"Error: $1 $2: no such image\" >&2\nexit 125\n"
	docker := "#!/bin/sh\necho 'Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?' >&2\nexit 1\n"
	for path, script := range map[string]string{filepath.Join(fakes, "podman"): podman, filepath.Join(daemonless, "docker"): docker} {
		if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	goOnly := filepath.Dir(gobin)
	fake := fakes + string(os.PathListSeparator) + goOnly
	for _, c := range []struct {
		name, path string
		flags      []string
		fails      bool
		want       string // in the first line of stderr
	}{
		{"no engine", goOnly, nil, false, "not in a container: neither podman nor docker is on PATH"},
		{"no image", fake, nil, false, "not in a container: podman has none of the images tensornb, localhost/tensornb:image-test (it says: Error: image inspect: no such image): build one"},
		{"docker without its daemon", daemonless + string(os.PathListSeparator) + goOnly, nil, false, "not in a container: docker does not answer (it says: Cannot connect to the Docker daemon"},
		{"none", fake, []string{"-image", "none"}, false, "not in a container: -image none"},
		{"a missing image", fake, []string{"-image", "tensornb:gone"}, true, "-image tensornb:gone: podman has no image tensornb:gone (it says: Error: image inspect: no such image): build it"},
		{"an unknown engine", fake, []string{"-engine", "lxc"}, true, "-engine lxc: give podman, docker or auto"},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"grade", "-json", "-feedback", filepath.Join(dir, "feedback")}, c.flags...)
			cmd := exec.Command(bin, append(args, teacherPath, teacherPath)...)
			cmd.Env = append(os.Environ(), "PATH="+c.path)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			first, _, _ := strings.Cut(stderr.String(), "\n")
			switch {
			case c.fails && err == nil:
				t.Fatalf("grade did not fail:\n%s", stderr.String())
			case !c.fails && err != nil:
				t.Fatalf("grade: %v\n%s", err, stderr.String())
			case !strings.Contains(first, c.want):
				t.Fatalf("stderr's first line is %q, want it to hold %q; all of it:\n%s", first, c.want, stderr.String())
			case !c.fails && (!strings.HasPrefix(first, "tensornb grade: sandbox: each submission's worker on this machine, as you") || !bytes.Contains(out, []byte(`"score":1,`))):
				t.Fatalf("first line %q; output %s", first, out)
			}
		})
	}
}
