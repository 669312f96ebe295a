package display

import (
	"encoding/base64"
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"
)

// svgDoc accumulates the elements of one SVG picture, and the same marks
// for its raster form (see png). Coordinates are in pixels; the picture is
// sized to what was drawn.
type svgDoc struct {
	b             strings.Builder
	marks         []func(*canvas)
	width, height float64
}

// Picture geometry and type, shared by every static picture.
const (
	cellW    = 46.0 // a grid or strip cell
	cellH    = 28.0
	gap      = 10.0 // between parts of a picture
	lineH    = 16.0 // a line of text
	fontSize = 12
	font     = "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace"
)

// Colours: ink for text and lines, paper for empty cells, a highlight for
// the slots a single tensor reads, a colour for what differs from what
// was expected, and a palette for several tensors.
const (
	ink       = "#1f2937"
	faint     = "#9ca3af"
	paper     = "#ffffff"
	lineColor = "#cbd5e1"
	highlight = "#2563eb"
	mismatch  = "#dc2626" // what differs from what was expected
)

var palette = []string{"#2563eb", "#dc2626", "#16a34a", "#d97706", "#7c3aed", "#0891b2", "#db2777", "#4d7c0f"}

// colorOf returns the i-th colour of the palette, cycling.
func colorOf(i int) string { return palette[i%len(palette)] }

func (s *svgDoc) grow(x, y float64) {
	s.width = max(s.width, x)
	s.height = max(s.height, y)
}

// num writes a coordinate compactly: 8, 40.5.
func num(v float64) string { return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64) }

// rect draws a box; fill "" leaves it paper-white.
func (s *svgDoc) rect(x, y, w, h float64, fill, stroke string, opacity float64) {
	if fill == "" {
		fill = paper
	}
	opacity = math.Round(opacity*10) / 10 // as num writes it, for the PNG to match
	alpha := ""
	if opacity != 1 {
		alpha = ` fill-opacity="` + num(opacity) + `"`
	}
	fmt.Fprintf(&s.b, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s"%s stroke="%s"/>`+"\n",
		num(x), num(y), num(w), num(h), fill, alpha, stroke)
	s.marks = append(s.marks, func(c *canvas) { c.box(rect{x, y, w, h}, 0, fill, stroke, opacity) })
	s.grow(x+w, y+h)
}

// text writes a label, made printable so that the SVG stays valid XML;
// anchor is "start", "middle" or "end".
func (s *svgDoc) text(x, y float64, anchor, color, label string) {
	label = printable(label)
	a := ""
	if anchor != "start" {
		a = ` text-anchor="` + anchor + `"`
	}
	fmt.Fprintf(&s.b, `<text x="%s" y="%s"%s fill="%s">%s</text>`+"\n",
		num(x), num(y), a, color, html.EscapeString(label))
	s.marks = append(s.marks, func(c *canvas) { c.text(x, y, anchor, color, label) })
	width := float64(len([]rune(label))) * 7.5
	switch anchor {
	case "middle":
		s.grow(x+width/2, y+4)
	case "end":
		s.grow(x, y+4)
	default:
		s.grow(x+width, y+4)
	}
}

// line draws a straight line, with an arrow head at its end if arrow.
func (s *svgDoc) line(x1, y1, x2, y2 float64, color string, arrow bool) {
	marker := ""
	if arrow {
		marker = ` marker-end="url(#arrow)"`
	}
	fmt.Fprintf(&s.b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"%s/>`+"\n", num(x1), num(y1), num(x2), num(y2), color, marker)
	s.marks = append(s.marks, func(c *canvas) { c.stroke([]point{{x1, y1}, {x2, y2}}, 1, color, false, arrow) })
	s.grow(max(x1, x2), max(y1, y2))
}

// size returns the width and height of the finished picture: what was
// drawn and a margin.
func (s *svgDoc) size() (w, h float64) { return s.width + gap, s.height + gap }

// pixels returns the size of the finished picture in whole pixels.
func (s *svgDoc) pixels() (w, h int) {
	fw, fh := s.size()
	return int(math.Round(fw)), int(math.Round(fh))
}

// String returns the finished SVG document.
func (s *svgDoc) String() string {
	w, h := s.pixels()
	return fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="%s" font-size="%d">
<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="%s"/></marker></defs>
%s</svg>`, w, h, w, h, font, fontSize, faint, s.b.String())
}

// bundle returns the picture's forms: text, the SVG, and the HTML form,
// whose alt text is the text form's first line.
func (s *svgDoc) bundle(text string) Bundle {
	svg := s.String()
	alt, _, _ := strings.Cut(text, "\n")
	return Bundle{MIMEPlain: text, MIMESVG: svg, MIMEHTML: s.html(svg, alt)}
}

// html returns the HTML form of the picture, whose SVG document is svg:
// the SVG as an <img> with a data URI, at its own size, in a box that
// scrolls sideways when the picture is wider than the output. Notebook
// sanitizers (JupyterLab's, and Notebook 6's, which is the same) keep an
// <img> and its data URI, and the SVG inside keeps its colours and layout,
// which are presentation attributes; they drop an inline <svg> and
// <style>, which would leave only the picture's labels, run together. alt
// is what the image says to a screen reader. The image keeps its size
// (max-width:none) rather than shrink to the column; where a sanitizer
// drops that style, as Notebook 6's does, its class "unconfined" asks
// Notebook 6's own style sheet for the same.
func (s *svgDoc) html(svg, alt string) string {
	w, h := s.pixels()
	return fmt.Sprintf(`<div style="overflow-x:auto;max-width:100%%"><img src="data:image/svg+xml;base64,%s" width="%d" height="%d" alt="%s" class="unconfined" style="max-width:none"></div>`,
		base64.StdEncoding.EncodeToString([]byte(svg)), w, h, html.EscapeString(printable(alt)))
}
