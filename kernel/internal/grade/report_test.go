package grade_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tensornb/tensornb/internal/browsertest"
	"github.com/tensornb/tensornb/kernel/internal/grade"
)

// Diagnose reads the checks' messages, check.Agree's after its input.
func TestDiagnose(t *testing.T) {
	for feedback, want := range map[string]string{
		"AssertionError: right values, but a copy: your result lives in a new storage":                                               grade.DiagnosisCopy,
		"AssertionError: a copy: your result lives in a new storage":                                                                 grade.DiagnosisCopy,
		"AssertionError: on the input x := tensor.Float32.Arange(4).View(2, 2).T(): right values, but a copy":                        grade.DiagnosisCopy,
		"AssertionError: right values, read from the input's storage, but in another layout: your strides are (1,), (2,) were e":     grade.DiagnosisStrides,
		"AssertionError: right values, read from the input's storage, but in another layout: your storage offset is 0, 4 was":        grade.DiagnosisOffset,
		"AssertionError: on the input x := tensor.Int64.Arange(6).View(2, 3).Index(\":, 1:3\"): wrong values: 1 of 2 elements":       grade.DiagnosisValues,
		"AssertionError: wrong shape: yours is (2,), (3,) was expected":                                                              grade.DiagnosisShape,
		"AssertionError: on the input x := tensor.Float32.Arange(1).View(1, 1): your function failed: as_strided: setStorage: sizes": grade.DiagnosisPanic,
		"AssertionError: on the input x := tensor.Float32.Arange(1).View(1, 1): your function failed: panic: not written yet":        grade.DiagnosisNotWritten,
		"AssertionError: wrong layout: your strides are (1, 4), (4, 1) were expected":                                                grade.DiagnosisStrides,
		"AssertionError: Split should give 3 parts":                                                                                  grade.DiagnosisOther,
		"panic: not written yet\ncell line 3":                                                                                        grade.DiagnosisNotWritten,
		"panic: runtime error: index out of range [0] with length 0":                                                                 grade.DiagnosisPanic,
		"Timeout: the cell ran past the timeout of 10s and was stopped":                                                              grade.DiagnosisTimeout,
		"CompileError: the cell does not compile\ncell line 2: undefined: Transposed":                                                grade.DiagnosisCompile,
	} {
		if got := grade.Diagnose(feedback); got != want {
			t.Errorf("Diagnose(%q) = %q, want %q", feedback, got, want)
		}
	}
}

// A class graded, its feedback pages and class report written as
// tensornb grade writes them, and the report opened in Chromium: the
// chart has a bar for each score, with the students who got it; each
// test its pass rate; the wrong answers are grouped by diagnosis, with a
// picture, and every student's link opens a feedback page.
func TestClassReport(t *testing.T) {
	dir := t.TempDir()
	class := map[string]string{
		"right1": "\treturn x.Permute(1, 0)", "right2": "\treturn x.T()",
		"copy1": "\treturn x.T().Contiguous()", "copy2": "\treturn x.T().Clone()", "copy3": "\treturn x.Transpose(0, 1).Contiguous()",
		"strides": "\treturn x.AsStrided([]int{x.Size(1), x.Size(0)}, []int{1, 1}, 0)",
		"panic":   "\tvar dims []int\n\treturn x.Transpose(dims[0], dims[1])",
	}
	var paths []string
	for name, body := range class {
		folder := filepath.Join(dir, "submitted", name, "transpose")
		if err := os.MkdirAll(folder, 0o755); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, write(t, folder, "transpose.ipynb", answered(t, body, nil)))
	}
	essay := filepath.Join(dir, "submitted", "essay.txt")
	if err := os.WriteFile(essay, []byte("I did not do it"), 0o644); err != nil {
		t.Fatal(err)
	}
	paths = append(paths, essay)
	g, err := grade.New(assignment(), grade.Options{Engine: engine, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	results := g.GradeAll(context.Background(), paths, 2)
	feedback := filepath.Join(dir, "feedback")
	for _, r := range results {
		path := filepath.Join(feedback, filepath.FromSlash(grade.PagePath(r.Submission)))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := grade.Page(f, r); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	report := filepath.Join(feedback, "class-report.html")
	f, err := os.Create(report)
	if err != nil {
		t.Fatal(err)
	}
	if err := grade.ClassReport(f, "transpose", results); err != nil {
		t.Fatal(err)
	}
	f.Close()

	browsertest.Require(t)
	ctx := browsertest.Start(t, 2*time.Minute)
	errs := browsertest.Open(t, ctx, report)
	read := func(js string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
		if err != nil {
			t.Fatalf("%s: %v", js, err)
		}
		return s
	}
	// Scores of 0 to 3: right 3 (2 students); copy 0 (3); strides 0; panic 0.
	if bars := read(`JSON.stringify([...document.querySelectorAll("svg.chart rect.bar")].map(r => r.textContent))`); bars != `["5 students scored 0","0 students scored 1","0 students scored 2","2 students scored 3"]` {
		t.Errorf("the chart's bars: %s", bars)
	}
	if rates := read(`document.getElementById("tests").innerText`); !strings.Contains(rates, "transpose_view\t2 of 7 (28%)") || !strings.Contains(rates, "transpose_shape\t2 of 7 (28%)") {
		t.Errorf("the pass rates:\n%s", rates)
	}
	groups := read(`JSON.stringify([...document.querySelectorAll("#transpose_view .group")].map(g => [g.querySelector("h3").textContent, g.querySelectorAll("img").length, g.querySelectorAll("a.student").length]))`)
	var got [][]any
	if err := json.Unmarshal([]byte(groups), &got); err != nil {
		t.Fatal(err)
	}
	want := `[["a copy where a view was asked for: 3 students",1,3],["wrong values: 1 student",1,1],["a panic: 1 student",0,1]]`
	if data, _ := json.Marshal(got); string(data) != want {
		t.Errorf("transpose_view's groups: %s\nwant %s", data, want)
	}
	if !strings.Contains(read(`document.body.innerText`), "1 not graded") {
		t.Error("the report does not say that a file was not graded")
	}
	hrefs := read(`JSON.stringify([...document.querySelectorAll("a.student")].map(a => a.href))`)
	var links []string
	json.Unmarshal([]byte(hrefs), &links)
	if len(links) != 10 { // 5 failed each test
		t.Fatalf("%d links to students' pages: %s", len(links), hrefs)
	}
	for _, l := range links {
		if _, err := os.Stat(strings.TrimPrefix(l, "file://")); err != nil {
			t.Errorf("a dead link: %v", err)
		}
	}
	if _, err := chromedp.Run(ctx, chromedp.Navigate(links[0])); err != nil {
		t.Fatal(err)
	}
	if title := read(`document.title`); !strings.HasPrefix(title, "Feedback: ") {
		t.Errorf("the first link opened %q, not a feedback page", title)
	}
	if e := errs.All(); len(e) > 0 {
		t.Errorf("the page raised: %v", e)
	}
}

// Groups of as many students come in the order of the diagnoses,
// whatever order the submissions were graded in: workers end in any
// order, and the report was once one way, once the other.
func TestGroupsOfAsManyStudents(t *testing.T) {
	panicked := grade.Result{Submission: "submitted/a/ps/ps.ipynb", Score: 0, MaxScore: 1, Tests: []grade.Test{{GradeID: "t", MaxPoints: 1, Feedback: "panic: index out of range"}}}
	wrong := grade.Result{Submission: "submitted/b/ps/ps.ipynb", Score: 0, MaxScore: 1, Tests: []grade.Test{{GradeID: "t", MaxPoints: 1, Feedback: "AssertionError: wrong values"}}}
	for _, results := range [][]grade.Result{{panicked, wrong}, {wrong, panicked}} {
		var b bytes.Buffer
		if err := grade.ClassReport(&b, "ps", results); err != nil {
			t.Fatal(err)
		}
		page := b.String()
		values, panics := strings.Index(page, grade.DiagnosisValues+": 1 student"), strings.Index(page, grade.DiagnosisPanic+": 1 student")
		if values < 0 || panics < 0 || values > panics {
			t.Errorf("graded %s first: %q at %d, %q at %d; want both, wrong values first", results[0].Submission, grade.DiagnosisValues, values, grade.DiagnosisPanic, panics)
		}
	}
}
