package grade_test

import (
	"context"
	"fmt"
	"maps"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tensornb/tensornb/kernel/internal/front"
	"github.com/tensornb/tensornb/kernel/internal/grade"
	"github.com/tensornb/tensornb/kernel/internal/interp"
	"github.com/tensornb/tensornb/kernel/internal/interp/golist"
	"github.com/tensornb/tensornb/kernel/internal/interp/worker"
	"github.com/tensornb/tensornb/kernel/internal/nbgrader"
	"github.com/tensornb/tensornb/kernel/internal/notebook"
)

// The test binary is its own worker, sandboxed as tensornb grade's are:
// with TENSORNB_TEST_WORKER set to the module's directory, it serves
// instead of testing. With TENSORNB_TEST_DIAL set to an address, it
// connects there and exits 0, or exits 1 if it cannot. With
// TENSORNB_TEST_START_DELAY set to a duration, the worker waits that long
// before it serves, as a container's start on a busy machine does.
func TestMain(m *testing.M) {
	if addr := os.Getenv("TENSORNB_TEST_DIAL"); addr != "" {
		c, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			os.Stderr.WriteString(err.Error())
			os.Exit(1)
		}
		c.Close()
		os.Exit(0)
	}
	if module := os.Getenv("TENSORNB_TEST_WORKER"); module != "" {
		if delay, err := time.ParseDuration(os.Getenv("TENSORNB_TEST_START_DELAY")); err == nil {
			time.Sleep(delay)
		}
		if err := worker.Serve(module, os.NewFile(worker.RequestsFD, "requests"), os.NewFile(worker.EventsFD, "events"), os.NewFile(worker.CrashFD, "crash"), interp.Sandboxed); err != nil {
			os.Stderr.WriteString(err.Error())
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// engine returns an instant engine whose worker is this test binary.
func engine(dir string) (front.Engine, error) {
	module, err := filepath.Abs("../../..")
	if err != nil {
		return nil, err
	}
	e := worker.NewEngine(os.Args[0], "-test.run=^$")
	e.Env = []string{"TENSORNB_TEST_WORKER=" + module}
	e.Prepare = grade.NewSandbox(os.Args[0], "-test.run=^$").Prepare(dir)
	return e, nil
}

func cell(typ, role, id string, points float64, source string) *notebook.Cell {
	c := &notebook.Cell{Type: typ, Source: source, Metadata: map[string]any{}}
	if role == "" {
		return c
	}
	md := map[string]any{"grade_id": id, "schema_version": 3.0, "grade": role == "tests", "solution": role == "answer", "locked": role != "answer", "task": false}
	if role == "tests" {
		md["points"] = points
	}
	c.Metadata["nbgrader"] = md
	return c
}

const answer = `// Transposed returns x with its two dimensions swapped, as a view.
func Transposed(x *tensor.Tensor) *tensor.Tensor {
	// BEGIN SOLUTION
	return x.Transpose(0, 1)
	// END SOLUTION
}`

// assignment is an exercise of two test cells, the second with hidden
// tests.
func assignment() *notebook.Notebook {
	return &notebook.Notebook{Format: 4, FormatMinor: 5, Metadata: map[string]any{},
		Cells: []*notebook.Cell{
			cell("markdown", "", "", 0, "# Transpose"),
			cell("code", "locked", "setup", 0, `import "github.com/tensornb/tensornb/tensor"`),
			cell("code", "answer", "transposed", 0, answer),
			cell("code", "tests", "transpose_view", 2, "x := tensor.Arange(6).View(2, 3)\ncheck.View(Transposed(x), x, x.T())"),
			cell("code", "tests", "transpose_shape", 1, "check.Shape(Transposed(tensor.Zeros(4, 5)), 5, 4)\n// BEGIN HIDDEN TESTS\nbig := tensor.Arange(12).View(3, 4)\ncheck.View(Transposed(big), big, big.T())\n// END HIDDEN TESTS"),
		}}
}

// write writes nb into dir as name and returns its path.
func write(t *testing.T, dir, name string, nb *notebook.Notebook) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := nb.Write(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// answered returns the student's version with the answer's body written
// as body, and edit applied to it.
func answered(t *testing.T, body string, edit func(nb *notebook.Notebook)) *notebook.Notebook {
	t.Helper()
	nb, err := nbgrader.Assign(assignment())
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		nb.Cells[2].Source = "func Transposed(x *tensor.Tensor) *tensor.Tensor {\n" + body + "\n}"
	}
	if edit != nil {
		edit(nb)
	}
	return nb
}

func TestGrade(t *testing.T) {
	dir := t.TempDir()
	paths := map[string]string{
		"right":        write(t, dir, "right.ipynb", answered(t, "\treturn x.Permute(1, 0)", nil)),
		"copy":         write(t, dir, "copy.ipynb", answered(t, "\treturn x.T().Contiguous()", nil)),
		"strides":      write(t, dir, "strides.ipynb", answered(t, "\treturn x.AsStrided([]int{x.Size(1), x.Size(0)}, []int{1, 1}, 0)", nil)),
		"compile":      write(t, dir, "compile.ipynb", answered(t, "\treturn x.Transpose(0)", nil)),
		"panic":        write(t, dir, "panic.ipynb", answered(t, "\tvar dims []int\n\treturn x.Transpose(dims[0], dims[1])", nil)),
		"loop":         write(t, dir, "loop.ipynb", answered(t, "\tfor {\n\t}", nil)),
		"stub":         write(t, dir, "stub.ipynb", answered(t, "", nil)),
		"tampered":     write(t, dir, "tampered.ipynb", answered(t, "\treturn x.T().Contiguous()", func(nb *notebook.Notebook) { nb.Cells[3].Source = `fmt.Println("all good")` })),
		"deleted":      write(t, dir, "deleted.ipynb", answered(t, "\treturn x.T().Clone()", func(nb *notebook.Notebook) { nb.Cells = append(nb.Cells[:3], nb.Cells[4:]...) })),
		"not notebook": filepath.Join(dir, "essay.txt"),
		"other":        write(t, dir, "other.ipynb", &notebook.Notebook{Format: 4, FormatMinor: 5, Metadata: map[string]any{}, Cells: []*notebook.Cell{cell("code", "answer", "fizzbuzz", 0, "x := 1")}}),
	}
	if err := os.WriteFile(paths["not notebook"], []byte("I did not do it"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A cell that answers runs in milliseconds, under the race detector
	// and a loaded machine too: only the loops reach the timeout.
	g, err := grade.New(assignment(), grade.Options{Engine: engine, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"right", "copy", "strides", "compile", "panic", "loop", "stub", "tampered", "deleted", "not notebook", "other"}
	var list []string
	for _, n := range names {
		list = append(list, paths[n])
	}
	results := g.GradeAll(context.Background(), list, 2)

	// want gives each submission's score, then each test's feedback
	// start ("" for a pass), or the error's start.
	want := map[string]struct {
		score    float64
		feedback []string
		err      string
	}{
		"right":        {3, []string{"", ""}, ""},
		"copy":         {0, []string{"AssertionError: right values, but a copy: your result lives in a new storage of 6 slots", "AssertionError: right values, but a copy: your result lives in a new storage of 12 slots"}, ""},
		"strides":      {0, []string{"AssertionError: wrong values: 3 of 6 elements differ, the first at [0, 1]: yours is 1, 3 was expected", "AssertionError: wrong values"}, ""},
		"compile":      {0, []string{"CompileError: the cell does not compile\ncell line 2: undefined: Transposed", "CompileError: the cell does not compile\ncell line 1: undefined: Transposed"}, ""},
		"panic":        {0, []string{"panic: runtime error: index out of range", "panic: runtime error: index out of range"}, ""},
		"loop":         {0, []string{"Timeout: the cell ran past the timeout of 10s and was stopped", "Timeout: the cell ran past the timeout of 10s and was stopped"}, ""},
		"stub":         {0, []string{"panic: not written yet", "panic: not written yet"}, ""},
		"tampered":     {0, []string{"AssertionError: right values, but a copy", "AssertionError: right values, but a copy"}, ""},
		"deleted":      {0, []string{"AssertionError: right values, but a copy", "AssertionError: right values, but a copy"}, ""},
		"not notebook": {0, nil, "not a Jupyter notebook of nbformat 4"},
		"other":        {0, nil, "not a submission of this assignment: its cells fizzbuzz are not the assignment's"},
	}
	for i, r := range results {
		name := names[i]
		w := want[name]
		t.Run(name, func(t *testing.T) {
			if r.Submission != paths[name] || r.MaxScore != 3 {
				t.Errorf("submission %q, max score %g", r.Submission, r.MaxScore)
			}
			if w.err != "" {
				if !strings.Contains(r.Error, w.err) || len(r.Tests) != 0 {
					t.Errorf("error %q with %d tests, want one holding %q", r.Error, len(r.Tests), w.err)
				}
				return
			}
			if r.Error != "" {
				t.Fatalf("not graded: %s", r.Error)
			}
			if r.Score != w.score || len(r.Tests) != 2 {
				t.Fatalf("score %g with %d tests, want %g with 2: %+v", r.Score, len(r.Tests), w.score, r.Tests)
			}
			for k, test := range r.Tests {
				wantID, wantMax := []string{"transpose_view", "transpose_shape"}[k], []float64{2, 1}[k]
				if test.GradeID != wantID || test.MaxPoints != wantMax {
					t.Errorf("test %d is %s of %g points, want %s of %g", k, test.GradeID, test.MaxPoints, wantID, wantMax)
				}
				if pass := w.feedback[k] == ""; pass != (test.Points == wantMax) || pass != (test.Feedback == "") {
					t.Errorf("%s: %g points, feedback %q", test.GradeID, test.Points, test.Feedback)
				}
				if !strings.HasPrefix(test.Feedback, w.feedback[k]) {
					t.Errorf("%s's feedback:\n%s\nwant it to start %q", test.GradeID, test.Feedback, w.feedback[k])
				}
			}
		})
	}
}

// The feedback page shows the score, each test's verdict, the cells and
// their pictures, and runs nothing a submission wrote.
// TestSlowStart grades with engines that take longer to start than a
// cell may run: neither the start nor the restart after a timeout is a
// cell's time, and an engine
// that does not start within the start limit leaves the submission not
// graded, saying why.
func TestSlowStart(t *testing.T) {
	dir := t.TempDir()
	right := write(t, dir, "right.ipynb", answered(t, "\treturn x.Permute(1, 0)", nil))
	slow := func(delay string) func(string) (front.Engine, error) {
		return func(dir string) (front.Engine, error) {
			e, err := engine(dir)
			if err != nil {
				return nil, err
			}
			e.(*worker.Engine).Env = append(e.(*worker.Engine).Env, "TENSORNB_TEST_START_DELAY="+delay)
			return e, nil
		}
	}
	g, err := grade.New(assignment(), grade.Options{Engine: slow("12s"), Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	r := g.Grade(context.Background(), right)
	if r.Error != "" || r.Score != 3 {
		t.Errorf("a worker that took 12s to start, cells of 10s at most: score %g of %g, error %q, tests %+v; want 3 of 3", r.Score, r.MaxScore, r.Error, r.Tests)
	}

	// The first test's call loops; the second's calls run in a new
	// worker, which again takes 12s to start and replays the cells before.
	loop := write(t, dir, "loop.ipynb", answered(t, "\tif x.Size(0) == 2 {\n\t\tfor {\n\t\t}\n\t}\n\treturn x.Permute(1, 0)", nil))
	r = g.Grade(context.Background(), loop)
	if r.Error != "" || r.Score != 1 || len(r.Tests) != 2 || !strings.HasPrefix(r.Tests[0].Feedback, "Timeout:") || r.Tests[1].Feedback != "" {
		t.Errorf("a loop in the first test, then a worker that took 12s to start again: score %g of %g, error %q, tests %+v; want 1 of 3, the first test timed out", r.Score, r.MaxScore, r.Error, r.Tests)
	}

	g, err = grade.New(assignment(), grade.Options{Engine: slow("1m"), Timeout: time.Second, StartLimit: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	r = g.Grade(context.Background(), right)
	if want := "the engine did not start within 1s"; !strings.Contains(r.Error, want) || len(r.Tests) != 0 {
		t.Errorf("a worker that did not start within the limit: error %q with %d tests, want one holding %q", r.Error, len(r.Tests), want)
	}
}

func TestPage(t *testing.T) {
	dir := t.TempDir()
	sneaky := answered(t, "\treturn x.T().Contiguous()", func(nb *notebook.Notebook) {
		nb.Cells = append(nb.Cells, cell("code", "", "", 0, `display.Show(display.Bundle{"text/html": "<script>alert(1)</script>", "text/plain": "<b>hi</b>"})`))
	})
	g, err := grade.New(assignment(), grade.Options{Engine: engine})
	if err != nil {
		t.Fatal(err)
	}
	r := g.Grade(context.Background(), write(t, dir, "sneaky.ipynb", sneaky))
	var b strings.Builder
	if err := grade.Page(&b, r); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{
		"Score: 0 of 3",
		"✗ transpose_view: 0 of 2 points",
		"AssertionError: right values, but a copy",
		`<img src="data:image/svg&#43;xml;base64,PHN2Zy`, // the comparison picture, "<svg" in base64
		"&lt;b&gt;hi&lt;/b&gt;",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(page, "<script>alert") {
		t.Error("the page holds the submission's script")
	}
}

// A submission that reads a file outside its directory, writes one, or
// opens a connection fails at the cell that tries, and touches nothing.
func TestSandboxed(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "answers.txt")
	if err := os.WriteFile(secret, []byte("the teacher's"), 0o600); err != nil {
		t.Fatal(err)
	}
	planted := filepath.Join(dir, "planted.txt")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	connected := make(chan struct{}, 1)
	go func() {
		if c, err := ln.Accept(); err == nil {
			c.Close()
			connected <- struct{}{}
		}
	}()
	body := "\tdata, _ := os.ReadFile(" + strconv.Quote(secret) + ")\n" +
		"\tos.WriteFile(" + strconv.Quote(planted) + ", data, 0o644)\n" +
		"\tif c, err := net.Dial(\"tcp\", " + strconv.Quote(ln.Addr().String()) + "); err == nil {\n\t\tc.Close()\n\t}\n" +
		"\treturn x.T()"
	g, err := grade.New(assignment(), grade.Options{Engine: engine})
	if err != nil {
		t.Fatal(err)
	}
	r := g.Grade(context.Background(), write(t, dir, "sneaky.ipynb", answered(t, body, nil)))
	if r.Error != "" || r.Score != 0 {
		t.Fatalf("score %g, error %q", r.Score, r.Error)
	}
	answer := feedback(r.Notebook.Cells[2])
	if !strings.Contains(answer, `import "os": graded code cannot use it`) {
		t.Errorf("the answer cell failed with %q, want the sandbox's refusal of os", answer)
	}
	if _, err := os.Stat(planted); !os.IsNotExist(err) {
		t.Errorf("the submission wrote %s (%v)", planted, err)
	}
	select {
	case <-connected:
		t.Error("the submission connected to the test's listener")
	case <-time.After(500 * time.Millisecond):
	}
}

// TestSandboxKeepsListings checks that a sandboxed worker, whose home is
// a scratch one, keeps its listing of the packages' export data where
// the teacher's kernels keep theirs, so that the next submission's
// worker reads it rather than running the go command.
func TestSandboxKeepsListings(t *testing.T) {
	// The teacher's cache directory is a scratch one here; Go's build
	// cache, by default in it, stays where it is.
	gocache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOCACHE", strings.TrimSpace(string(gocache)))
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	listings := golist.ListingsDir()
	g, err := grade.New(assignment(), grade.Options{Engine: engine})
	if err != nil {
		t.Fatal(err)
	}
	r := g.Grade(context.Background(), write(t, t.TempDir(), "right.ipynb", answered(t, "\treturn x.Permute(1, 0)", nil)))
	if r.Error != "" || r.Score != 3 {
		t.Fatalf("score %g, error %q", r.Score, r.Error)
	}
	kept, err := filepath.Glob(filepath.Join(listings, "*.json"))
	if err != nil || len(kept) == 0 {
		t.Errorf("no listing kept in %s, the teacher's directory of them (%v)", listings, err)
	}
}

// The worker's network namespace has no way out: even a compiled program
// in it, which the interpreter's refusals do not bind, cannot connect to a
// port of this machine.
func TestNetworkCutOff(t *testing.T) {
	sandbox := grade.NewSandbox(os.Args[0], "-test.run=^$")
	if sandbox.Network {
		if os.Getuid() == 0 {
			t.Fatalf("root cannot make a network namespace here: %s", sandbox.Why)
		}
		t.Skipf("the network stays open on this machine: %s (as root, or where user namespaces are allowed, this test runs)", sandbox.Why)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	dial := func(prepare func(*exec.Cmd)) error {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "TENSORNB_TEST_DIAL="+ln.Addr().String())
		if prepare != nil {
			prepare(cmd)
		}
		out, err := cmd.CombinedOutput()
		if err != nil {
			return fmt.Errorf("%v: %s", err, out)
		}
		return nil
	}
	if err := dial(nil); err != nil {
		t.Fatalf("outside the sandbox the dial failed: %v", err)
	}
	if err := dial(sandbox.Prepare(t.TempDir())); err == nil {
		t.Error("inside the sandbox the dial reached the listener")
	}
}

// feedback returns the error a cell showed, or "".
func feedback(c *notebook.Cell) string {
	for _, out := range c.Outputs {
		if out["output_type"] == "error" {
			tb, _ := out["traceback"].([]string)
			return strings.Join(tb, "\n")
		}
	}
	return ""
}

// A sandboxed worker's go command runs in the teacher's environment but
// for its home, GOPROXY=off and GOFLAGS=-mod=mod: the variables that
// would follow the scratch home (GOCACHE, GOPATH) are pinned to the
// teacher's values only where the environment does not set them, and
// nothing else is added. So a worker prepared in the image's environment
// has the go variables a grading container's worker has, and reads the
// listings the image's build kept for them.
func TestSandboxPinsOnlyWhatFollowsTheHome(t *testing.T) {
	out, err := exec.Command("go", "env", "GOCACHE", "GOPATH", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	values := strings.Split(strings.TrimSpace(string(out)), "\n")
	for _, set := range []bool{true, false} {
		if set {
			t.Setenv("GOCACHE", values[0])
			t.Setenv("GOPATH", values[1])
		} else {
			t.Setenv("GOCACHE", "")
			t.Setenv("GOPATH", "")
		}
		want := map[string]string{}
		for _, kv := range os.Environ() {
			if k, v, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "GO") && v != "" {
				want[k] = v
			}
		}
		want["GOPROXY"], want["GOFLAGS"] = "off", "-mod=mod"
		want["GOCACHE"], want["GOPATH"] = values[0], values[1]
		if values[2] != filepath.Join(values[1], "pkg", "mod") {
			want["GOMODCACHE"] = values[2] // set apart with go env -w
		}
		cmd := exec.Command("true")
		cmd.Env = os.Environ()
		grade.NewSandbox("true").Prepare(t.TempDir())(cmd)
		got := map[string]string{}
		for _, kv := range cmd.Env { // the last of a name wins, as exec.Cmd takes it
			if k, v, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "GO") && v != "" {
				got[k] = v
			}
		}
		if !maps.Equal(got, want) {
			t.Errorf("GOCACHE and GOPATH set %v: the worker's go variables are\n%v\nwant\n%v", set, got, want)
		}
	}
}
