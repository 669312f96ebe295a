package display

import (
	"fmt"
	"strings"

	"github.com/tensornb/tensornb/tensor"
)

// Broadcast draws every logical position of x with an arrow to the storage
// slot it reads. In an expanded or broadcast tensor, where a stride is 0,
// many positions point at one slot: one element read many times. Tensors
// of more than two dimensions are drawn through their first 2-D slice.
func Broadcast(x *tensor.Tensor) Renderer { return broadcast{x: x} }

type broadcast struct {
	x    *tensor.Tensor
	name string // the tensor's name; "" for an unnamed x
}

// plane returns the 2-D (or smaller) part of x drawn, and the prefix of
// indices that selects it.
func (b broadcast) plane() (*tensor.Tensor, []int) {
	p, prefix := b.x, []int{}
	for p.Dim() > 2 {
		if p.Size(0) == 0 {
			break
		}
		p = p.Select(0, 0)
		prefix = append(prefix, 0)
	}
	return p, prefix
}

// positions returns the drawn positions of the plane as (row, column)
// index pairs, with gapIndex in summarized places.
func (b broadcast) positions(p *tensor.Tensor) (rows, cols []int) {
	sum := summarize(b.x)
	switch p.Dim() {
	case 0:
		return []int{0}, []int{0}
	case 1:
		return []int{0}, shownIndices(p.Size(0), sum)
	}
	return shownIndices(p.Size(0), sum), shownIndices(p.Size(1), sum)
}

func index(p *tensor.Tensor, r, c int) []int {
	switch p.Dim() {
	case 0:
		return nil
	case 1:
		return []int{c}
	}
	return []int{r, c}
}

// position writes a position as x[1, 2], with the tensor's name and the
// prefix of the drawn slice.
func (b broadcast) position(prefix, idx []int) string {
	parts := []string{}
	for _, i := range append(append([]int{}, prefix...), idx...) {
		parts = append(parts, fmt.Sprint(i))
	}
	return tensorName(b.name) + "[" + strings.Join(parts, ", ") + "]"
}

func (b broadcast) Bundle() Bundle {
	p, prefix := b.plane()
	rows, cols := b.positions(p)
	readers := map[int][]string{} // slot -> positions that read it
	var order []int
	for _, r := range rows {
		for _, c := range cols {
			if r == gapIndex || c == gapIndex || p.Numel() == 0 {
				continue
			}
			idx := index(p, r, c)
			slot := p.Address(idx...)
			if _, seen := readers[slot]; !seen {
				order = append(order, slot)
			}
			readers[slot] = append(readers[slot], b.position(prefix, idx))
		}
	}

	heading := ""
	if b.name != "" {
		heading = nameText(b.name) + ": "
	}
	heading += fmt.Sprintf("shape %v, strides %v: each position and the slot it reads", b.x.Shape(), b.x.Strides())
	if len(prefix) > 0 {
		heading += fmt.Sprintf(" (the slice %s)", strings.TrimSuffix(b.position(prefix, nil), "]")+", :, :]")
	}
	var text strings.Builder
	text.WriteString(heading)
	if summarize(b.x) {
		text.WriteString("\n… (summarized: the first and last rows and columns)")
	}
	st := b.x.Storage()
	for _, slot := range order {
		list := readers[slot]
		shown := list
		if len(shown) > 12 {
			shown = append(shown[:12:12], fmt.Sprintf("… (%d in all)", len(list)))
		}
		fmt.Fprintf(&text, "\nslot %d (%s) ← %s", slot, cellText(st.DType(), st.At(slot)), strings.Join(shown, " "))
	}

	svg := &svgDoc{}
	svg.text(0, lineH-4, "start", ink, heading)
	s := strip{b.x, b.name}
	f := s.facts()
	svg.text(0, 2*lineH-4, "start", faint, f.title)

	// Lay the cells out, draw the storage and the arrows, then the cells
	// over the arrows, so that each arrow leaves the grid under its row.
	type cell struct {
		idx  []int
		x, y float64
	}
	var cells []cell
	cellAt := map[string][2]float64{} // where each position's arrow starts
	top := 3 * lineH
	g := grid{x: p, show: showValues}
	w := cellW // wide enough for every value drawn
	for _, r := range rows {
		for _, c := range cols {
			if r != gapIndex && c != gapIndex && p.Numel() > 0 {
				w = max(w, textWidth(g.cell(index(p, r, c)))+1)
			}
		}
	}
	for ri, r := range rows {
		for ci, c := range cols {
			x, y := float64(ci)*w, top+float64(ri)*cellH
			if r == gapIndex || c == gapIndex {
				svg.text(x+w/2, y+cellH/2+4, "middle", faint, "…")
				continue
			}
			if p.Numel() == 0 {
				continue
			}
			idx := index(p, r, c)
			cells = append(cells, cell{idx, x, y})
			cellAt[b.position(prefix, idx)] = [2]float64{x + w/2, y + cellH/2}
		}
	}
	stripTop := top + float64(len(rows))*cellH + 4*lineH
	centres := s.draw(svg, f, 0, stripTop, highlight, false)
	for n, slot := range order {
		cx, ok := centres[slot]
		if !ok {
			continue
		}
		for _, pos := range readers[slot] {
			from := cellAt[pos]
			svg.line(from[0], from[1], cx, stripTop+lineH, colorOf(n), true)
		}
	}
	// Each cell is tinted with the colour of its slot's arrows.
	colorOfSlot := map[int]string{}
	for n, slot := range order {
		colorOfSlot[slot] = colorOf(n)
	}
	for _, c := range cells {
		svg.rect(c.x, c.y, w, cellH, "", lineColor, 1)
		svg.rect(c.x, c.y, w, cellH, colorOfSlot[p.Address(c.idx...)], lineColor, 0.15)
		g.drawCell(svg, c.idx, c.x, c.y, w)
	}
	return svg.bundle(text.String())
}
