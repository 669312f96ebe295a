package display_test

import (
	"path/filepath"
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

// checkMermaidGolden compares a diagram's text and Mermaid forms with
// their golden files and checks every form.
func checkMermaidGolden(t *testing.T, name string, r display.Renderer) {
	t.Helper()
	b := r.Bundle()
	checkGolden(t, filepath.Join("testdata", "golden", name+".txt"), b[display.MIMEPlain])
	checkGolden(t, filepath.Join("testdata", "golden", name+".mmd"), b[display.MIMEMermaid])
	checkForms(t, name, b)
	if !strings.Contains(b[display.MIMEHTML], "tensornb-mermaid") {
		t.Error("the HTML form is not a Mermaid display")
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
