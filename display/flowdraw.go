package display

import (
	"fmt"
	"math"
	"strings"
)

// alarm is the colour of notes about mistakes, as the Mermaid form draws
// its problems.
const alarm = "#b91c1c"

// svg draws g as an SVG picture with presentation attributes only: each
// group a rounded box with its title on a white ground, each node a rounded box in its
// group's colour, each arrow a polyline ending in an arrow head, dotted
// for a view and thick for a copy, its label on a white ground, and the
// notes in red underneath. It draws at most what bounded keeps.
func (g flowGraph) draw() *svgDoc {
	g = g.bounded()
	s := &svgDoc{}
	if len(g.nodes) == 0 {
		s.text(gap, gap+lineH, "start", faint, g.empty)
	}
	l := g.layout()
	for _, r := range l.groups {
		if r.w == 0 {
			continue
		}
		s.roundRect(r, 8, paper, lineColor, 1)
	}
	for k, e := range g.edges {
		s.polyline(l.paths[k], e.view)
	}
	for k, r := range l.titles {
		if r.w == 0 {
			continue
		}
		s.roundRect(r, 3, paper, paper, 1)
		s.text(r.x+2, r.y+lineH-3, "start", ink, g.groups[k])
	}
	for k, e := range g.edges {
		r := l.labels[k]
		s.roundRect(r, 3, paper, paper, 1)
		s.text(r.x+r.w/2, r.y+lineH-3, "middle", ink, e.label)
	}
	for i, n := range g.nodes {
		r := l.nodes[i]
		color := colorOf(n.group)
		s.roundRect(r, 6, color, color, 0.08)
		title, _ := n.title()
		for k, line := range n.lines {
			tone := ink
			if k >= len(title) {
				tone = faint
			}
			s.text(r.x+flowPadX, r.y+flowPadY+float64(k+1)*lineH-4, "start", tone, line)
		}
	}
	y := l.notes.y
	if len(g.nodes) == 0 {
		y += lineH
	}
	for _, note := range g.notes {
		s.text(l.notes.x, y, "start", alarm, note)
		y += lineH
	}
	return s
}

// roundRect draws a box with rounded corners; its fill has the given
// opacity.
func (s *svgDoc) roundRect(r rect, radius float64, fill, stroke string, opacity float64) {
	opacity = math.Round(opacity*10) / 10 // as num writes it, for the PNG to match
	alpha := ""
	if opacity != 1 {
		alpha = ` fill-opacity="` + num(opacity) + `"`
	}
	fmt.Fprintf(&s.b, `<rect x="%s" y="%s" width="%s" height="%s" rx="%s" fill="%s"%s stroke="%s"/>`+"\n",
		num(r.x), num(r.y), num(r.w), num(r.h), num(radius), fill, alpha, stroke)
	s.marks = append(s.marks, func(c *canvas) { c.box(r, radius, fill, stroke, opacity) })
	s.grow(r.x+r.w, r.y+r.h)
}

// polyline draws an arrow along points: dotted if dotted, thick if not.
func (s *svgDoc) polyline(points []point, dotted bool) {
	var d strings.Builder
	for k, p := range points {
		if k > 0 {
			d.WriteByte(' ')
		}
		d.WriteString(num(p.x) + "," + num(p.y))
		s.grow(p.x, p.y)
	}
	style, width := ` stroke-width="2"`, 2.0
	if dotted {
		style, width = ` stroke-dasharray="4 3"`, 1
	}
	s.marks = append(s.marks, func(c *canvas) { c.stroke(points, width, ink, dotted, true) })
	fmt.Fprintf(&s.b, `<polyline points="%s" fill="none" stroke="%s"%s marker-end="url(#arrow)"/>`+"\n", d.String(), ink, style)
}
