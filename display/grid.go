package display

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tensornb/tensornb/tensor"
)

// Grid draws x as a grid of its logical positions, each cell showing the
// element's value and the storage slot it lives in (value@slot), under the
// address formula of x's strides. A 1-D tensor is one row; tensors of more
// than two dimensions are drawn as panels of 2-D slices.
func Grid(x *tensor.Tensor) Renderer { return grid{x: x, show: showValues | showSlots} }

// OffsetGrid draws x's grid with each cell showing only the storage slot
// its element lives in: the numbers are where the tensor reads from.
func OffsetGrid(x *tensor.Tensor) Renderer { return grid{x: x, show: showSlots} }

// ValueGrid draws x's grid with each cell showing only its value.
func ValueGrid(x *tensor.Tensor) Renderer { return grid{x: x, show: showValues} }

type cellContent int

const (
	showValues cellContent = 1 << iota
	showSlots
)

type grid struct {
	x    *tensor.Tensor
	show cellContent
	name string // the tensor's name, shown as given; "" for an unnamed x
	// differs, if set, marks the cells of the elements it reports (see
	// Compare).
	differs func(idx []int) bool
}

// A panel is one 2-D slice of the grid. Rows and columns hold the indices
// drawn along the last two dimensions, gapIndex marking a gap.
type panel struct {
	lead       []int // indices of the leading dimensions; nil for a gap panel
	rows, cols []int
}

// panels splits x into the 2-D slices to draw.
func (g grid) panels() []panel {
	x, sum := g.x, summarize(g.x)
	var rows, cols []int
	switch x.Dim() {
	case 0:
		rows, cols = []int{0}, []int{0}
	case 1:
		rows, cols = []int{0}, shownIndices(x.Size(0), sum)
	default:
		rows, cols = shownIndices(x.Size(-2), sum), shownIndices(x.Size(-1), sum)
	}
	leadDims := max(x.Dim()-2, 0)
	// Summarized, the leading dimensions show their first and last index
	// only when more would make too many panels.
	leadIndices := func(d int) []int { return shownIndices(x.Size(d), sum) }
	if sum && leadDims > 1 {
		leadIndices = func(d int) []int { return edgeIndices(x.Size(d), 1) }
	}
	// walk appends the panels under prefix, the last first if backward,
	// until out holds limit panels.
	var out []panel
	var walk func(prefix []int, backward bool, limit int)
	walk = func(prefix []int, backward bool, limit int) {
		if len(prefix) == leadDims {
			out = append(out, panel{lead: append([]int{}, prefix...), rows: rows, cols: cols})
			return
		}
		indices := leadIndices(len(prefix))
		if backward {
			slices.Reverse(indices)
		}
		for _, i := range indices {
			if len(out) >= limit {
				return
			}
			if i == gapIndex {
				out = append(out, panel{})
				continue
			}
			walk(append(prefix, i), backward, limit)
		}
	}
	walk(nil, false, maxPanels+1)
	if len(out) <= maxPanels {
		return out
	}
	// Too many panels: the first and the last few, a gap between.
	first := trimGaps(out[:maxPanels/2])
	out = nil
	walk(nil, true, maxPanels/2)
	last := trimGaps(out)
	slices.Reverse(last)
	return append(append(first, panel{}), last...)
}

// maxPanels bounds the panels of a grid, whatever the rank of the tensor:
// beyond it, the first and last maxPanels/2 are drawn.
const maxPanels = 8

// trimGaps drops the gap panels at the end of ps.
func trimGaps(ps []panel) []panel {
	for len(ps) > 0 && ps[len(ps)-1].lead == nil {
		ps = ps[:len(ps)-1]
	}
	return ps
}

// title names a panel as a slice of the tensor: x[0, 1, :, :].
func (g grid) title(p panel) string {
	if g.x.Dim() <= 2 {
		return ""
	}
	parts := make([]string, 0, g.x.Dim())
	for _, i := range p.lead {
		parts = append(parts, fmt.Sprint(i))
	}
	return tensorName(g.name) + "[" + strings.Join(append(parts, ":", ":"), ", ") + "]"
}

// index returns the full index of the cell at row r, column c of a panel.
func (g grid) index(p panel, r, c int) []int {
	switch g.x.Dim() {
	case 0:
		return nil
	case 1:
		return []int{c}
	}
	return append(append([]int{}, p.lead...), r, c)
}

// cell returns the text of one cell.
func (g grid) cell(idx []int) string {
	value, slot := g.cellParts(idx)
	switch g.show {
	case showValues:
		return value
	case showSlots:
		return slot
	}
	return value + "@" + slot
}

// heading is the grid's first line, led by the tensor's name if it has
// one.
func (g grid) heading() string {
	return namePrefix(g.name) + fmt.Sprintf("shape %v, strides %v: %s", g.x.Shape(), g.x.Strides(), formula(g.x))
}

func (g grid) Bundle() Bundle {
	svg := &svgDoc{}
	g.draw(svg, 0, 0)
	return svg.bundle(g.text())
}

func (g grid) text() string {
	var b strings.Builder
	b.WriteString(g.heading())
	for _, p := range g.panels() {
		b.WriteString("\n")
		if p.lead == nil {
			b.WriteString("…\n")
			continue
		}
		if t := g.title(p); t != "" {
			b.WriteString(t + "\n")
		}
		labels := []string{""}
		header := make([]string, len(p.cols))
		for ci, c := range p.cols {
			header[ci] = indexLabel(g.x, -1, c)
		}
		table := [][]string{header}
		for _, r := range p.rows {
			label := ""
			if g.x.Dim() >= 2 {
				label = indexLabel(g.x, -2, r)
			}
			labels = append(labels, label)
			row := make([]string, len(p.cols))
			for ci, c := range p.cols {
				if r == gapIndex || c == gapIndex {
					row[ci] = "…"
					continue
				}
				idx := g.index(p, r, c)
				row[ci] = g.cell(idx)
				if g.differs != nil && g.differs(idx) {
					row[ci] += "≠"
				}
			}
			table = append(table, row)
		}
		b.WriteString(columns(labels, table...) + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// indexLabel labels a row (dim -2) or column (dim -1) index: "i=0".
func indexLabel(x *tensor.Tensor, dim, i int) string {
	if i == gapIndex {
		return "…"
	}
	if x.Dim() == 0 {
		return ""
	}
	d := x.Dim() + dim
	if x.Dim() == 1 {
		d = 0
	}
	return indexName(d, x.Dim()) + "=" + fmt.Sprint(i)
}

// draw puts the grid's panels side by side, wrapping after a few.
func (g grid) draw(svg *svgDoc, x0, y0 float64) {
	svg.text(x0, y0+lineH-4, "start", ink, g.heading())
	top := y0 + lineH + gap
	x, y, rowHeight := x0, top, 0.0
	panels := g.panels()
	w, labelW := g.widths(panels)
	for n, p := range panels {
		if n > 0 && n%4 == 0 {
			x, y = x0, y+rowHeight+gap
		}
		if p.lead == nil {
			svg.text(x+cellW/2, y+lineH*2, "middle", faint, "…")
			x += cellW + gap
			continue
		}
		width, height := g.drawPanel(svg, p, x, y, w, labelW)
		x += width + 2*gap
		rowHeight = max(rowHeight, height)
	}
}

// drawPanel draws one 2-D slice with its index labels and returns its size.
func (g grid) drawPanel(svg *svgDoc, p panel, x0, y0, w, labelW float64) (width, height float64) {
	y := y0
	if t := g.title(p); t != "" {
		svg.text(x0, y+lineH-4, "start", ink, t)
		y += lineH
	}
	top := y + lineH
	for ci, c := range p.cols {
		svg.text(x0+labelW+float64(ci)*w+w/2, top-4, "middle", faint, indexLabel(g.x, -1, c))
	}
	for ri, r := range p.rows {
		cy := top + float64(ri)*cellH
		if g.x.Dim() >= 2 {
			svg.text(x0+labelW-4, cy+cellH/2+4, "end", faint, indexLabel(g.x, -2, r))
		}
		for ci, c := range p.cols {
			cx := x0 + labelW + float64(ci)*w
			if r == gapIndex || c == gapIndex {
				svg.text(cx+w/2, cy+cellH/2+4, "middle", faint, "…")
				continue
			}
			idx := g.index(p, r, c)
			svg.rect(cx, cy, w, cellH, "", lineColor, 1)
			if g.differs != nil && g.differs(idx) {
				svg.rect(cx+1, cy+1, w-2, cellH-2, mismatch, mismatch, 0.2)
			}
			g.drawCell(svg, idx, cx, cy, w)
		}
	}
	width = labelW + float64(len(p.cols))*w
	if t := g.title(p); t != "" {
		width = max(width, textWidth(t))
	}
	return width, top + float64(len(p.rows))*cellH - y0
}

// widths returns the width of the cells of the panels and of the row
// labels left of them: wide enough for every label drawn, with a pixel or
// more to spare, so that a large tensor is summarized rather than its
// labels run together.
func (g grid) widths(panels []panel) (w, labelW float64) {
	w, labelW = cellW, 36.0
	if g.show == showValues|showSlots {
		w = cellW * 1.5
	}
	for _, p := range panels {
		for _, r := range p.rows {
			if g.x.Dim() >= 2 {
				labelW = max(labelW, textWidth(indexLabel(g.x, -2, r))+6)
			}
		}
		for _, c := range p.cols {
			w = max(w, textWidth(indexLabel(g.x, -1, c))+8)
		}
		if p.lead == nil {
			continue
		}
		for _, r := range p.rows {
			for _, c := range p.cols {
				if r == gapIndex || c == gapIndex {
					continue
				}
				value, slot := g.cellParts(g.index(p, r, c))
				switch g.show {
				case showValues:
					w = max(w, textWidth(value)+1)
				case showSlots:
					w = max(w, textWidth(slot)+1)
				default:
					// The value ends 3 px left of the middle and the
					// slot starts 3 px right of it.
					w = max(w, 2*(max(textWidth(value), textWidth("@"+slot))+3+1.5))
				}
			}
		}
	}
	return w, labelW
}

// cellParts returns the value and the storage slot of the element at idx,
// as a cell shows them.
func (g grid) cellParts(idx []int) (value, slot string) {
	return g.x.DType().FormatElement(g.x.At(idx...)), fmt.Sprint(g.x.Address(idx...))
}

// drawCell writes a cell's value in ink and its slot in the highlight
// colour.
func (g grid) drawCell(svg *svgDoc, idx []int, x, y, w float64) {
	value, slot := g.cellParts(idx)
	switch g.show {
	case showValues:
		svg.text(x+w/2, y+cellH/2+4, "middle", ink, value)
	case showSlots:
		svg.text(x+w/2, y+cellH/2+4, "middle", highlight, slot)
	default:
		svg.text(x+w/2-3, y+cellH/2+4, "end", ink, value)
		svg.text(x+w/2+3, y+cellH/2+4, "start", highlight, "@"+slot)
	}
}
