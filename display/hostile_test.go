package display_test

import (
	"encoding/base64"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/internal/displaysink"
	"github.com/tensornb/tensornb/tensor"
)

// hostileTensor makes a tensor that once broke a picture's bounds: too
// big an output, a hang, or a crash. Each call makes a new tensor over a
// storage of its own.
type hostileTensor struct {
	name string
	make func() *tensor.Tensor
}

// ones returns n sizes of 1, for tensors of high rank.
func ones(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = 1
	}
	return s
}

// repeat returns n sizes of size.
func repeat(size, n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = size
	}
	return s
}

var hostileTensors = []hostileTensor{
	{"zeros 1000x0x1000", func() *tensor.Tensor { return tensor.Zeros(1000, 0, 1000) }},
	{"zeros 0x1e6", func() *tensor.Tensor { return tensor.Zeros(0, 1000000) }},
	{"zeros 2^40x0x2^20", func() *tensor.Tensor { return tensor.Zeros(1<<40, 0, 1<<20) }},
	{"zeros 0", func() *tensor.Tensor { return tensor.Zeros(0) }},
	{"zeros 999x0x999", func() *tensor.Tensor { return tensor.Zeros(999, 0, 999) }},
	{"zeros 1x0x999", func() *tensor.Tensor { return tensor.Zeros(1, 0, 999) }},
	{"0-d", func() *tensor.Tensor { return tensor.Scalar(float32(1)) }},
	{"18-D of 2^18", func() *tensor.Tensor { return tensor.Arange(1 << 18).View(repeat(2, 18)...) }},
	{"8-D expanded 10^8", func() *tensor.Tensor { return tensor.Scalar(1).Expand(repeat(10, 8)...) }},
	{"62-D expanded 2^62", func() *tensor.Tensor { return tensor.Scalar(float32(1)).Expand(repeat(2, 62)...) }},
	{"expanded 2^62", func() *tensor.Tensor { return tensor.Scalar(float32(1)).Expand(1 << 62) }},
	{"expanded 2^31x2^31", func() *tensor.Tensor { return tensor.Scalar(float32(1)).Expand(1<<31, 1<<31) }},
	{"6-D expanded wide int64", func() *tensor.Tensor {
		return tensor.Scalar(int64(math.MinInt64)).Expand(repeat(7, 6)...)
	}},
	{"5-D wide float64", func() *tensor.Tensor { return tensor.Float64.Randn(7, 7, 7, 7, 7).Mul(tensor.Scalar(-1e300)) }},
	{"nan inf", func() *tensor.Tensor {
		return tensor.New([]float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0, float32(math.Copysign(0, -1)), 1e-30})
	}},
	{"nan 1000x1000", func() *tensor.Tensor { return tensor.Float64.Full(math.NaN(), 1000, 1000) }},
	{"1000 panels", func() *tensor.Tensor { return tensor.Arange(1000).View(1000, 1, 1) }},
	{"1000 wide cells", func() *tensor.Tensor { return tensor.Float64.Randn(1000).Mul(tensor.Scalar(-1e-300)) }},
	{"25x40 int64", func() *tensor.Tensor { return tensor.Arange(1000).Mul(tensor.Scalar(int64(-1e17))).View(25, 40) }},
	{"64-D of one", func() *tensor.Tensor { return tensor.Scalar(1).View(ones(64)...) }},
	{"1000-D of one", func() *tensor.Tensor { return tensor.Scalar(1).View(ones(1000)...) }},
	{"row after 60 dims of one", func() *tensor.Tensor { return tensor.Arange(1000).View(append(ones(60), 1000)...) }},
	{"overlapping strides", func() *tensor.Tensor {
		return tensor.Arange(6000).AsStrided(tensor.Shape{1000, 1000, 1000}, tensor.Strides{1, 2, 3}, 0)
	}},
	{"strided view of 2^20", func() *tensor.Tensor {
		return tensor.Arange(1<<20).View(1024, 1024).T().Index("::3, 5::7")
	}},
}

// hostileNames are names that must not break a picture's markup or
// layout: control characters, markup, and length.
var hostileNames = []string{
	"\x00", "\x1b[31m", "a\nb", "<&>", "\ufffe", "bad \xff utf-8", "]]>", "</script><b>", strings.Repeat("long", 100_000),
}

// hostilePicture draws one picture of x.
type hostilePicture struct {
	name string
	draw func(t *testing.T, x *tensor.Tensor, remake func() *tensor.Tensor) (display.Bundle, bool)
}

// wholeAxis is a contract that packs every position of a 1-D tensor of n
// elements in one group.
func wholeAxis(n int) tensor.Contract {
	return tensor.NewContract("whole axis", "(a b)", tensor.Sizes{"a": 1, "b": n}, "")
}

// resultBundle returns the bundle display.Result sends for v.
func resultBundle(v any) display.Bundle {
	rec := &recorder{}
	displaysink.Set(rec.Display)
	defer displaysink.Set(nil)
	display.Result(v)
	if len(rec.bundles) == 0 {
		return nil
	}
	return rec.bundles[0]
}

func renderer(r func(x *tensor.Tensor) display.Renderer) func(*testing.T, *tensor.Tensor, func() *tensor.Tensor) (display.Bundle, bool) {
	return func(_ *testing.T, x *tensor.Tensor, _ func() *tensor.Tensor) (display.Bundle, bool) {
		return r(x).Bundle(), true
	}
}

var hostilePictures = []hostilePicture{
	{"Strip", renderer(display.Strip)},
	{"Grid", renderer(display.Grid)},
	{"OffsetGrid", renderer(display.OffsetGrid)},
	{"ValueGrid", renderer(display.ValueGrid)},
	{"Card", renderer(display.Card)},
	{"Layout", renderer(display.Layout)},
	{"Broadcast", renderer(display.Broadcast)},
	{"Views", func(_ *testing.T, x *tensor.Tensor, remake func() *tensor.Tensor) (display.Bundle, bool) {
		return display.Views(display.Named{Name: "x", Tensor: x}, display.Named{Name: "twin", Tensor: remake()},
			display.Named{Name: "x again", Tensor: x}).Bundle(), true
	}},
	{"Compare", func(_ *testing.T, x *tensor.Tensor, remake func() *tensor.Tensor) (display.Bundle, bool) {
		return display.Compare(display.Named{Name: "x", Tensor: x}, display.Named{Name: "twin", Tensor: remake()}).Bundle(), true
	}},
	{"Explorer", func(_ *testing.T, x *tensor.Tensor, _ func() *tensor.Tensor) (display.Bundle, bool) {
		if x.Dim() != 2 {
			return nil, false
		}
		return display.Explorer(x).Bundle(), true
	}},
	{"Packing", func(_ *testing.T, x *tensor.Tensor, _ func() *tensor.Tensor) (display.Bundle, bool) {
		if x.Dim() != 1 || x.Numel() == 0 {
			return nil, false
		}
		return display.Packing(x, wholeAxis(x.Numel())).Bundle(), true
	}},
	{"Lineage", func(_ *testing.T, x *tensor.Tensor, remake func() *tensor.Tensor) (display.Bundle, bool) {
		l := display.NewLineage()
		l.Add("x", x)
		l.Derive("twin", remake(), "remake")
		l.Derive("view", x.Unsqueeze(0), "unsqueeze(0)", "x")
		return l.Bundle(), true
	}},
	{"Result", func(_ *testing.T, x *tensor.Tensor, _ func() *tensor.Tensor) (display.Bundle, bool) {
		return resultBundle(x), true
	}},
	{"String", func(_ *testing.T, x *tensor.Tensor, _ func() *tensor.Tensor) (display.Bundle, bool) {
		return display.Bundle{display.MIMEPlain: x.String()}, true
	}},
}

// mustDraw draws and returns the bundle, or fails the test if drawing
// panics. It sets no bound on time of its own: a picture that is never
// done is a hang, which go test's -timeout ends (25 minutes in CI, 10 by
// default), naming the running subtest, that is the picture, and printing
// every goroutine's stack, the drawing's loop among them. A bound of the
// test's own, once one minute, failed a CI run whose machine was loaded
// (load average 6-8 on the package's 528 s under the race detector): it
// was a timing assertion. How fast the pictures are drawn is
// BenchmarkHostile's to measure.
func mustDraw(t *testing.T, draw func() (display.Bundle, bool)) (b display.Bundle, ok bool) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			t.Fatalf("panic: %v", p)
		}
	}()
	return draw()
}

// Every form of every picture of every hostile tensor is drawn, stays
// within 200 KB and has well-formed SVG.
func TestHostileTensors(t *testing.T) {
	for _, h := range hostileTensors {
		var x *tensor.Tensor
		if err := tensor.Try(func() { x = h.make() }); err != nil {
			t.Errorf("%s: the tensor cannot be made: %v", h.name, err)
			continue
		}
		for _, p := range hostilePictures {
			t.Run(h.name+"/"+p.name, func(t *testing.T) {
				b, ok := mustDraw(t, func() (display.Bundle, bool) { return p.draw(t, x, h.make) })
				if ok {
					checkForms(t, p.name, b)
				}
			})
		}
	}
}

// Names are drawn in every form without breaking the markup, the layout
// or the size bound.
func TestHostileNames(t *testing.T) {
	small := tensor.Arange(6).View(2, 3)
	big := tensor.Scalar(float32(1)).Expand(1 << 62)
	for _, name := range hostileNames {
		short := fmt.Sprintf("%.20q", name)
		pictures := map[string]func() (display.Bundle, bool){
			"Views": func() (display.Bundle, bool) {
				return display.Views(display.Named{Name: name, Tensor: small}, display.Named{Name: name + "T", Tensor: small.T()},
					display.Named{Name: name, Tensor: big}).Bundle(), true
			},
			"Lineage": func() (display.Bundle, bool) {
				l := display.NewLineage()
				l.Derive(name, small, name)
				l.Derive(name+"T", small.T(), name, name, "missing"+name)
				return l.Bundle(), true
			},
			"Strip": func() (display.Bundle, bool) {
				return display.Named{Name: name, Tensor: small}.Strip().Bundle(), true
			},
			"Explorer": func() (display.Bundle, bool) {
				return display.Named{Name: name, Tensor: small}.Explorer().Bundle(), true
			},
			"Packing": func() (display.Bundle, bool) {
				c := tensor.NewContract(name, "(a b)", tensor.Sizes{"a": 2, "b": 3}, "")
				return display.Packing(small.Reshape(-1), c).Bundle(), true
			},
			"DecodeFlow": func() (display.Bundle, bool) {
				c := tensor.NewContract(name, "(a b)", tensor.Sizes{"a": 2, "b": 3}, "")
				return display.DecodeFlow(c, c, c).Bundle(), true
			},
		}
		for pname, draw := range pictures {
			t.Run(short+"/"+pname, func(t *testing.T) {
				b, _ := mustDraw(t, draw)
				checkForms(t, pname, b)
				if plain := b[display.MIMEPlain]; strings.ContainsAny(plain, "\x00\x1b") {
					t.Errorf("the text form holds a control character: %q", fit(plain, 200))
				}
				if page := b[display.MIMEHTML]; strings.Count(page, "</script") > strings.Count(page, "<script") || strings.Contains(page, "<b>") {
					t.Errorf("the name is markup in the HTML form: %q", fit(page, 200))
				}
			})
		}
	}
}

// longLinesLineage records n rounds of three derivations whose boxes have
// very long lines: a tensor of 1000 dimensions of size 1 (a layout of
// some 6000 characters) made from twelve parents never recorded, whose
// names escape to five times their length in markup; a second such tensor
// made from the first, its name and operation in Chinese characters of
// three bytes each; and a nil tensor, a problem.
func longLinesLineage(n int) *display.Lineage {
	amp := strings.Repeat("&", 80)
	var parents []string
	for i := range 12 {
		parents = append(parents, fmt.Sprint(i, amp))
	}
	// Mermaid escapes ":" and "{" as five and six characters.
	escaped := strings.Repeat(":{", 40)
	wide := strings.Repeat("世", 80)
	l := display.NewLineage()
	for i := range n {
		l.Derive(fmt.Sprint(i, amp), tensor.Scalar(1).View(ones(1000)...), escaped+amp, parents...)
		l.Derive(fmt.Sprint(i, wide), tensor.Scalar(1).View(ones(1000)...), wide, fmt.Sprint(i, amp), wide)
		l.Derive(fmt.Sprint(i, amp), nil, "a problem "+escaped)
	}
	return l
}

// A lineage whose boxes have very long lines (see longLinesLineage) is
// drawn within the size bound, however few its boxes, whose lines are
// wrapped rather than cut: its SVG form, and that form in base64 as the
// HTML form's image holds it. (The text and Mermaid forms write every
// line whole, so they can pass it.)
func TestHostileLongLines(t *testing.T) {
	for _, n := range []int{1, 3, 10, 40, 60, 500, 5000} {
		t.Run(fmt.Sprint(n, " boxes"), func(t *testing.T) {
			l := longLinesLineage(n)
			b, _ := mustDraw(t, func() (display.Bundle, bool) { return l.Bundle(), true })
			checkForms(t, "Lineage", b)
			svg := b[display.MIMESVG]
			if size := base64.StdEncoding.EncodedLen(len(svg)); size > 200_000 {
				t.Errorf("the SVG form in base64 is %d bytes, more than the 200 KB bound", size)
			}
			t.Logf("%d boxes: text %d, Mermaid %d, SVG %d, PNG %d bytes", n, len(b[display.MIMEPlain]), len(b[display.MIMEMermaid]), len(svg), len(b[display.MIMEPNG]))
		})
	}
}

// fit shortens s for a message.
func fit(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
