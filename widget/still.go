package widget

import (
	"encoding/base64"
	"fmt"
	"html"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A widget's still picture is what a notebook shows where no widget
// manager draws the live one: GitHub, nbconvert, an untrusted notebook, a
// notebook whose kernel has gone. Controls are drawn in SVG, as they
// stood, disabled-looking; the HTML form shows that SVG as an <img>, which
// notebook sanitizers keep, and holds no script.

// still is a widget's still picture: HTML always, and SVG where every part
// of the widget can be drawn in SVG.
type still struct {
	html string
	svg  *sketch // nil where some part has HTML only
}

// A sketch is part of an SVG drawing: its markup, drawn from (0, 0) to
// (w, h).
type sketch struct {
	w, h float64
	body string
}

// Sizes and colours of the drawings.
const (
	fontSize   = 13
	charWidth  = 7.2 // an estimate of a character's width at fontSize
	rowHeight  = 28
	labelWidth = 80  // the least width of a description, as ipywidgets' default
	fieldWidth = 160 // a slider's track, a text box, a dropdown
	ink        = "#1f2937"
	faint      = "#6b7280"
	frame      = "#94a3b8"
	accent     = "#2563eb"
	paper      = "#f3f4f6"
)

// stillOf makes the still picture of a drawn control, with alt as the
// HTML form's alternative text.
func stillOf(s *sketch, alt string) still {
	return still{html: s.img(alt), svg: s}
}

// document returns s as a standalone SVG document.
func (s *sketch) document() string {
	w, h := int(s.w+0.5), int(s.h+0.5)
	return fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="%d">`+"\n%s</svg>", w, h, w, h, fontSize, s.body)
}

// img returns s as HTML: the SVG document as an <img> with a data URI.
func (s *sketch) img(alt string) string {
	return fmt.Sprintf(`<img src="data:image/svg+xml;base64,%s" width="%d" height="%d" alt="%s">`,
		base64.StdEncoding.EncodeToString([]byte(s.document())), int(s.w+0.5), int(s.h+0.5), html.EscapeString(alt))
}

// stack lays sketches out in a row (across) or a column, gap apart.
func stack(parts []*sketch, across bool, gap float64) *sketch {
	var b strings.Builder
	out := &sketch{}
	pos := 0.0
	for i, p := range parts {
		if i > 0 {
			pos += gap
		}
		x, y := 0.0, pos
		if across {
			x, y = pos, 0
		}
		fmt.Fprintf(&b, `<g transform="translate(%s,%s)">%s</g>`+"\n", num(x), num(y), p.body)
		if across {
			pos += p.w
			out.h = max(out.h, p.h)
		} else {
			pos += p.h
			out.w = max(out.w, p.w)
		}
	}
	if across {
		out.w = pos
	} else {
		out.h = pos
	}
	out.body = b.String()
	return out
}

// stacked returns the still picture of a box of parts: one SVG if all of
// them have it, else their HTML forms side by side or one under another.
func stacked(parts []still, across bool, alt string) still {
	sketches := make([]*sketch, 0, len(parts))
	for _, p := range parts {
		if p.svg == nil {
			dir := "column"
			if across {
				dir = "row"
			}
			var b strings.Builder
			fmt.Fprintf(&b, `<div style="display:flex;flex-direction:%s;gap:8px;align-items:flex-start">`, dir)
			for _, p := range parts {
				b.WriteString("<div>" + p.html + "</div>")
			}
			b.WriteString("</div>")
			return still{html: b.String()}
		}
		sketches = append(sketches, p.svg)
	}
	gap := 6.0
	if across {
		gap = 12
	}
	return stillOf(stack(sketches, across, gap), alt)
}

// labelled draws a control with its description on the left, as
// ipywidgets lays it out: the description right-aligned in a column at
// least labelWidth wide, then the control, w by rowHeight, drawn by body
// from x = 0. A disabled control is drawn faded.
func labelled(description string, w float64, body string, disabled bool) *sketch {
	x := 0.0
	var b strings.Builder
	if description != "" {
		x = max(labelWidth, textWidth(description)+12)
		fmt.Fprintf(&b, `<text x="%s" y="18" text-anchor="end" fill="%s">%s</text>`+"\n", num(x-8), ink, esc(description))
	}
	opacity := ""
	if disabled {
		opacity = ` opacity="0.5"`
	}
	fmt.Fprintf(&b, `<g transform="translate(%s,0)"%s>%s</g>`, num(x), opacity, body)
	return &sketch{w: x + w, h: rowHeight, body: b.String()}
}

// slider draws a slider's track at fraction f of the way from its minimum,
// and its readout (if any).
func slider(f float64, readout string) (float64, string) {
	f = min(max(f, 0), 1)
	handle := 8 + f*(fieldWidth-16)
	body := fmt.Sprintf(`<rect x="8" y="12" width="%d" height="4" rx="2" fill="#cbd5e1"/>`+
		`<rect x="8" y="12" width="%s" height="4" rx="2" fill="%s"/>`+
		`<circle cx="%s" cy="14" r="7" fill="#ffffff" stroke="%s" stroke-width="1.5"/>`,
		fieldWidth-16, num(handle-8), accent, num(handle), frame)
	w := float64(fieldWidth)
	if readout != "" {
		body += fmt.Sprintf(`<text x="%d" y="18" fill="%s">%s</text>`, fieldWidth+6, ink, esc(readout))
		w += 12 + textWidth(readout)
	}
	return w, body
}

// field draws a text box holding text (in grey when it is a placeholder),
// with a ▾ for a dropdown.
func field(text string, grey, dropdown bool) (float64, string) {
	color := ink
	if grey {
		color = faint
	}
	body := fmt.Sprintf(`<rect x="0.5" y="2.5" width="%d" height="23" rx="2" fill="#ffffff" stroke="%s"/>`+
		`<text x="6" y="18" fill="%s">%s</text>`, fieldWidth-1, frame, color, esc(cut(text, 19)))
	if dropdown {
		body += fmt.Sprintf(`<text x="%d" y="18" text-anchor="end" fill="%s">▾</text>`, fieldWidth-6, ink)
	}
	return fieldWidth, body
}

// textLines draws text in monospace, one row a line, at most 40 rows and
// 120 columns, as an output area shows a stream or a text form.
func textLines(text string, color string) *sketch {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if len(lines) > 40 {
		lines = append(lines[:39], "…")
	}
	var b strings.Builder
	width := 0.0
	for i, line := range lines {
		line = cut(strings.ReplaceAll(line, "\t", "    "), 120)
		fmt.Fprintf(&b, `<text x="4" y="%d" font-family="monospace" font-size="12" fill="%s" xml:space="preserve">%s</text>`+"\n", 14+16*i, color, esc(line))
		width = max(width, 8+7.2*float64(utf8.RuneCountInString(line)))
	}
	return &sketch{w: width, h: float64(16*len(lines) + 4), body: b.String()}
}

// svgRoot finds the root element of an SVG document and its size.
var svgRoot = regexp.MustCompile(`<svg\b[^>]*>`)
var svgSize = regexp.MustCompile(`\s(width|height)="([0-9.]+)(px)?"`)

// embedSVG makes a sketch of an SVG document, for a picture shown in an
// output area; ok is false if its size cannot be read from its root.
func embedSVG(doc string) (*sketch, bool) {
	if i := strings.Index(doc, "<svg"); i > 0 {
		doc = doc[i:] // an XML declaration, a doctype
	}
	root := svgRoot.FindString(doc)
	var w, h float64
	for _, m := range svgSize.FindAllStringSubmatch(root, -1) {
		v, err := strconv.ParseFloat(m[2], 64)
		if err != nil {
			return nil, false
		}
		if m[1] == "width" {
			w = v
		} else {
			h = v
		}
	}
	if w == 0 || h == 0 {
		return nil, false
	}
	return &sketch{w: w, h: h, body: doc}, true
}

// textWidth estimates the width text takes at fontSize.
func textWidth(text string) float64 { return charWidth * float64(utf8.RuneCountInString(text)) }

// cut shortens text to at most n characters, ending with … when cut.
func cut(text string, n int) string {
	if utf8.RuneCountInString(text) <= n {
		return text
	}
	r := []rune(text)
	return string(r[:n-1]) + "…"
}

// esc escapes text for SVG and HTML.
func esc(text string) string { return html.EscapeString(text) }

// num writes a coordinate briefly.
func num(v float64) string { return strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64) }
