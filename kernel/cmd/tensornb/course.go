package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/tensornb/tensornb/kernel/internal/front"
	"github.com/tensornb/tensornb/kernel/internal/grade"
	"github.com/tensornb/tensornb/kernel/internal/gradebook"
	"github.com/tensornb/tensornb/kernel/internal/interp/worker"
	"github.com/tensornb/tensornb/kernel/internal/nbgrader"
	"github.com/tensornb/tensornb/kernel/internal/notebook"
)

// assignCmd writes the student's version of a notebook, or of every
// notebook under a folder (other files are copied as they are).
func assignCmd(args []string) error {
	if len(args) != 2 {
		return fmt.Errorf("usage: tensornb assign SOURCE STUDENT (a notebook and the student's notebook, or two folders)")
	}
	src, dst := filepath.Clean(args[0]), filepath.Clean(args[1])
	info, err := os.Stat(src)
	if err != nil {
		return err
	}
	if !info.IsDir() {
		if !strings.HasSuffix(dst, ".ipynb") {
			dst = filepath.Join(dst, filepath.Base(src))
		}
		return assignNotebook(src, dst)
	}
	if rel, err := filepath.Rel(src, dst); err == nil && !strings.HasPrefix(rel, "..") {
		return fmt.Errorf("the student's folder %s is inside the source folder %s: give a folder outside it", dst, src)
	}
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			if d.Name() == ".ipynb_checkpoints" {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".ipynb") {
			return assignNotebook(path, filepath.Join(dst, rel))
		}
		return copyFile(path, filepath.Join(dst, rel))
	})
}

// assignNotebook writes the student's version of the notebook src to dst.
func assignNotebook(src, dst string) error {
	if same(src, dst) {
		return fmt.Errorf("%s: the student's version would overwrite the teacher's: give another path", src)
	}
	teacher, err := notebook.Read(src)
	if err != nil {
		return err
	}
	student, err := nbgrader.Assign(teacher)
	if err != nil {
		return fmt.Errorf("%s: %w", src, err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	if err := student.Write(dst); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "wrote %s\n", dst)
	return nil
}

// same reports whether two paths name one file.
func same(a, b string) bool {
	ia, err1 := os.Stat(a)
	ib, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(ia, ib)
}

// copyFile copies the file src to dst.
func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o644)
}

// gradeCmd grades submissions against the teacher's notebook.
func gradeCmd(args []string) error {
	fs := flag.NewFlagSet("grade", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print one JSON object a submission, a line each, instead of a table")
	timeout := fs.Duration("timeout", grade.DefaultTimeout, "how long one cell may run before it is stopped and scores nothing")
	feedback := fs.String("feedback", "feedback", "write a feedback page for each submission under `DIR`")
	jobs := fs.Int("jobs", runtime.NumCPU(), "grade `N` submissions at once")
	module := fs.String("module", "", "the tensornb module `DIR` whose packages cells import on this machine (default: the installation's); with it, the workers run on this machine, not in a container")
	image := fs.String("image", "auto", "run each submission's worker in a container of the tensornb `IMAGE`, with no network and no file of this machine; auto: the local image "+strings.Join(grade.Images, " or ")+", where there is one that podman (or docker) can run; none: on this machine")
	engine := fs.String("engine", "auto", "the container engine that runs -image: podman, docker, or auto (podman if it is on PATH, else docker)")
	csvPath := fs.String("csv", "", "write a gradebook `FILE` that Canvas and Moodle import: a row a student, a column a test, and the total")
	gradescope := fs.String("gradescope", "", "write Gradescope's results.json for the one submission to `FILE`")
	classroom := fs.Bool("classroom", false, "grade one submission as a GitHub Classroom autograding step: print its points, and exit 1 below full marks")
	only := fs.String("test", "", "with -classroom, the step is the test cell of grade_id `ID` alone: its points, and exit 1 below them (tensornb classroom-workflow writes a step a test)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() < 2 {
		return fmt.Errorf("usage: tensornb grade [-json] [-timeout D] [-feedback DIR] [-jobs N] [-image IMAGE|auto|none] [-engine podman|docker|auto] [-csv FILE] [-gradescope FILE] [-classroom [-test ID]] SOURCE SUBMISSION...")
	}
	if *only != "" && !*classroom {
		return fmt.Errorf("-test %s names the test of a -classroom step: give -classroom too", *only)
	}
	if (*gradescope != "" || *classroom) && fs.NArg() != 2 {
		return fmt.Errorf("-gradescope and -classroom grade one submission, not %d: give SOURCE and one SUBMISSION", fs.NArg()-1)
	}
	if *engine != "auto" && *engine != "podman" && *engine != "docker" {
		return fmt.Errorf("-engine %s: give podman, docker or auto", *engine)
	}
	if *module != "" && *image != "auto" && *image != "none" {
		return fmt.Errorf("-module names this machine's tensornb source, which a worker in a container does not use (it imports the image's): give -module or -image, not both")
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	teacher, err := notebook.Read(fs.Arg(0))
	if err != nil {
		return err
	}
	step, err := classroomStep(teacher, fs.Arg(0), *only)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	scratch, err := os.MkdirTemp("", "tensornb-grade-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	newEngine, err := workerEngines(ctx, *image, *engine, *module, self, scratch)
	if err != nil {
		return err
	}
	g, err := grade.New(teacher, grade.Options{Timeout: *timeout, Engine: func(work string) (front.Engine, error) {
		return newEngine(work), nil
	}})
	if err != nil {
		return fmt.Errorf("%s: %w", fs.Arg(0), err)
	}
	paths := fs.Args()[1:]
	start := time.Now()
	fmt.Fprintf(os.Stderr, "grading %s of %s, %d at a time\n", submissions(len(paths)), fs.Arg(0), *jobs)
	results := g.GradeAll(ctx, paths, *jobs)
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("grading was interrupted")
	}
	for _, r := range results {
		if err := writePage(*feedback, r); err != nil {
			return err
		}
	}
	report := filepath.Join(*feedback, "class-report.html")
	if err := writeReport(report, assignmentName(fs.Arg(0)), results); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "graded %s in %.1fs; feedback pages in %s, the class report in %s\n", submissions(len(results)), time.Since(start).Seconds(), *feedback, report)
	if err := writeExports(teacher, fs.Arg(0), results, *csvPath, *gradescope); err != nil {
		return err
	}
	switch {
	case *classroom:
		return printClassroom(results[0], step)
	case *asJSON:
		return printJSON(os.Stdout, results)
	}
	return printTable(os.Stdout, results)
}

// workerEngines returns what starts a submission's worker: in a container
// of image where -image and -module let one run (grade.FindContainer),
// else sandboxed on this machine with the module's source at module (or
// the installation's). It says on stderr which, and why.
func workerEngines(ctx context.Context, image, engine, module, self, scratch string) (func(work string) *worker.Engine, error) {
	var container *grade.Container
	var err error
	var why string // why the workers run on this machine
	switch {
	case image == "none":
		why = "-image none"
	case module != "":
		why = "-module names this machine's tensornb source"
	default:
		container, err = grade.FindContainer(ctx, engine, image, scratch, worker.MemoryLimit())
		if err != nil && image != "auto" {
			return nil, fmt.Errorf("-image %s: %w", image, err)
		}
		if err != nil {
			why = err.Error()
		}
	}
	if container != nil {
		container.Log = os.Stderr
		fmt.Fprintf(os.Stderr, "tensornb grade: sandbox: %s\n", container.Describe())
		return func(string) *worker.Engine {
			e := worker.NewEngine(container.Command()...)
			e.Prepare, e.Ended = container.Prepare, container.Remove
			return e
		}, nil
	}
	dir, err := moduleDir(module, self)
	if err != nil {
		return nil, err
	}
	sandbox := grade.NewSandbox(self, "version")
	fmt.Fprintf(os.Stderr, "tensornb grade: sandbox: %s; not in a container: %s\n", sandbox.Describe(), why)
	if sandbox.Network {
		fmt.Fprintf(os.Stderr, "tensornb grade: warning: the submissions can reach the network: %s\n", sandbox.Why)
	}
	return func(work string) *worker.Engine {
		e := worker.NewEngine(self, "worker", "-sandbox", dir)
		e.Prepare = sandbox.Prepare(work)
		return e
	}, nil
}

// classroomStep returns the teacher's test cell of grade_id id, for a
// -classroom -test step, or nil without -test.
func classroomStep(teacher *notebook.Notebook, source, id string) (*gradebook.TestCell, error) {
	if id == "" {
		return nil, nil
	}
	tests := testCells(teacher)
	for i := range tests {
		if tests[i].GradeID == id {
			return &tests[i], nil
		}
	}
	ids := make([]string, len(tests))
	for i, t := range tests {
		ids[i] = t.GradeID
	}
	return nil, fmt.Errorf("-test %s: %s has no test cell of that grade_id; its test cells are %s", id, source, strings.Join(ids, ", "))
}

// printClassroom prints a GitHub Classroom step of a graded submission:
// the whole notebook's, or with step the test cell's alone. It fails below
// full marks.
func printClassroom(r grade.Result, step *gradebook.TestCell) error {
	if step != nil {
		full, err := gradebook.ClassroomTest(os.Stdout, r, *step)
		if err == nil && !full {
			err = fmt.Errorf("the submission has less than full marks on %s", step.GradeID)
		}
		return err
	}
	full, err := gradebook.Classroom(os.Stdout, r)
	if err == nil && !full {
		err = errors.New("the submission has less than full marks")
	}
	return err
}

// workflowCmd prints a GitHub Classroom autograding workflow for the
// teacher's notebook: a step a test cell, worth its points.
func workflowCmd(args []string) error {
	if len(args) != 2 {
		return fmt.Errorf("usage: tensornb classroom-workflow SOURCE SUBMISSION (the teacher's notebook and the student's, as paths in the students' repository)")
	}
	teacher, err := notebook.Read(args[0])
	if err != nil {
		return err
	}
	tests := testCells(teacher)
	if len(tests) == 0 {
		return fmt.Errorf("%s has no test cell (a cell whose nbgrader metadata has grade and no solution)", args[0])
	}
	return gradebook.Workflow(os.Stdout, args[0], args[1], tests)
}

// testCells lists the teacher's test cells.
func testCells(teacher *notebook.Notebook) []gradebook.TestCell {
	var tests []gradebook.TestCell
	for _, c := range teacher.Cells {
		if m, ok := nbgrader.Of(c); ok && c.Type == "code" && m.Tests() {
			tests = append(tests, gradebook.TestCell{GradeID: m.GradeID, Points: m.Points})
		}
	}
	return tests
}

// writeReport writes the class report (grade.ClassReport) at path.
func writeReport(path, title string, results []grade.Result) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	return errors.Join(grade.ClassReport(f, title, results), f.Close())
}

// writeExports writes the gradebook CSV and Gradescope's results that
// flags asked for, if any.
func writeExports(teacher *notebook.Notebook, source string, results []grade.Result, csvPath, gradescope string) error {
	if csvPath != "" {
		var b bytes.Buffer
		if err := gradebook.WriteCSV(&b, assignmentName(source), results); err != nil {
			return err
		}
		if err := os.WriteFile(csvPath, b.Bytes(), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "gradebook in %s\n", csvPath)
	}
	if gradescope != "" {
		data, err := json.MarshalIndent(gradebook.Gradescope(teacher, results[0]), "", "  ")
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(gradescope), 0o755); err != nil {
			return err
		}
		return os.WriteFile(gradescope, append(data, '\n'), 0o644)
	}
	return nil
}

// submissions counts submissions in words: "1 submission", "3 submissions".
func submissions(n int) string {
	if n == 1 {
		return "1 submission"
	}
	return fmt.Sprintf("%d submissions", n)
}

// assignmentName is the assignment's name, as nbgrader's layout gives it:
// the folder the teacher's notebook is in (source/ASSIGNMENT/...), or the
// notebook's own name.
func assignmentName(source string) string {
	abs, err := filepath.Abs(source)
	if err == nil && filepath.Base(filepath.Dir(filepath.Dir(abs))) == "source" {
		return filepath.Base(filepath.Dir(abs))
	}
	return strings.TrimSuffix(filepath.Base(source), ".ipynb")
}

// moduleDir returns the module cells import from: dir if given, else the
// installation's source beside the running binary (<home>/bin/tensornb
// and <home>/src).
func moduleDir(dir, self string) (string, error) {
	if dir == "" {
		dir = filepath.Join(filepath.Dir(filepath.Dir(self)), "src")
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
			return "", fmt.Errorf("this tensornb is not installed (no %s): run tensornb install, or give -module with a checkout of tensornb", filepath.Join(dir, "go.mod"))
		}
	}
	return filepath.Abs(dir)
}

// writePage writes r's feedback page under dir, at the submission's path
// with .html for .ipynb.
func writePage(dir string, r grade.Result) error {
	path := filepath.Join(dir, filepath.FromSlash(grade.PagePath(r.Submission)))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	return errors.Join(grade.Page(f, r), f.Close())
}

// printJSON prints one object a result, a line each.
func printJSON(w io.Writer, results []grade.Result) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, r := range results {
		if err := enc.Encode(r); err != nil {
			return err
		}
	}
	return nil
}

// printTable prints a line a submission: its score, and each test that
// failed with the first line of its feedback.
func printTable(w io.Writer, results []grade.Result) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SUBMISSION\tSCORE\tFAILED")
	for _, r := range results {
		if r.Error != "" {
			fmt.Fprintf(tw, "%s\tnot graded\t%s\n", r.Submission, r.Error)
			continue
		}
		var failed []string
		for _, t := range r.Tests {
			if t.Feedback != "" {
				first, _, _ := strings.Cut(t.Feedback, "\n")
				failed = append(failed, t.GradeID+": "+first)
			}
		}
		if len(failed) == 0 {
			failed = []string{"-"}
		}
		fmt.Fprintf(tw, "%s\t%g / %g\t%s\n", r.Submission, r.Score, r.MaxScore, failed[0])
		for _, f := range failed[1:] {
			fmt.Fprintf(tw, "\t\t%s\n", f)
		}
	}
	return tw.Flush()
}
