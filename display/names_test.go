package display_test

import (
	"encoding/xml"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/tensor"
)

// textBox is where a <text> label of a picture is estimated to lie: its
// characters are 7.5 px wide (12 px monospace) and its glyphs reach 9 px
// above the baseline and 3 px below.
type textBox struct {
	text           string
	x0, y0, x1, y1 float64
}

// svgTextBoxes estimates the boxes of every <text> label of an SVG
// picture, and returns the picture's width and height.
func svgTextBoxes(t *testing.T, svg string) (boxes []textBox, width, height float64) {
	t.Helper()
	attr := func(e xml.StartElement, name string) string {
		for _, a := range e.Attr {
			if a.Name.Local == name {
				return a.Value
			}
		}
		return ""
	}
	number := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("not a number: %q", s)
		}
		return v
	}
	dec := xml.NewDecoder(strings.NewReader(svg))
	var open *xml.StartElement
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			switch tok.Name.Local {
			case "svg":
				width, height = number(attr(tok, "width")), number(attr(tok, "height"))
			case "text":
				e := tok.Copy()
				open = &e
			}
		case xml.CharData:
			if open == nil {
				continue
			}
			text := string(tok)
			x, y := number(attr(*open, "x")), number(attr(*open, "y"))
			w := float64(len([]rune(text))) * 7.5
			switch attr(*open, "text-anchor") {
			case "middle":
				x -= w / 2
			case "end":
				x -= w
			}
			boxes = append(boxes, textBox{text, x, y - 9, x + w, y + 3})
			open = nil
		case xml.EndElement:
			open = nil
		}
	}
	return boxes, width, height
}

// checkLegible fails if two labels of an SVG picture overlap or one lies
// outside the picture.
func checkLegible(t *testing.T, name, svg string) {
	t.Helper()
	boxes, width, height := svgTextBoxes(t, svg)
	if len(boxes) == 0 {
		t.Fatalf("%s: no labels", name)
	}
	const sliver = 0.5
	for i, a := range boxes {
		if a.x0 < -sliver || a.y0 < -sliver || a.x1 > width+sliver || a.y1 > height+sliver {
			t.Errorf("%s: label %q %v lies outside the picture (%v × %v)", name, a.text, a, width, height)
		}
		for _, b := range boxes[i+1:] {
			if min(a.x1, b.x1)-max(a.x0, b.x0) > sliver && min(a.y1, b.y1)-max(a.y0, b.y0) > sliver {
				t.Errorf("%s: labels %q %v and %q %v overlap", name, a.text, a, b.text, b)
			}
		}
	}
}

// A large random matrix is drawn at its natural size, summarized, with
// no label over another.
func TestLegibleRandn(t *testing.T) {
	tensor.ManualSeed(0)
	x := tensor.Randn(50, 60)
	for name, r := range map[string]display.Renderer{
		"Layout":     display.Layout(x),
		"Grid":       display.Grid(x),
		"ValueGrid":  display.ValueGrid(x),
		"OffsetGrid": display.OffsetGrid(x),
		"Strip":      display.Strip(x),
		"Card":       display.Card(x),
		"Broadcast":  display.Broadcast(x),
	} {
		checkLegible(t, name, r.Bundle()[display.MIMESVG])
	}
}

// longName is a name of 40 characters, longer than any label column
// was.
const longName = "y2 := x.Transpose(0, 1).Contiguous().T()"

// Pictures of a named tensor say its name, whole, where an unnamed one
// says x, in every form; and stay legible.
func TestNamedPictures(t *testing.T) {
	if n := len([]rune(longName)); n != 40 {
		t.Fatalf("longName has %d characters", n)
	}
	x3 := tensor.Arange(24).View(2, 3, 4)
	y := display.Named{Name: longName, Tensor: x3}
	storageOf := "storage of " + longName + ": 24 × int64 (192 bytes); " + longName + "'s 24 elements start at offset 0"
	for _, c := range []struct {
		name string
		r    display.Renderer
		want []string // in the text and the SVG forms
	}{
		{"Grid", y.Grid(), []string{longName + ": shape", longName + "[0, :, :]", longName + "[1, :, :]"}},
		{"OffsetGrid", y.OffsetGrid(), []string{longName + "[1, :, :]"}},
		{"ValueGrid", y.ValueGrid(), []string{longName + "[1, :, :]"}},
		{"Card", y.Card(), []string{longName}},
		{"Layout", y.Layout(), []string{longName + ": shape", longName + "[1, :, :]", storageOf}},
		{"Strip", y.Strip(), []string{storageOf}},
		{"Broadcast", display.Named{Name: longName, Tensor: tensor.Arange(3).View(3, 1, 1).Expand(3, 2, 2)}.Broadcast(),
			[]string{longName + ": shape", "(the slice " + longName + "[0, :, :])"}},
		{"Views", display.Views(display.Named{Name: longName, Tensor: x3}, display.Named{Name: "b", Tensor: x3.ReverseDims()}),
			[]string{longName}},
		{"Compare", display.Compare(display.Named{Name: longName, Tensor: x3}, display.Named{Name: "b", Tensor: x3.Clone()}),
			[]string{longName + " and b side by side", longName + ": shape"}},
	} {
		b := c.r.Bundle()
		for _, mime := range []string{display.MIMEPlain, display.MIMESVG} {
			form := b[mime]
			if mime == display.MIMESVG {
				form = strings.ReplaceAll(form, "&#39;", "'")
			}
			for _, want := range c.want {
				if !strings.Contains(form, want) {
					t.Errorf("%s: the %s form does not say %q:\n%s", c.name, mime, want, form)
				}
			}
		}
		checkLegible(t, c.name, b[display.MIMESVG])
	}
	b := display.Named{Name: "y", Tensor: tensor.Arange(2).View(2, 1).Expand(2, 2)}.Broadcast().Bundle()
	if want := "storage of y: 2 × int64 (16 bytes); y&#39;s 4 elements start at offset 0"; !strings.Contains(b[display.MIMESVG], want) {
		t.Errorf("a named broadcast's storage is not titled %q:\n%s", want, b[display.MIMESVG])
	}
	text := b[display.MIMEPlain]
	if want := "slot 1 (1) ← y[1, 0] y[1, 1]"; !strings.Contains(text, want) {
		t.Errorf("a named broadcast does not say %q:\n%s", want, text)
	}
}

// An unnamed tensor, or a Named one with no name, is x.
func TestUnnamedIsX(t *testing.T) {
	x := tensor.Arange(8).View(2, 2, 2)
	for _, r := range []display.Renderer{display.Grid(x), display.Named{Tensor: x}.Grid()} {
		if text := r.Bundle()[display.MIMEPlain]; !strings.Contains(text, "\nx[1, :, :]\n") || !strings.HasPrefix(text, "shape") {
			t.Errorf("an unnamed grid does not title its panels x[…] under a heading of its shape:\n%s", text)
		}
	}
}
