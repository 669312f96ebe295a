package site

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tensornb/tensornb/kernel/internal/front"
	"github.com/tensornb/tensornb/kernel/internal/grade"
	"github.com/tensornb/tensornb/kernel/internal/interp/worker"
	"github.com/tensornb/tensornb/kernel/internal/nbgrader"
	ipynb "github.com/tensornb/tensornb/kernel/internal/notebook"
)

// The self-check is tried on one puzzle of the exercise: the answer cell
// of this grade_id and the test cell after it. A student types over the
// stub a right answer written otherwise than the teacher's solution, then
// a copy where a view is asked.
const (
	selfCheckAnswer = "row" // Row(x, i): row i of the matrix x
	rightAnswer     = "return x.Select(0, i)"
	copyAnswer      = "return x.Select(0, i).Clone()"
)

// An exercise is a notebook of nbgrader's format as the site test checks
// it: the student's version the site serves, and what tensornb grade
// gives for three submissions of it, run through the server's instant
// engine: the version untouched, and the self-check's puzzle answered
// right, then with a copy.
type exercise struct {
	rel     string          // its path in the folder, with slashes
	teacher *Notebook       // the teacher's, with its stored outputs
	served  *ipynb.Notebook // files/rel of the site
	// answer and test are the indexes, among all cells, of the
	// self-check's answer cell and of its test cell.
	answer, test int
	testID       string // the test cell's grade_id
	// stub is the text of the answer cell that the student replaces: the
	// stub, from its first line's text to its last line's end.
	stub string
	// The answer cell's source once the right answer, then the copy, is
	// typed over the stub.
	rightSource, copySource string

	done chan struct{} // closed once graded
	err  error
	// untouched, right and copied are the graded submissions.
	untouched, right, copied grade.Result
}

// newExercise reads the exercise rel of the folder src, as the site at
// siteDir serves it, and starts grading its submissions in the
// background, in work. It returns nil if the notebook is no exercise.
func newExercise(src, siteDir, rel, work string) (*exercise, error) {
	teacher, err := ipynb.Read(filepath.Join(src, filepath.FromSlash(rel)))
	if err != nil || !isExercise(teacher) {
		return nil, err
	}
	ex := &exercise{rel: rel, answer: -1, test: -1, done: make(chan struct{})}
	if ex.teacher, err = ReadNotebook(filepath.Join(src, filepath.FromSlash(rel))); err != nil {
		return nil, err
	}
	if ex.served, err = ipynb.Read(filepath.Join(siteDir, "files", filepath.FromSlash(rel))); err != nil {
		return nil, err
	}
	if len(ex.served.Cells) != len(teacher.Cells) {
		return nil, fmt.Errorf("%s: the site serves %d cells, the teacher's notebook has %d", rel, len(ex.served.Cells), len(teacher.Cells))
	}
	for i, c := range ex.served.Cells {
		m, _ := nbgrader.Of(c)
		switch {
		case m.Answer() && m.GradeID == selfCheckAnswer:
			ex.answer = i
		case ex.answer >= 0 && ex.test < 0 && m.Tests():
			ex.test, ex.testID = i, m.GradeID
		}
	}
	if ex.answer < 0 || ex.test < 0 {
		return nil, fmt.Errorf("%s: no answer cell %q followed by a test cell", rel, selfCheckAnswer)
	}
	if solution := teacher.Cells[ex.answer].Source; strings.Contains(solution, strings.TrimPrefix(rightAnswer, "return ")) {
		return nil, fmt.Errorf("%s: the teacher's solution to %q holds the answer the test types as one written otherwise:\n%s", rel, selfCheckAnswer, solution)
	}
	source := ex.served.Cells[ex.answer].Source
	from := strings.Index(source, nbgrader.Stub[0])
	last := nbgrader.Stub[len(nbgrader.Stub)-1]
	to := strings.Index(source, last)
	if from < 0 || to < from {
		// The checks that need no grading still run.
		ex.err = fmt.Errorf("%s: the served answer cell %q holds no stub, as the student's version would:\n%s", rel, selfCheckAnswer, source)
		close(ex.done)
		return ex, nil
	}
	ex.stub = source[from : to+len(last)]
	ex.rightSource = strings.Replace(source, ex.stub, rightAnswer, 1)
	ex.copySource = strings.Replace(ex.rightSource, rightAnswer, copyAnswer, 1)

	var paths []string
	for i, answer := range []string{source, ex.rightSource, ex.copySource} {
		sub := ex.served.Clone()
		sub.Cells[ex.answer].Source = answer
		paths = append(paths, filepath.Join(work, fmt.Sprintf("submission%d.ipynb", i)))
		if err := sub.Write(paths[i]); err != nil {
			return nil, err
		}
	}
	go func() {
		defer close(ex.done)
		ex.err = ex.grade(teacher, paths)
	}()
	return ex, nil
}

// grade grades the submissions at paths as tensornb grade does, each in
// an instant engine of its own whose worker is this test binary (not
// sandboxed: the test wrote the submissions). No submission loops, so
// the cells' timeout and the worker's start limit only stop a hang: they
// are hangAfter, not tensornb grade's 30 s and 2 minutes.
func (ex *exercise) grade(teacher *ipynb.Notebook, paths []string) error {
	g, err := grade.New(teacher, grade.Options{Timeout: hangAfter, StartLimit: hangAfter, Engine: func(string) (front.Engine, error) {
		e := worker.NewEngine(os.Args[0], "-test.run=^$")
		e.Env = []string{"TENSORNB_TEST_WORKER=1"}
		return e, nil
	}})
	if err != nil {
		return err
	}
	results := g.GradeAll(context.Background(), paths, 1)
	for _, r := range results {
		if r.Error != "" {
			return fmt.Errorf("grading %s: %s", r.Submission, r.Error)
		}
	}
	ex.untouched, ex.right, ex.copied = results[0], results[1], results[2]
	return nil
}

// graded waits for the submissions' grading and checks what the grader
// says of them: the untouched version fails every test on a stub, the
// right answer passes its test and the copy fails it otherwise.
func (ex *exercise) graded(t *testing.T) {
	t.Helper()
	<-ex.done
	if ex.err != nil {
		t.Fatal(ex.err)
	}
	for _, test := range ex.untouched.Tests {
		if !strings.HasPrefix(test.Feedback, "panic: not written yet") {
			t.Errorf("tensornb grade gives the untouched student's version of %s, test %s, the feedback %q, want a panic of the stub", ex.rel, test.GradeID, test.Feedback)
		}
	}
	if r := ex.result(ex.right); r.Points != r.MaxPoints || r.Feedback != "" {
		t.Errorf("tensornb grade gives %s's right answer (%s) %+v, want its points", ex.testID, rightAnswer, r)
	}
	if r := ex.result(ex.copied); r.Points != 0 || r.Feedback == "" || strings.HasPrefix(r.Feedback, "panic: not written yet") {
		t.Errorf("tensornb grade gives %s's copy (%s) %+v, want no points and the check's feedback", ex.testID, copyAnswer, r)
	}
}

// result is the self-check's test in a graded submission.
func (ex *exercise) result(r grade.Result) grade.Test {
	for _, test := range r.Tests {
		if test.GradeID == ex.testID {
			return test
		}
	}
	return grade.Test{GradeID: ex.testID, Feedback: "(no such test)"}
}

// A shownVerdict is what the self-check shows under a cell: its line,
// and the feedback of a test that failed (nil when none is shown).
type shownVerdict struct {
	Line     string  `json:"line"`
	Feedback *string `json:"feedback"`
	// Overflows says that the verdict is wider than the cell it is in,
	// or than the window: a line of its feedback does not wrap.
	Overflows bool `json:"overflows"`
}

func (v *shownVerdict) String() string {
	if v == nil {
		return "no verdict"
	}
	if v.Feedback == nil {
		return fmt.Sprintf("%q", v.Line)
	}
	return fmt.Sprintf("%q with the feedback %q", v.Line, *v.Feedback)
}

// verdictJS gives, for the cell node c, what the verdict under it
// shows, or null.
const verdictJS = `((c) => {
  const v = c.querySelector(":scope > .tnb-verdict");
  if (!v) {
    return null;
  }
  const line = v.querySelector(".tnb-verdict-line");
  const feedback = v.querySelector("pre.tnb-verdict-feedback");
  // Wider than the cell, or than the window, or cut.
  const right = Math.min(c.getBoundingClientRect().right, document.documentElement.clientWidth);
  const overflows = v.getBoundingClientRect().right > right + 0.5 || [v, feedback].some((e) => e && e.scrollWidth > e.clientWidth);
  return { line: line ? line.textContent : "", feedback: feedback ? feedback.textContent : null, overflows };
})`

// wantVerdict is what the self-check must show for a test as the grader
// scored it: whether it passed and its points, and when it failed the
// grader's feedback.
func wantVerdict(test grade.Test) *shownVerdict {
	return drawn(nbgrader.Verdict{Passed: test.Feedback == "", Points: test.Points, Max: test.MaxPoints, Feedback: test.Feedback})
}

// judged is what the self-check must show under the test cell c of the
// served notebook once it ran with outputs, as the page holds them: Go's
// verdict of them (nbgrader.Judge), which the page asks the engine for
// and only draws; nil if c is no test cell. A page that judged the cell
// by a rule of its own, unlike Go's, would show something else.
func judged(c *ipynb.Cell, outputs []map[string]any) *shownVerdict {
	v, ok := nbgrader.Judge(&ipynb.Cell{Type: c.Type, Metadata: c.Metadata, Outputs: outputs})
	if !ok {
		return nil
	}
	return drawn(v)
}

// drawn is what the self-check shows for the verdict v.
func drawn(v nbgrader.Verdict) *shownVerdict {
	unit := "points"
	if v.Max == 1 {
		unit = "point"
	}
	if v.Passed {
		return &shownVerdict{Line: fmt.Sprintf("✓ passed: %g of %g %s", v.Points, v.Max, unit)}
	}
	return &shownVerdict{Line: fmt.Sprintf("✗ failed: %g of %g %s", v.Points, v.Max, unit), Feedback: &v.Feedback}
}

// checkVerdict checks that what a cell shows (got) is the verdict want
// (nil: none), within the cell's width.
func checkVerdict(t *testing.T, cell string, got, want *shownVerdict) {
	t.Helper()
	if got.String() != want.String() {
		t.Errorf("%s shows %s, want %s", cell, got, want)
	}
	if got != nil && got.Overflows {
		t.Errorf("%s: its verdict is wider than the cell (a line of its feedback does not wrap)", cell)
	}
}

// checkVerdicts checks the verdict shown under each code cell of the
// exercise (shown, in the order of cells) against the grader's result
// r: each test cell that ran shows the grader's score and feedback, and
// Go's verdict of the outputs it shows (judged); no other cell shows a
// verdict.
func (ex *exercise) checkVerdicts(t *testing.T, cells []pageCell, shown []*shownVerdict, r grade.Result) {
	t.Helper()
	for i, c := range cells {
		served := ex.served.Cells[c.Index]
		var want, judge *shownVerdict
		if m, ok := nbgrader.Of(served); ok && m.Tests() && c.Reply != nil {
			for _, test := range r.Tests {
				if test.GradeID == m.GradeID {
					want = wantVerdict(test)
				}
			}
			judge = judged(served, c.Outputs)
		}
		name := fmt.Sprintf("cell %d %q", c.Index, firstLine(served.Source))
		checkVerdict(t, name, shown[i], want)
		checkVerdict(t, name+", by nbgrader.Judge of its outputs,", shown[i], judge)
	}
}

// checkGradedOutputs checks that each code cell's outputs equal those the
// grader's run of the same submission r gave, compared as checkOutputs
// compares them, that the answer cells (stubs) run without an error, and
// that the cells before the first answer cell, which hold what the
// teacher wrote, give the teacher's stored outputs.
func (ex *exercise) checkGradedOutputs(t *testing.T, cells []pageCell, r grade.Result) {
	t.Helper()
	firstAnswer := slices.IndexFunc(ex.served.Cells, func(c *ipynb.Cell) bool { m, _ := nbgrader.Of(c); return m.Answer() })
	for _, c := range cells {
		graded := r.Notebook.Cells[c.Index].Outputs
		failed := slices.ContainsFunc(graded, func(o map[string]any) bool { return o["output_type"] == "error" })
		raised := slices.ContainsFunc(c.Outputs, func(o map[string]any) bool { return o["output_type"] == "error" })
		if raised != failed {
			t.Errorf("cell %d %q raised: %v, and in tensornb grade's run: %v", c.Index, firstLine(ex.served.Cells[c.Index].Source), raised, failed)
		}
		if m, _ := nbgrader.Of(ex.served.Cells[c.Index]); m.Answer() && (raised || c.Reply["status"] != "ok") {
			t.Errorf("the answer cell %d %q, a stub, does not run without an error: %s", c.Index, firstLine(ex.served.Cells[c.Index].Source), jsonText(c.Outputs))
		}
		if got, want := Comparable(c.Outputs), Comparable(graded); got != want {
			at := mismatch(got, want)
			t.Errorf("cell %d %q: the outputs differ from tensornb grade's at byte %d:\n%s\ntensornb grade's:\n%s", c.Index, firstLine(ex.served.Cells[c.Index].Source), at, around(got, at), around(want, at))
		}
		if c.Index < firstAnswer {
			if got, want := Comparable(c.Outputs), Comparable(ex.teacher.Cells[c.Index].Outputs); got != want {
				at := mismatch(got, want)
				t.Errorf("cell %d %q, the teacher's: the outputs differ from the stored ones at byte %d:\n%s\nstored:\n%s", c.Index, firstLine(ex.served.Cells[c.Index].Source), at, around(got, at), around(want, at))
			}
		}
	}
}

// firstTest is the index, among the code cells, of the first test cell.
func (ex *exercise) firstTest() int {
	n := 0
	for _, c := range ex.served.Cells {
		if c.Type != "code" {
			continue
		}
		if m, ok := nbgrader.Of(c); ok && m.Tests() {
			return n
		}
		n++
	}
	return -1
}

// codeIndex is the index among the code cells of the cell at index i
// among all cells.
func (ex *exercise) codeIndex(i int) int {
	n := 0
	for _, c := range ex.served.Cells[:i] {
		if c.Type == "code" {
			n++
		}
	}
	return n
}

// checkRunAll checks what Run all did on the student's version: it
// stopped at the first test cell, which fails on a stub as Jupyter's Run
// all stops at an error, after the cells before it ran without one.
func (ex *exercise) checkRunAll(t *testing.T, completed bool, cells []pageCell) {
	t.Helper()
	stop := ex.firstTest()
	if completed {
		t.Errorf("Run all ran every cell of the student's version of %s, want it stopped at the first test cell, code cell %d, whose stub panics", ex.rel, stop)
	}
	for i, c := range cells {
		status, _ := c.Reply["status"].(string)
		want := "ok"
		switch {
		case i == stop:
			want = "error"
		case i > stop:
			want = "" // not run
		}
		if status != want {
			t.Errorf("after Run all, code cell %d (cell %d %q) replied %q, want %q (Run all stops at the first test cell, code cell %d)", i, c.Index, firstLine(ex.served.Cells[c.Index].Source), status, want, stop)
		}
	}
}

// checkNoSolutions checks that no file of the site at dir holds a line of
// the teacher's solutions or hidden tests in the exercise at teacherPath,
// as it is or as JSON writes it; a line the student sees anyway (in a
// notebook at public, or elsewhere in the teacher's) is no secret.
func checkNoSolutions(t *testing.T, dir, teacherPath string, public []string) {
	t.Helper()
	teacher, err := ipynb.Read(teacherPath)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, p := range public {
		nb, err := ipynb.Read(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range nb.Cells {
			for _, line := range strings.Split(c.Source, "\n") {
				seen[strings.TrimSpace(line)] = true
			}
		}
	}
	type secret struct{ line, of string }
	var secrets []secret
	for _, c := range teacher.Cells {
		m, _ := nbgrader.Of(c)
		inside := false
		for _, line := range strings.Split(c.Source, "\n") {
			text := strings.TrimSpace(line)
			comment := strings.HasPrefix(text, "//")
			switch {
			case comment && (strings.Contains(text, "END SOLUTION") || strings.Contains(text, "END HIDDEN TESTS")):
				inside = false
			case comment && (strings.Contains(text, "BEGIN SOLUTION") || strings.Contains(text, "BEGIN HIDDEN TESTS")):
				inside = true
			case inside && text != "":
				secrets = append(secrets, secret{text, m.GradeID})
			default:
				seen[text] = true
			}
		}
	}
	if len(secrets) == 0 {
		t.Fatalf("%s holds no solution nor hidden test", teacherPath)
	}
	var needles [][]byte
	var of []secret
	for _, s := range secrets {
		if seen[s.line] {
			t.Logf("%q, in %s's solution or hidden tests, is also where a student sees it", s.line, s.of)
			continue
		}
		var forms [][]byte
		forms = append(forms, []byte(s.line))
		for _, escapeHTML := range []bool{true, false} {
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(escapeHTML)
			_ = enc.Encode(s.line)
			forms = append(forms, bytes.TrimSuffix(bytes.TrimPrefix(bytes.TrimSpace(b.Bytes()), []byte(`"`)), []byte(`"`)))
		}
		for i, f := range forms {
			if !slices.ContainsFunc(forms[:i], func(g []byte) bool { return bytes.Equal(f, g) }) {
				needles = append(needles, f)
				of = append(of, s)
			}
		}
	}
	find := newFinder(needles)
	files := 0
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		var found []string
		for _, i := range find.in(data) {
			found = append(found, fmt.Sprintf("%q (%s)", of[i].line, of[i].of))
		}
		if len(found) > 0 {
			rel, _ := filepath.Rel(dir, path)
			t.Errorf("the site's %s holds %d lines of the teacher's solutions and hidden tests (by grade_id), the first %s", filepath.ToSlash(rel), len(found), strings.Join(found[:min(len(found), 3)], ", "))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d lines of the teacher's solutions and hidden tests looked for in the site's %d files", len(secrets), files)
}

// checkPage runs the exercise's student version on its page, open in ctx,
// and returns what its code cells hold once each ran. Run all stops at
// the first test cell (checkRunAll), which shows its verdict; the cells
// after it are run one at a time, as a student clicks each ▶ in turn.
// Every cell's outputs and every test cell's verdict are then those
// tensornb grade gives for the untouched student's version. Then the
// self-check: the right answer typed over the stub passes its test, and
// a copy fails it with the grader's feedback, character for character.
func (ex *exercise) checkPage(t *testing.T, ctx context.Context) []pageCell {
	t.Helper()
	completed, cells := clickRunAll(t, ctx)
	ex.checkRunAll(t, completed, cells)
	verdicts := `tnb.page.cells.map((c) => (` + verdictJS + `)(c.node))`
	ex.graded(t)
	ex.checkVerdicts(t, cells, evaluate[[]*shownVerdict](t, ctx, verdicts), ex.untouched)

	// The rest, each with what its ▶ runs.
	rest := fmt.Sprintf(`(async () => { for (const c of tnb.page.cells.slice(%d)) { await c.execute().catch(() => {}); } return true; })()`, ex.firstTest()+1)
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](rest, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatalf("running the cells after the first test: %v", err)
	}
	cells = evaluate[[]pageCell](t, ctx, "tnb.cells()")
	ex.checkGradedOutputs(t, cells, ex.untouched)
	ex.checkVerdicts(t, cells, evaluate[[]*shownVerdict](t, ctx, verdicts), ex.untouched)

	answer, test := ex.codeIndex(ex.answer), ex.codeIndex(ex.test)
	source := fmt.Sprintf("tnb.page.cells[%d].editor.source", answer)
	for _, step := range []struct {
		old, typed, want string
		r                grade.Result
	}{
		{ex.stub, rightAnswer, ex.rightSource, ex.right},
		{rightAnswer, copyAnswer, ex.copySource, ex.copied},
	} {
		selected := fmt.Sprintf(`(() => {
			const e = tnb.page.cells[%d].editor;
			const at = e.source.indexOf(%s);
			if (at < 0) {
				return false;
			}
			e.focus();
			e.view.dispatch({ selection: { anchor: at, head: at + %[2]s.length } });
			return true;
		})()`, answer, jsString(step.old))
		ex.typeOver(t, ctx, selected, source, step.typed, step.want)
		if out := waitRun(t, ctx, answer); out != "" {
			t.Errorf("the answer cell, with %q typed in, shows %q", step.typed, out)
		}
		waitRun(t, ctx, test)
		got := evaluate[*shownVerdict](t, ctx, fmt.Sprintf(`(%s)(tnb.page.cells[%d].node)`, verdictJS, test))
		checkVerdict(t, fmt.Sprintf("with %q typed into the answer cell, its test cell (as tensornb grade scores that submission)", step.typed), got, wantVerdict(ex.result(step.r)))
		outputs := evaluate[[]pageCell](t, ctx, "tnb.cells()")[test].Outputs
		checkVerdict(t, fmt.Sprintf("with %q typed into the answer cell, its test cell (by nbgrader.Judge of its outputs)", step.typed), got, judged(ex.served.Cells[ex.test], outputs))
	}
	return cells
}

// typeOver runs selected, which selects text in an editor and focuses it
// (false if the editor lacks the text), types typed over the selection
// key by key, and checks that the editor then holds want (source gives
// its text).
func (ex *exercise) typeOver(t *testing.T, ctx context.Context, selected, source, typed, want string) {
	t.Helper()
	if ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](selected, chromedp.EvalAwaitPromise)); err != nil || !ok {
		t.Fatalf("the answer cell holds no text to type %q over (%v): %q", typed, err, evaluate[string](t, ctx, source))
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(typed)); err != nil {
		t.Fatal(err)
	}
	if got := evaluate[string](t, ctx, source); got != want {
		t.Fatalf("after typing %q, the answer cell holds %q, want %q", typed, got, want)
	}
}

// checkLab runs the exercise's student version in JupyterLab, open in
// ctx with tnbLabTest, and checks it as checkPage does on a page: Run
// All Cells stops at the first test cell, JupyterLab's Run Selected Cell
// runs each cell after it, and the outputs, the verdicts and the
// self-check are tensornb grade's.
func (ex *exercise) checkLab(t *testing.T, ctx context.Context) []labCell {
	t.Helper()
	runAllLab(t, ctx)
	cells := evaluate[[]labCell](t, ctx, "tnbLabTest.cells()")
	n := evaluate[int](t, ctx, "tnbLabTest.requests()")
	ex.checkRunAll(t, n == len(cells), labPage(cells))
	ex.graded(t)
	ex.checkVerdicts(t, labPage(cells), labVerdicts(t, ctx), ex.untouched)

	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf("tnbLabTest.runFrom(%d)", n), chromedp.EvalAwaitPromise)); err != nil {
		t.Fatalf("running the cells after the first test: %v", err)
	}
	cells = evaluate[[]labCell](t, ctx, "tnbLabTest.cells()")
	for _, c := range cells {
		if (c.Shown == 0) != (len(c.Outputs) == 0) {
			t.Errorf("cell %d: the kernel sent %d outputs, JupyterLab shows %d", c.Index, len(c.Outputs), c.Shown)
		}
	}
	ex.checkGradedOutputs(t, labPage(cells), ex.untouched)
	ex.checkVerdicts(t, labPage(cells), labVerdicts(t, ctx), ex.untouched)

	source := fmt.Sprintf("tnbLabTest.source(%d)", ex.answer)
	for _, step := range []struct {
		old, typed, want string
		r                grade.Result
	}{
		{ex.stub, rightAnswer, ex.rightSource, ex.right},
		{rightAnswer, copyAnswer, ex.copySource, ex.copied},
	} {
		ex.typeOver(t, ctx, fmt.Sprintf("tnbLabTest.select(%d, %s)", ex.answer, jsString(step.old)), source, step.typed, step.want)
		for _, i := range []int{ex.answer, ex.test} {
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf("tnbLabTest.run(%d)", i), chromedp.EvalAwaitPromise)); err != nil {
				t.Fatalf("running cell %d: %v", i, err)
			}
		}
		got := labVerdicts(t, ctx)[ex.codeIndex(ex.test)]
		checkVerdict(t, fmt.Sprintf("with %q typed into the answer cell, its test cell (as tensornb grade scores that submission)", step.typed), got, wantVerdict(ex.result(step.r)))
		// The outputs JupyterLab holds (tnbLabTest.cells() has those of Run
		// All Cells), which the self-check sent the engine.
		outputs := evaluate[[]map[string]any](t, ctx, fmt.Sprintf("jupyterapp.shell.currentWidget.content.widgets[%d].model.outputs.toJSON()", ex.test))
		checkVerdict(t, fmt.Sprintf("with %q typed into the answer cell, its test cell (by nbgrader.Judge of its outputs)", step.typed), got, judged(ex.served.Cells[ex.test], outputs))
	}
	// The screenshot shows the self-check's verdict on the copy.
	if evaluate[int](t, ctx, `tnbLabTest.count(".tnb-verdict")`) > 0 {
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`tnbLabTest.scrollTo(".tnb-verdict")`, chromedp.EvalAwaitPromise)); err != nil {
			t.Errorf("scrolling to the verdict: %v", err)
		}
	}
	return cells
}

// labVerdicts waits until JupyterLab's self-check has drawn the verdicts
// it asked the engine for (no cell's node is data-tnb-verdict="pending")
// and returns what each code cell shows, in order.
func labVerdicts(t *testing.T, ctx context.Context) []*shownVerdict {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`tnbLabTest.count('[data-tnb-verdict="pending"]') === 0`, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(0))); err != nil {
		t.Fatalf("the self-check's verdicts were not drawn: %v", err)
	}
	return evaluate[[]*shownVerdict](t, ctx, `tnbLabTest.codeNodes().map(`+verdictJS+`)`)
}

// labPage is what the lab's cells hold, as a page's.
func labPage(cells []labCell) []pageCell {
	var page []pageCell
	for _, c := range cells {
		page = append(page, c.pageCell)
	}
	return page
}

// A finder tells which of its needles a text holds, in one pass over the
// text for those of 8 bytes or more, which it looks at every step bytes
// (step+7 is the shortest of their lengths): a needle at s holds the 8
// bytes at the one position p, a multiple of step, with s <= p < s+step,
// so only where the text's 8 bytes at p are some needle's 8 bytes at
// p-s is that needle compared in full. (A search of the site's 50 MB for
// each needle in turn took 11 s under the race detector.)
type finder struct {
	needles [][]byte
	short   []int // the needles of fewer than 8 bytes
	step    int
	// byBytes are the places of the others' 8-byte pieces, by the piece.
	byBytes map[uint64][]piece
	// pieces has a bit for the hash of each piece, to pass over most of
	// the text without a look in byBytes.
	pieces [1 << 10]uint64
}

// A piece is 8 bytes of a needle: its index and where they start in it.
type piece struct{ needle, offset int }

func newFinder(needles [][]byte) *finder {
	f := &finder{needles: needles, byBytes: map[uint64][]piece{}, step: 1 << 30}
	for i, n := range needles {
		if len(n) < 8 {
			f.short = append(f.short, i)
		} else {
			f.step = min(f.step, len(n)-7)
		}
	}
	for i, n := range needles {
		if len(n) < 8 {
			continue
		}
		for o := range f.step {
			b := binary.LittleEndian.Uint64(n[o:])
			f.byBytes[b] = append(f.byBytes[b], piece{i, o})
			h := pieceHash(b)
			f.pieces[h>>6] |= 1 << (h & 63)
		}
	}
	return f
}

func pieceHash(b uint64) uint64 { return (b * 0x9e3779b97f4a7c15) >> 48 }

// in returns the indexes of the needles that text holds, in order.
func (f *finder) in(text []byte) []int {
	found := map[int]bool{}
	for _, i := range f.short {
		found[i] = bytes.Contains(text, f.needles[i])
	}
	for p := 0; p+8 <= len(text); p += f.step {
		b := binary.LittleEndian.Uint64(text[p:])
		if h := pieceHash(b); f.pieces[h>>6]&(1<<(h&63)) == 0 {
			continue
		}
		for _, pc := range f.byBytes[b] {
			if s := p - pc.offset; s >= 0 && bytes.HasPrefix(text[s:], f.needles[pc.needle]) {
				found[pc.needle] = true
			}
		}
	}
	var in []int
	for i := range f.needles {
		if found[i] {
			in = append(in, i)
		}
	}
	return in
}

// A finder finds what bytes.Contains finds: each needle at every place
// in a text, at its ends too, the short needles as well, and no other.
func TestFinder(t *testing.T) {
	for _, needles := range [][]string{
		{"return x.T()", "n := 1", "return x.Select(0, i)", "absent line"},
		{"return x.T()", "return x.Select(0, i)", "12345678"},
	} {
		var bs [][]byte
		for _, n := range needles {
			bs = append(bs, []byte(n))
		}
		f := newFinder(bs)
		for _, n := range needles {
			for before := range 13 {
				for after := range 3 {
					text := strings.Repeat("\t", before) + n + strings.Repeat(" ", after) + "; return x.T"
					var want []int
					for i, m := range needles {
						if strings.Contains(text, m) {
							want = append(want, i)
						}
					}
					if got := f.in([]byte(text)); !slices.Equal(got, want) {
						t.Errorf("in %q: found %v, want %v", text, got, want)
					}
				}
			}
		}
	}
}
