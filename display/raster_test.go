package display_test

import (
	"bytes"
	"encoding/base64"
	"encoding/xml"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/tensor"
)

// An svgMark is one element of an SVG picture, as the raster test reads
// it: a box, an arrow or a label.
type svgMark struct {
	kind                string // "rect", "polyline", "text"
	x, y, w, h          float64
	fill, stroke        string
	opacity             float64
	points              [][2]float64
	anchor, text, color string
}

// readMarks reads the boxes, arrows and labels of an SVG picture in the
// order they are drawn, and its size.
func readMarks(t *testing.T, svg string) (marks []svgMark, width, height int) {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(svg))
	num := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("a number in the SVG: %q", s)
		}
		return v
	}
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		start, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		a := map[string]string{}
		for _, at := range start.Attr {
			a[at.Name.Local] = at.Value
		}
		switch start.Name.Local {
		case "svg":
			width, height = int(num(a["width"])), int(num(a["height"]))
		case "rect":
			m := svgMark{kind: "rect", x: num(a["x"]), y: num(a["y"]), w: num(a["width"]), h: num(a["height"]), fill: a["fill"], stroke: a["stroke"], opacity: 1}
			if o, ok := a["fill-opacity"]; ok {
				m.opacity = num(o)
			}
			marks = append(marks, m)
		case "polyline":
			m := svgMark{kind: "polyline", stroke: a["stroke"]}
			for _, p := range strings.Fields(a["points"]) {
				x, y, _ := strings.Cut(p, ",")
				m.points = append(m.points, [2]float64{num(x), num(y)})
			}
			marks = append(marks, m)
		case "text":
			var text string
			if err := dec.DecodeElement(&text, &start); err != nil {
				t.Fatal(err)
			}
			anchor := a["text-anchor"]
			if anchor == "" {
				anchor = "start"
			}
			marks = append(marks, svgMark{kind: "text", x: num(a["x"]), y: num(a["y"]), anchor: anchor, text: text, color: a["fill"]})
		}
	}
	return marks, width, height
}

func hexColour(t *testing.T, s string) color.RGBA {
	v, err := strconv.ParseUint(strings.TrimPrefix(s, "#"), 16, 32)
	if err != nil {
		t.Fatalf("a colour in the SVG: %q", s)
	}
	return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 0xff}
}

// over is c at opacity a over white.
func over(c color.RGBA, a float64) color.RGBA {
	mix := func(v uint8) uint8 { return uint8(math.Round(float64(v)*a + 255*(1-a))) }
	return color.RGBA{mix(c.R), mix(c.G), mix(c.B), 0xff}
}

// distance is the largest difference of two colours' channels.
func distance(a, b color.Color) int {
	r1, g1, b1, _ := a.RGBA()
	r2, g2, b2, _ := b.RGBA()
	d := func(x, y uint32) int { return int(math.Abs(float64(int(x>>8) - int(y>>8)))) }
	return max(d(r1, r2), d(g1, g2), d(b1, b2))
}

// covered tells whether (x, y) lies, give or take a pixel, within one of
// the rectangles drawn after mark i (which hide what lies under them).
func covered(marks []svgMark, i int, x, y float64) bool {
	for _, m := range marks[i+1:] {
		if m.kind == "rect" && x >= m.x-1 && x <= m.x+m.w+1 && y >= m.y-1 && y <= m.y+m.h+1 {
			return true
		}
	}
	return false
}

// checkRaster checks a PNG form against the SVG form it was drawn from,
// read as the reference: the same size; each box's fill inside it and
// its stroke on its edge; each arrow's ink along its segments where
// nothing covers them; and each label's colour in the cell of each of its
// characters, in the monospaced face.
func checkRaster(t *testing.T, name string, b display.Bundle) {
	t.Helper()
	data, err := base64.StdEncoding.DecodeString(b[display.MIMEPNG])
	if err != nil {
		t.Fatalf("%s: the PNG form is not base64: %v", name, err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: the PNG form does not decode: %v", name, err)
	}
	marks, w, h := readMarks(t, b[display.MIMESVG])
	if img.Bounds() != image.Rect(0, 0, w, h) {
		t.Fatalf("%s: the PNG is %v, the SVG %d×%d", name, img.Bounds().Size(), w, h)
	}
	at := func(x, y float64) color.Color { return img.At(int(math.Floor(x)), int(math.Floor(y))) }
	// painted finds a pixel within r pixels of (x, y) that c, drawn
	// antialiased over bg, has painted: one that differs from bg by at
	// least 40%% of c's difference from bg.
	painted := func(x, y float64, r int, c, bg color.Color) bool {
		want := distance(c, bg) * 2 / 5
		for dy := -r; dy <= r; dy++ {
			for dx := -r; dx <= r; dx++ {
				if distance(at(x+float64(dx), y+float64(dy)), bg) >= want {
					return true
				}
			}
		}
		return false
	}
	white := color.RGBA{0xff, 0xff, 0xff, 0xff}
	var problems []string
	checked := map[string]int{}
	for i, m := range marks {
		switch m.kind {
		case "rect":
			if m.w < 8 || m.h < 8 {
				continue
			}
			fill := over(hexColour(t, m.fill), m.opacity)
			// Below the box's text, where nothing else is drawn but a
			// later box.
			if x, y := m.x+m.w/2, m.y+m.h-2.5; !covered(marks, i, x, y) {
				checked["fills"]++
				if d := distance(at(x, y), fill); d > 6 {
					problems = append(problems, fmt.Sprintf("the box at (%g, %g) is filled %v, want %v", m.x, m.y, at(x, y), fill))
				}
			}
			if x, y := m.x, m.y+m.h/2; !covered(marks, i, x, y) {
				checked["strokes"]++
				if !painted(x, y, 1, hexColour(t, m.stroke), fill) {
					problems = append(problems, fmt.Sprintf("the box at (%g, %g) has no %s stroke on its left edge", m.x, m.y, m.stroke))
				}
			}
		case "polyline":
			ink := hexColour(t, m.stroke)
			for k := 1; k < len(m.points); k++ {
				p, q := m.points[k-1], m.points[k]
				n := math.Hypot(q[0]-p[0], q[1]-p[1])
				// Every 7 pixels, the dash pattern's length, there is ink
				// within 4 pixels, if nothing covers the line.
				for s := 4.0; s < n-4; s += 7 {
					x, y := p[0]+(q[0]-p[0])*s/n, p[1]+(q[1]-p[1])*s/n
					if covered(marks, i, x, y) {
						continue
					}
					checked["arrow points"]++
					if !painted(x, y, 4, ink, white) {
						problems = append(problems, fmt.Sprintf("no ink near (%.0f, %.0f) on the arrow %v", x, y, m.points))
					}
				}
			}
		case "text":
			c := hexColour(t, m.color)
			const advance = 7.2 // Go Mono's, at 12 pixels
			n := utf8.RuneCountInString(m.text)
			x := m.x
			switch m.anchor {
			case "middle":
				x -= float64(n) * advance / 2
			case "end":
				x -= float64(n) * advance
			}
			for k, r := range []rune(m.text) {
				if r == ' ' || r > '~' || r == '.' || r == ',' || r == '\'' || r == '-' || r == '_' || r == '`' {
					continue // a blank, or a mark too thin to find surely
				}
				checked["letters"]++
				cx := x + (float64(k)+0.5)*advance
				// Above the letters' tops lies their ground.
				if bg := at(cx, m.y-13); !painted(cx, m.y-4, 3, c, bg) {
					problems = append(problems, fmt.Sprintf("%q of %q (at %.0f, %.0f) is not drawn in %s", r, m.text, cx, m.y, m.color))
				}
			}
		}
	}
	if len(problems) > 0 {
		sort.Strings(problems)
		t.Errorf("%s: the PNG does not show what the SVG draws (%d problems):\n  %s", name, len(problems), strings.Join(problems[:min(len(problems), 12)], "\n  "))
	}
	drawn := map[string]int{}
	for _, m := range marks {
		drawn[m.kind]++
	}
	for kind, what := range map[string]string{"rect": "fills", "text": "letters"} {
		if drawn[kind] > 0 && checked[what] == 0 {
			t.Errorf("%s: none of the %s were checked", name, what)
		}
	}
	t.Logf("%s: %d×%d, %d bytes; checked %v", name, w, h, len(data), checked)
}

// A diagram's PNG form shows what its SVG form draws, where a reader
// would look: boxes, arrows and every letter.
func TestDiagramPNG(t *testing.T) {
	flows := decodeFlows()
	diagrams := map[string]display.Renderer{
		"lineage_article": articleLineage(),
		"lineage_tricky":  trickyLineage(),
		"decode_qk":       flows["decode_qk"],
		"decode_qkv":      flows["decode_qkv"],
		"decode_pixel":    flows["decode_pixel"],
	}
	for name, r := range diagrams {
		b := r.Bundle()
		checkRaster(t, name, b)
		if md := b.Metadata(); md[display.MIMEPNG] == nil {
			t.Errorf("%s: the PNG is not shown unconfined: %v", name, md)
		}
	}
}

// A diagram too large to read as one image has no PNG form, and its
// other forms stay.
func TestDiagramTooLargeForPNG(t *testing.T) {
	l := display.NewLineage()
	x := tensor.Arange(24).View(2, 3, 4)
	prev := l.Add(strings.Repeat("x", 40), x)
	name := strings.Repeat("x", 40)
	for i := range 39 {
		next := fmt.Sprintf("%s%d", strings.Repeat("y", 40), i)
		prev = l.Derive(next, prev.Transpose(0, 1), strings.Repeat("t", 60), name)
		name = next
	}
	b := l.Bundle()
	if _, ok := b[display.MIMEPNG]; ok {
		t.Errorf("a chain of 40 boxes has a PNG form of %d bytes", len(b[display.MIMEPNG]))
	}
	for _, mime := range []string{display.MIMEPlain, display.MIMESVG, display.MIMEMermaid} {
		if b[mime] == "" {
			t.Errorf("the large diagram has no %s form", mime)
		}
	}
	checkForms(t, "large lineage", b)
}
