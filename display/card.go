package display

import (
	"fmt"
	"strings"

	"github.com/tensornb/tensornb/tensor"
)

// Card draws x's layout card: dtype, shape, strides in elements and in
// bytes, storage offset, whether it is contiguous and a view, the size of
// its storage, its CuTe-style layout (3,2):(4,2) and its address formula.
func Card(x *tensor.Tensor) Renderer { return card{x: x} }

type card struct {
	x    *tensor.Tensor
	name string // the tensor's name, its first row; "" for none
}

// rows returns the card's lines as label and value.
func (c card) rows() [][2]string {
	x := c.x
	yesNo := func(b bool) string {
		if b {
			return "yes"
		}
		return "no"
	}
	var rows [][2]string
	if c.name != "" {
		rows = append(rows, [2]string{"name", nameText(c.name)})
	}
	return append(rows, [][2]string{
		{"dtype", fmt.Sprintf("%s (%d bytes an element)", x.DType(), x.ElementSize())},
		{"shape", x.Shape().String()},
		{"strides", fmt.Sprintf("%v elements = %v bytes", x.Strides(), x.ByteStrides())},
		{"offset", fmt.Sprintf("%d elements = %d bytes from the storage base", x.StorageOffset(), x.StorageOffset()*x.ElementSize())},
		{"contiguous", yesNo(x.IsContiguous())},
		{"view", yesNo(x.IsView())},
		{"storage", fmt.Sprintf("%d × %s (%d bytes)", x.Storage().Len(), x.Storage().DType(), x.Storage().NBytes())},
		{"layout", cute(x)},
		{"address", strings.TrimPrefix(formula(x), "address = ")},
	}...)
}

// cute writes x's layout in CuTe's shape:stride notation, (2,3,4):(12,4,1).
func cute(x *tensor.Tensor) string {
	join := func(xs []int) string {
		parts := make([]string, len(xs))
		for i, v := range xs {
			parts[i] = fmt.Sprint(v)
		}
		return "(" + strings.Join(parts, ",") + ")"
	}
	return join(x.Shape()) + ":" + join(x.Strides())
}

func (c card) Bundle() Bundle {
	svg := &svgDoc{}
	c.draw(svg, 0, 0)
	return svg.bundle(c.text())
}

func (c card) text() string {
	var labels, values []string
	for _, r := range c.rows() {
		labels = append(labels, r[0])
		values = append(values, r[1])
	}
	lines := make([]string, len(labels))
	for i := range labels {
		lines[i] = pad(labels[i], 10) + " " + values[i]
	}
	return strings.Join(lines, "\n")
}

// draw puts the card, a framed two-column table, at (x0, y0).
func (c card) draw(svg *svgDoc, x0, y0 float64) {
	rows := c.rows()
	width := 0
	for _, r := range rows {
		width = max(width, len([]rune(r[1])))
	}
	w := 100 + float64(width)*7.5
	h := float64(len(rows))*lineH + gap
	svg.rect(x0, y0, w, h, "#f8fafc", lineColor, 1)
	for i, r := range rows {
		y := y0 + gap/2 + float64(i+1)*lineH - 4
		svg.text(x0+gap, y, "start", faint, r[0])
		svg.text(x0+90, y, "start", ink, r[1])
	}
}

// Layout draws x's card, grid and storage strip together: everything
// there is to know about where x's elements live.
func Layout(x *tensor.Tensor) Renderer { return layout{x: x} }

type layout struct {
	x    *tensor.Tensor
	name string // the tensor's name; "" for an unnamed x
}

func (l layout) Bundle() Bundle {
	c, g, s := card{l.x, l.name}, grid{x: l.x, show: showValues | showSlots, name: l.name}, strip{l.x, l.name}
	f := s.facts()
	svg := &svgDoc{}
	c.draw(svg, 0, 0)
	g.draw(svg, 0, svg.height+gap)
	s.draw(svg, f, 0, svg.height+gap, highlight, true)
	text := c.text() + "\n\n" + g.text() + "\n\n" + s.text(f)
	return svg.bundle(text)
}
