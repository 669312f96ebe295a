package display

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tensornb/tensornb/tensor"
)

// An Axis is one of the axes packed together into a flat axis: its name,
// its size, and optionally a name for each of its values.
type Axis struct {
	Name   string
	Size   int
	Labels []string // e.g. {"Q", "K"}; empty to write values as name and index, "h0"
}

// A Convention says what each position of a packed axis holds: its Axes
// are packed slowest first, as in the einops pattern "(h r d)", so that
// position i is the mixed-radix number of its coordinates.
//
//	interleaved := display.Convention{Name: "interleaved by head", Axes: []display.Axis{
//		{Name: "h", Size: 2}, {Name: "r", Size: 2, Labels: []string{"Q", "K"}}, {Name: "d", Size: 2}}}
type Convention struct {
	Name string
	Axes []Axis
}

// Len returns the number of positions the convention describes.
func (c Convention) Len() int {
	n := 1
	for _, a := range c.Axes {
		n *= a.Size
	}
	return n
}

// Meaning returns the coordinate along each axis of flat position i.
func (c Convention) Meaning(i int) []int {
	coords := make([]int, len(c.Axes))
	for a := len(c.Axes) - 1; a >= 0; a-- {
		size := max(c.Axes[a].Size, 1)
		coords[a] = i % size
		i /= size
	}
	return coords
}

// pattern writes the axes as an einops pattern: (h r d).
func (c Convention) pattern() string {
	names := make([]string, len(c.Axes))
	for i, a := range c.Axes {
		names[i] = a.Name
	}
	return "(" + strings.Join(names, " ") + ")"
}

// part names what position i belongs to: its coordinates on every axis but
// the last (fastest) one, in the convention's order, e.g. "h0·Q".
func (c Convention) part(i int) string {
	coords := c.Meaning(i)
	var words []string
	for a, axis := range c.Axes[:max(len(c.Axes)-1, 0)] {
		words = append(words, axis.value(coords[a]))
	}
	return strings.Join(words, "·")
}

// key identifies the part of position i whatever order the axes come in,
// so that one part has one colour under every convention.
func (c Convention) key(i int) string {
	coords := c.Meaning(i)
	var words []string
	for a, axis := range c.Axes[:max(len(c.Axes)-1, 0)] {
		words = append(words, axis.Name+"="+axis.value(coords[a]))
	}
	slices.Sort(words)
	return strings.Join(words, ",")
}

func (a Axis) value(v int) string {
	if v < len(a.Labels) {
		return a.Labels[v]
	}
	return a.Name + fmt.Sprint(v)
}

// Packing draws the values of a packed 1-D axis once, and under it one row
// per convention naming and colouring the part each position belongs to:
// two conventions over the same values show how the same numbers decode
// into different vectors. A part has the same colour in every row.
func Packing(values *tensor.Tensor, conventions ...Convention) Renderer {
	return packing{values, conventions}
}

type packing struct {
	values      *tensor.Tensor
	conventions []Convention
}

// check refuses values that the conventions do not describe.
func (p packing) check() {
	if p.values.Dim() != 1 {
		panic(&tensor.Error{Op: "packing", Class: "ValueError",
			Message: fmt.Sprintf("packing expects the 1-D packed axis, got a tensor of shape %v", p.values.Shape())})
	}
	for _, c := range p.conventions {
		if c.Len() != p.values.Numel() {
			panic(&tensor.Error{Op: "packing", Class: "ValueError",
				Message: fmt.Sprintf("convention %q %s describes %d positions, but the axis has %d", c.Name, c.pattern(), c.Len(), p.values.Numel())})
		}
	}
}

func (p packing) Bundle() Bundle {
	p.check()
	n := p.values.Numel()
	colors := map[string]string{}
	for _, c := range p.conventions {
		for i := range n {
			if _, ok := colors[c.key(i)]; !ok {
				colors[c.key(i)] = colorOf(len(colors))
			}
		}
	}
	positions := shownIndices(n, n > summarizeAbove)

	labels := []string{"position", "value"}
	rows := indexedRows(positions, func(i int) string { return cellText(p.values.DType(), p.values.At(i)) })
	for _, c := range p.conventions {
		labels = append(labels, c.Name+" "+c.pattern())
		row := []string{}
		for _, i := range positions {
			if i == gapIndex {
				row = append(row, "…")
				continue
			}
			row = append(row, c.part(i))
		}
		rows = append(rows, row)
	}
	text := columns(labels, rows...)

	svg := &svgDoc{}
	labelW := 0.0
	for _, l := range labels {
		labelW = max(labelW, float64(len([]rune(l)))*7.5+gap)
	}
	for r, label := range labels {
		y := float64(r) * (cellH + 4)
		svg.text(labelW-gap, y+cellH/2+4, "end", ink, label)
		for k, i := range positions {
			x := labelW + float64(k)*cellW
			switch {
			case i == gapIndex:
				svg.text(x+cellW/2, y+cellH/2+4, "middle", faint, "…")
			case r == 0:
				svg.text(x+cellW/2, y+cellH/2+4, "middle", faint, fmt.Sprint(i))
			case r == 1:
				svg.rect(x, y, cellW, cellH, "", lineColor, 1)
				svg.text(x+cellW/2, y+cellH/2+4, "middle", ink, fit(cellText(p.values.DType(), p.values.At(i)), 6))
			default:
				c := p.conventions[r-2]
				svg.rect(x, y, cellW, cellH, colors[c.key(i)], paper, 0.85)
				svg.text(x+cellW/2, y+cellH/2+4, "middle", paper, fit(c.part(i), 6))
			}
		}
	}
	return Bundle{MIMEPlain: text, MIMESVG: svg.String(), MIMEHTML: htmlOf(svg.String())}
}
