package grade

import (
	"fmt"
	"html/template"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/nbgrader"
)

// PagePath is where a submission's feedback page goes, under the
// feedback folder, slash-separated: the submission's path, with .html for
// .ipynb, kept inside the folder.
func PagePath(submission string) string {
	rel := strings.TrimSuffix(filepath.ToSlash(filepath.Clean(submission)), ".ipynb")
	return strings.TrimLeft(strings.ReplaceAll(rel, "../", ""), "/") + ".html"
}

// The diagnoses a test's feedback gets, from what the checks say: the
// wrong answers of a class grouped by why they are wrong.
const (
	DiagnosisCopy       = "a copy where a view was asked for"
	DiagnosisStrides    = "right values, read in other strides"
	DiagnosisOffset     = "right values, from another offset"
	DiagnosisLayout     = "right values, in another layout"
	DiagnosisValues     = "wrong values"
	DiagnosisShape      = "wrong shape"
	DiagnosisDType      = "wrong dtype"
	DiagnosisNotWritten = "not written"
	DiagnosisPanic      = "a panic"
	DiagnosisTimeout    = "ran past the timeout"
	DiagnosisCompile    = "does not compile"
	DiagnosisOther      = "another failure"
)

// diagnoses are the Diagnosis constants in the order the report lists
// groups of as many students.
var diagnoses = []string{DiagnosisCopy, DiagnosisStrides, DiagnosisOffset, DiagnosisLayout, DiagnosisValues, DiagnosisShape,
	DiagnosisDType, DiagnosisNotWritten, DiagnosisPanic, DiagnosisTimeout, DiagnosisCompile, DiagnosisOther}

// onInput is the start of check.Agree's message, before what failed.
var onInput = regexp.MustCompile(`^on the input x := .*?\): `)

// Diagnose says why a test failed, from its feedback: one of the
// Diagnosis constants. check.Agree's message names its input first,
// which it reads past; a student's function that failed inside it is a
// panic (or not written).
func Diagnose(feedback string) string {
	first, _, _ := strings.Cut(feedback, "\n")
	msg, asserted := strings.CutPrefix(first, "AssertionError: ")
	if asserted {
		msg = onInput.ReplaceAllString(msg, "")
		if failed, ok := strings.CutPrefix(msg, "your function failed: "); ok {
			if strings.HasPrefix(failed, "panic: not written yet") {
				return DiagnosisNotWritten
			}
			return DiagnosisPanic
		}
		return assertion(msg)
	}
	switch {
	case strings.HasPrefix(first, "panic: not written yet"):
		return DiagnosisNotWritten
	case strings.HasPrefix(first, "panic:"):
		return DiagnosisPanic
	case strings.HasPrefix(first, "Timeout:"):
		return DiagnosisTimeout
	case strings.HasPrefix(first, "CompileError:"):
		return DiagnosisCompile
	}
	return DiagnosisOther
}

// assertion diagnoses a check's message.
func assertion(msg string) string {
	switch {
	case strings.HasPrefix(msg, "right values, but a copy"), strings.HasPrefix(msg, "a copy:"):
		return DiagnosisCopy
	case strings.Contains(msg, "layout: your strides"), strings.HasPrefix(msg, "wrong strides"):
		return DiagnosisStrides
	case strings.Contains(msg, "layout: your storage offset"), strings.HasPrefix(msg, "wrong storage offset"):
		return DiagnosisOffset
	case strings.HasPrefix(msg, "right values"), strings.HasPrefix(msg, "wrong layout"):
		return DiagnosisLayout
	case strings.HasPrefix(msg, "wrong values"):
		return DiagnosisValues
	case strings.HasPrefix(msg, "wrong shape"):
		return DiagnosisShape
	case strings.HasPrefix(msg, "wrong dtype"):
		return DiagnosisDType
	}
	return DiagnosisOther
}

// ClassReport writes one page about a class's results: how the scores
// spread, as a chart; each test's pass rate; and for each test the wrong
// answers grouped by Diagnose, with how many students each group holds,
// the picture the first of them got, and a link to each one's feedback
// page (PagePath, from the report's folder). It needs no script and no
// server: it is a file to open.
func ClassReport(w io.Writer, title string, results []Result) error {
	return reportTemplate.Execute(w, reportOf(title, results))
}

// report is what the class report's template shows.
type report struct {
	Title             string
	Graded, NotGraded int
	MaxScore          float64
	Chart             template.HTML
	Tests             []reportTest
	Unmarked          []reportLink
}

type reportTest struct {
	GradeID    string
	Passed, Of int
	Percent    int
	Groups     []reportGroup
}

type reportGroup struct {
	Diagnosis string
	Students  []reportLink
	Picture   pageOutput
	Example   string // the first student's feedback, its first line
}

type reportLink struct{ Name, Href string }

func reportOf(title string, results []Result) report {
	rep := report{Title: title}
	var scores []float64
	var tests []reportTest
	at := map[string]int{}
	for _, r := range results {
		if r.Error != "" {
			rep.NotGraded++
			rep.Unmarked = append(rep.Unmarked, reportLink{r.Submission + ": " + r.Error, PagePath(r.Submission)})
			continue
		}
		rep.Graded++
		rep.MaxScore = r.MaxScore
		scores = append(scores, r.Score)
		for _, t := range r.Tests {
			i, ok := at[t.GradeID]
			if !ok {
				i = len(tests)
				at[t.GradeID] = i
				tests = append(tests, reportTest{GradeID: t.GradeID})
			}
			rt := &tests[i]
			rt.Of++
			if t.Feedback == "" {
				rt.Passed++
				continue
			}
			rt.add(Diagnose(t.Feedback), r, t)
		}
	}
	for i := range tests {
		t := &tests[i]
		t.Percent = 100 * t.Passed / max(t.Of, 1)
		// The largest groups first; groups of as many students in the
		// order of diagnoses, whatever order the submissions were graded in.
		slices.SortFunc(t.Groups, func(a, b reportGroup) int {
			if n := len(b.Students) - len(a.Students); n != 0 {
				return n
			}
			return slices.Index(diagnoses, a.Diagnosis) - slices.Index(diagnoses, b.Diagnosis)
		})
	}
	rep.Tests = tests
	rep.Chart = scoreChart(scores, rep.MaxScore)
	return rep
}

// add puts r, which failed test t, in the group of its diagnosis.
func (rt *reportTest) add(diagnosis string, r Result, t Test) {
	link := reportLink{r.Submission, PagePath(r.Submission)}
	for i := range rt.Groups {
		if rt.Groups[i].Diagnosis == diagnosis {
			rt.Groups[i].Students = append(rt.Groups[i].Students, link)
			return
		}
	}
	first, _, _ := strings.Cut(t.Feedback, "\n")
	rt.Groups = append(rt.Groups, reportGroup{Diagnosis: diagnosis, Students: []reportLink{link}, Picture: testPicture(r, t.GradeID), Example: first})
}

// testPicture returns the last picture the test cell grade_id showed in
// r's notebook, if it showed one: the comparison that failed, after the
// input's layout that check.Agree shows first.
func testPicture(r Result, gradeID string) pageOutput {
	if r.Notebook == nil {
		return pageOutput{}
	}
	for _, c := range r.Notebook.Cells {
		if m, ok := nbgrader.Of(c); !ok || m.GradeID != gradeID {
			continue
		}
		for i := len(c.Outputs) - 1; i >= 0; i-- {
			if o := outputOf(c.Outputs[i]); o.Image != "" {
				return o
			}
		}
	}
	return pageOutput{}
}

// scoreChart draws how many students got each score, as an SVG bar chart:
// a bar for each whole point from 0 to max (or for each tenth of max, for
// more than 30 points).
func scoreChart(scores []float64, maxScore float64) template.HTML {
	bins := int(maxScore) + 1
	width := 1.0
	if maxScore > 30 {
		bins, width = 10, maxScore/10
	}
	counts := make([]int, max(bins, 1))
	for _, s := range scores {
		counts[min(int(s/width), len(counts)-1)]++
	}
	most := max(slices.Max(append(counts, 1)), 1)
	const barW, height, pad = 28, 160, 24
	var b strings.Builder
	total := len(counts)*barW + 2*pad
	fmt.Fprintf(&b, `<svg class="chart" role="img" aria-label="how many students got each score" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">`, total, height+2*pad, total, height+2*pad)
	for i, n := range counts {
		h := height * n / most
		x, y := pad+i*barW, pad+height-h
		fmt.Fprintf(&b, `<rect class="bar" x="%d" y="%d" width="%d" height="%d" fill="#2563eb"><title>%d students scored %s</title></rect>`, x+2, y, barW-4, h, n, binLabel(i, width))
		if n > 0 {
			fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="11" text-anchor="middle">%d</text>`, x+barW/2, y-4, n)
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="11" text-anchor="middle">%s</text>`, x+barW/2, pad+height+14, binLabel(i, width))
	}
	fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#334155"/></svg>`, pad, pad+height, total-pad, pad+height)
	return template.HTML(b.String())
}

// binLabel names bar i of a chart whose bars are width points wide.
func binLabel(i int, width float64) string {
	if width == 1 {
		return fmt.Sprint(i)
	}
	return fmt.Sprintf("%g–%g", float64(i)*width, float64(i+1)*width)
}

var reportTemplate = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Class report: {{.Title}}</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 64rem; margin: 2rem auto; padding: 0 1rem; color: #1f2937; }
table { border-collapse: collapse; } td, th { padding: .2rem .6rem; text-align: left; }
.rate { display: inline-block; background: #e2e8f0; width: 10rem; height: .8rem; }
.rate span { display: block; background: #16a34a; height: 100%; }
.group { border-left: 4px solid #fca5a5; padding-left: .8rem; margin: 1rem 0; }
.picture { overflow-x: auto; } img { max-width: none; }
code { background: #f8fafc; }
</style>
</head>
<body>
<h1>Class report: {{.Title}}</h1>
<p>{{.Graded}} submissions graded{{if .NotGraded}}, {{.NotGraded}} not graded{{end}}; the most is {{.MaxScore}} points.</p>
<h2>Scores</h2>
<div class="picture">{{.Chart}}</div>
<h2>Tests</h2>
<table id="tests">
<tr><th>test</th><th>passed</th><th></th></tr>
{{range .Tests}}<tr><td><a href="#{{.GradeID}}">{{.GradeID}}</a></td><td>{{.Passed}} of {{.Of}} ({{.Percent}}%)</td><td><span class="rate"><span style="width: {{.Percent}}%"></span></span></td></tr>
{{end}}</table>
{{range .Tests}}<section class="test" id="{{.GradeID}}">
<h2>{{.GradeID}}: {{.Passed}} of {{.Of}} passed</h2>
{{range .Groups}}<div class="group">
<h3>{{.Diagnosis}}: {{len .Students}} {{if eq (len .Students) 1}}student{{else}}students{{end}}</h3>
<p>For example: <code>{{.Example}}</code></p>
{{if .Picture.Image}}<div class="picture"><img src="{{.Picture.Image}}" alt="the picture the first of them got"></div>{{end}}
<ul>{{range .Students}}<li><a class="student" href="{{.Href}}">{{.Name}}</a></li>{{end}}</ul>
</div>
{{else}}<p>Every submission passed.</p>
{{end}}</section>
{{end}}{{if .Unmarked}}<h2>Not graded</h2>
<ul>{{range .Unmarked}}<li>{{.Name}}</li>{{end}}</ul>{{end}}
</body>
</html>
`))
