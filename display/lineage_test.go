package display_test

import (
	"encoding/xml"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/tensor"
)

// articleLineage is the README's story, plus a view with an offset and a
// result of two parents.
func articleLineage() *display.Lineage {
	l := display.NewLineage()
	x := l.Derive("x", tensor.Float32.Arange(24).View(2, 3, 4), "arange(24).view(2, 3, 4)")
	y := l.Derive("y", x.Transpose(1, 2), "transpose(1, 2)", "x")
	l.Derive("z", y.Reshape(-1), "reshape(-1)", "y")
	t := l.Derive("t", x.Select(0, 1), "select(0, 1)", "x")
	l.Derive("s", t.Add(x.Select(0, 0)), "add", "t", "x")
	return l
}

// trickyOps are operation texts that mean something to Mermaid's parser
// or to HTML, each of which the diagram must show as written.
var trickyOps = []string{
	`x[:, 1::2]`,
	`view("a", 'b') # 2`,
	`masked_fill(m < 0 && m > -1, "<b>&amp;</b>")`,
	`%%{init: {"theme": "dark"}}%%`,
	"$$\\sqrt{2}$$ and `code`",
	`a|b; c{d} -->|e| end`,
	`style n1 fill:#f00;`,
	`转置 → ✓ ∑ 🙂`,
}

// trickyLineage chains trickyOps from a tensor with an awkward name.
func trickyLineage() *display.Lineage {
	l := display.NewLineage()
	name := `x "α" [0]`
	x := l.Add(name, tensor.Arange(12).View(3, 4))
	for i, op := range trickyOps {
		next := `t<` + string(rune('a'+i)) + `>#`
		if i%2 == 0 {
			x = l.Derive(next, x.T(), op, name)
		} else {
			x = l.Derive(next, x.Contiguous(), op, name)
		}
		name = next
	}
	return l
}

// problemLineage makes each recording mistake once.
func problemLineage() *display.Lineage {
	l := display.NewLineage()
	x := l.Add("x", tensor.Arange(6))
	l.Derive("y", nil, "view(2, 3)", "x")
	l.Add("x", tensor.Arange(3))
	l.Derive("z", x.View(2, 3), "view(2, 3)", "x", "q")
	return l
}

func TestLineageGolden(t *testing.T) {
	for name, l := range map[string]*display.Lineage{
		"lineage_article":  articleLineage(),
		"lineage_tricky":   trickyLineage(),
		"lineage_problems": problemLineage(),
		"lineage_empty":    display.NewLineage(),
	} {
		t.Run(name, func(t *testing.T) { checkMermaidGolden(t, name, l) })
	}
}

// checkMermaidGolden compares a diagram's text, Mermaid and SVG forms
// with their golden files and checks every form: there is no HTML form
// (JupyterLab would show it rather than draw the Mermaid form), the PNG
// shows what the SVG draws, and no form but the Mermaid one has
// Mermaid's escapes.
func checkMermaidGolden(t *testing.T, name string, r display.Renderer) {
	t.Helper()
	b := r.Bundle()
	checkGolden(t, filepath.Join("testdata", "golden", name+".txt"), b[display.MIMEPlain])
	checkGolden(t, filepath.Join("testdata", "golden", name+".mmd"), b[display.MIMEMermaid])
	checkGolden(t, filepath.Join("testdata", "golden", name+".svg"), b[display.MIMESVG])
	checkForms(t, name, b)
	if _, ok := b[display.MIMEHTML]; ok {
		t.Error("the diagram has an HTML form")
	}
	checkRaster(t, name, b)
	for form, text := range map[string]string{"the text form": b[display.MIMEPlain], "the SVG's text": strings.Join(svgTexts(t, b[display.MIMESVG]), "\n")} {
		if escape := mermaidEscape.FindString(text); escape != "" {
			t.Errorf("%s holds Mermaid's escape %q", form, escape)
		}
	}
}

// mermaidEscape finds what Mermaid's labels need and other forms must
// not show: entity codes such as #58; and line breaks as <br>.
var mermaidEscape = regexp.MustCompile(`#[0-9]+;|<br>`)

// svgTexts returns the text of each <text> element of an SVG picture.
func svgTexts(t *testing.T, svg string) []string {
	t.Helper()
	var doc struct {
		Texts []string `xml:"text"`
	}
	if err := xml.Unmarshal([]byte(svg), &doc); err != nil {
		t.Fatalf("the SVG does not parse: %v", err)
	}
	return doc.Texts
}

// The SVG form shows every tensor's lines and every arrow's label as
// written, each in a <text> element of its own.
func TestLineageSVGShowsEverything(t *testing.T) {
	for name, c := range map[string]struct {
		l     *display.Lineage
		wants []string
	}{
		"article": {articleLineage(), []string{
			"x = arange(24).view(2, 3, 4)", "(2, 3, 4):(12, 4, 1)", "y", "(2, 4, 3):(12, 1, 4)", "z", "(24,):(1,)",
			"t", "(3, 4):(4, 1) offset 12", "s", "(3, 4):(4, 1)",
			"transpose(1, 2) · view", "reshape(-1) · copy", "select(0, 1) · view", "add · copy",
			"storage S1: 24 × float32 (96 bytes)", "storage S2: 24 × float32 (96 bytes)", "storage S3: 12 × float32 (48 bytes)",
		}},
		"tricky": {trickyLineage(), []string{`x "α" [0]`, "t<a>#", "t<h>#", "storage S5: 12 × int64 (96 bytes)", "(4, 3):(1, 4)",
			trickyOps[0] + " · view", trickyOps[1] + " · copy", trickyOps[2] + " · view", trickyOps[3] + " · copy",
			trickyOps[4] + " · view", trickyOps[5] + " · copy", trickyOps[6] + " · view", trickyOps[7] + " · copy"}},
		"problems": {problemLineage(), []string{"problems:", `"q", a parent of "z", was never recorded`, "view(2, 3) · view"}},
		"empty":    {display.NewLineage(), []string{"no tensors recorded"}},
	} {
		texts := svgTexts(t, c.l.Bundle()[display.MIMESVG])
		for _, want := range c.wants {
			if !slices.Contains(texts, want) {
				t.Errorf("%s: the SVG does not show %q; it shows %q", name, want, texts)
			}
		}
	}
}

// The text form says view or copy as the tensors do, whatever the
// operation is called.
func TestLineageViewOrCopy(t *testing.T) {
	x := tensor.Float32.Arange(24).View(2, 3, 4)
	l := display.NewLineage()
	l.Add("x", x)
	l.Derive("a", x.Reshape(6, 4), "reshape(6, 4)", "x")
	l.Derive("b", x.Transpose(0, 2).Reshape(-1), "reshape(-1)", "x")
	l.Derive("c", x.Contiguous(), "contiguous()", "x")
	text := l.Bundle()[display.MIMEPlain]
	for _, want := range []string{
		"a = reshape(6, 4)(x)  view of S1  (6, 4):(4, 1)",
		"b = reshape(-1)(x)    copy in S2  (24,):(1,)",
		"c = contiguous()(x)   view of S1  (2, 3, 4):(12, 4, 1)",
		"storage S1: 24 × float32 (96 bytes) behind x, a, c",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the text form lacks %q:\n%s", want, text)
		}
	}
}

// Recording mistakes neither panic nor pass silently: each is listed in
// both forms, and the rest of the lineage is drawn.
func TestLineageProblems(t *testing.T) {
	b := problemLineage().Bundle()
	for mime, wants := range map[string][]string{
		display.MIMEPlain: {
			`"y" has no tensor (nil) and is left out`,
			`"x" was recorded before; the second tensor of that name is left out`,
			`"q", a parent of "z", was never recorded`,
			"z = view(2, 3)(x, q)  view of S1",
		},
		display.MIMEMermaid: {`problems["problems<br>`, "n1 -.->"},
	} {
		for _, want := range wants {
			if !strings.Contains(b[mime], want) {
				t.Errorf("%s lacks %q:\n%s", mime, want, b[mime])
			}
		}
	}
}

// However many tensors and arrows are recorded, the SVG form draws a
// bounded part of them, stays small and says what it left out.
func TestLineageSVGIsBounded(t *testing.T) {
	l := display.NewLineage()
	name := func(i int) string { return fmt.Sprintf("%03d%s", i, strings.Repeat("→\x1b", 100)) }
	x := l.Add(name(0), tensor.Arange(6).View(2, 3))
	for i := 1; i < 1000; i++ {
		parents := []string{name(i - 1), name(0), name(i / 2), name(i / 3), "never recorded"}
		next := x.T()
		if i%2 == 0 {
			next = next.Contiguous()
		}
		x = l.Derive(name(i), next, strings.Repeat("op ", 100), parents...)
	}
	svg := l.Bundle()[display.MIMESVG]
	checkForms(t, "1000 tensors", display.Bundle{display.MIMEPlain: "-", display.MIMESVG: svg})
	texts := svgTexts(t, svg)
	if last := texts[len(texts)-1]; !strings.HasPrefix(last, "not drawn: 960 boxes, ") {
		t.Errorf("the SVG's last line is %q", last)
	}
	t.Logf("the SVG of 1000 tensors is %d bytes", len(svg))
}

// A nil *Lineage draws as an empty one, and refuses to record with a
// message that says how to make one.
func TestNilLineage(t *testing.T) {
	var l *display.Lineage
	b := l.Bundle()
	if !strings.Contains(b[display.MIMEPlain], "no tensors recorded") {
		t.Errorf("a nil Lineage's text form is %q", b[display.MIMEPlain])
	}
	checkForms(t, "nil lineage", b)
	err := tensor.Try(func() { l.Add("x", tensor.Arange(3)) })
	var e *tensor.Error
	if !errors.As(err, &e) || !strings.Contains(e.Message, "display.NewLineage()") {
		t.Errorf("recording into a nil Lineage: %v", err)
	}
}
