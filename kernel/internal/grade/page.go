package grade

import (
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/nbgrader"
)

// Page writes r's feedback page: the score, then every cell of the
// notebook graded with its outputs, each test cell under its verdict.
// Pictures are shown from their SVG or PNG forms as images, and nothing a
// submission printed runs: its HTML outputs are not used, its text is
// escaped.
func Page(w io.Writer, r Result) error {
	return pageTemplate.Execute(w, pageOf(r))
}

// page is what the template shows.
type page struct {
	Result
	Cells []pageCell
}

type pageCell struct {
	Markdown, Code string
	Test           *Test
	Outputs        []pageOutput
}

// A pageOutput is one output: text, an image's data URI, or an error.
type pageOutput struct {
	Text, Error string
	Image       template.URL
}

func pageOf(r Result) page {
	p := page{Result: r}
	if r.Notebook == nil {
		return p
	}
	tests := map[string]*Test{}
	for i := range r.Tests {
		tests[r.Tests[i].GradeID] = &r.Tests[i]
	}
	for _, c := range r.Notebook.Cells {
		pc := pageCell{}
		switch c.Type {
		case "markdown":
			pc.Markdown = c.Source
		case "code":
			pc.Code = c.Source
			if m, ok := nbgrader.Of(c); ok && m.Tests() {
				pc.Test = tests[m.GradeID]
			}
			for _, out := range c.Outputs {
				pc.Outputs = append(pc.Outputs, outputOf(out))
			}
		default:
			continue
		}
		p.Cells = append(p.Cells, pc)
	}
	return p
}

// outputOf picks what an output shows: an error's traceback, a stream's
// text, or of a bundle its SVG, its PNG or its text, in that order.
func outputOf(out map[string]any) pageOutput {
	switch out["output_type"] {
	case "error":
		return pageOutput{Error: nbgrader.Feedback(out)}
	case "stream":
		s, _ := out["text"].(string)
		return pageOutput{Text: s}
	}
	data, _ := out["data"].(map[string]any)
	if svg, ok := data["image/svg+xml"].(string); ok {
		return pageOutput{Image: template.URL("data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString([]byte(svg)))}
	}
	if png, ok := data["image/png"].(string); ok {
		return pageOutput{Image: template.URL("data:image/png;base64," + strings.ReplaceAll(png, "\n", ""))}
	}
	text, _ := data["text/plain"].(string)
	return pageOutput{Text: text}
}

var pageTemplate = template.Must(template.New("page").Funcs(template.FuncMap{
	"points": func(f float64) string { return fmt.Sprintf("%g", f) },
	"unit": func(f float64) string {
		if f == 1 {
			return "point"
		}
		return "points"
	},
	"first": func(s string) string { first, _, _ := strings.Cut(s, "\n"); return first },
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Feedback: {{.Submission}}</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #1f2937; }
pre { background: #f8fafc; border: 1px solid #e2e8f0; padding: .5rem; overflow-x: auto; }
pre.error { background: #fef2f2; border-color: #fecaca; color: #991b1b; white-space: pre-wrap; }
.cell { margin: 1rem 0; }
.verdict { font-weight: 600; margin: .25rem 0; }
.pass { color: #166534; } .fail { color: #991b1b; }
img { max-width: none; }
.picture { overflow-x: auto; }
</style>
</head>
<body>
<h1>Feedback: {{.Submission}}</h1>
{{if .Error}}<p class="fail">This file was not graded: {{.Error}}</p>
{{else}}<p><strong>Score: {{points .Score}} of {{points .MaxScore}}</strong></p>
<ul>{{range .Tests}}<li>{{.GradeID}}: {{points .Points}} of {{points .MaxPoints}}{{if .Feedback}} — <span class="fail">{{first .Feedback}}</span>{{end}}</li>{{end}}</ul>
{{if .Manual}}<p>Graded by hand, not in the score: {{range $i, $m := .Manual}}{{if $i}}, {{end}}{{$m}}{{end}}.</p>{{end}}
{{range .Cells}}<div class="cell">
{{with .Test}}<div class="verdict {{if .Feedback}}fail">✗ {{.GradeID}}: {{points .Points}} of {{points .MaxPoints}} {{unit .MaxPoints}}{{else}}pass">✓ {{.GradeID}}: {{points .Points}} of {{points .MaxPoints}} {{unit .MaxPoints}}{{end}}</div>{{end}}
{{if .Markdown}}<pre>{{.Markdown}}</pre>{{else}}<pre><code>{{.Code}}</code></pre>{{end}}
{{range .Outputs}}{{if .Error}}<pre class="error">{{.Error}}</pre>{{else if .Image}}<div class="picture"><img src="{{.Image}}" alt="a picture the cell showed"></div>{{else if .Text}}<pre>{{.Text}}</pre>{{end}}{{end}}
</div>
{{end}}{{end}}
</body>
</html>
`))
