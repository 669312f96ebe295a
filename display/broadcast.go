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

// broadcastFacts is what both forms of a broadcast picture show: the
// positions drawn and the slots they read.
type broadcastFacts struct {
	plane   *tensor.Tensor // the 2-D (or smaller) part of x drawn
	prefix  []int          // the indices that select the plane
	rows    int            // the rows of positions drawn, gaps included
	cells   []positionCell // the positions drawn, row by row
	gaps    []positionCell // the gaps of a summarized plane, row by row
	slots   []slotReaders  // the slots read, in the order cells first read them
	heading string
}

// A positionCell is one place in the picture's grid of positions: its row
// and column there and, but for a gap, its index in the plane and the
// slot it reads, an index into broadcastFacts.slots.
type positionCell struct {
	row, col int
	idx      []int
	slot     int
}

// slotReaders is a storage slot and the cells that read it, indices into
// broadcastFacts.cells.
type slotReaders struct {
	slot  int
	cells []int
}

func (b broadcast) facts() broadcastFacts {
	p, prefix := b.plane()
	rows, cols := b.positions(p)
	f := broadcastFacts{plane: p, prefix: prefix, rows: len(rows), heading: b.heading(prefix)}
	slotIndex := map[int]int{} // slot -> its index in f.slots
	for ri, r := range rows {
		for ci, c := range cols {
			if r == gapIndex || c == gapIndex {
				f.gaps = append(f.gaps, positionCell{row: ri, col: ci})
				continue
			}
			if p.Numel() == 0 {
				continue
			}
			idx := index(p, r, c)
			slot := p.Address(idx...)
			n, seen := slotIndex[slot]
			if !seen {
				n = len(f.slots)
				slotIndex[slot] = n
				f.slots = append(f.slots, slotReaders{slot: slot})
			}
			f.slots[n].cells = append(f.slots[n].cells, len(f.cells))
			f.cells = append(f.cells, positionCell{row: ri, col: ci, idx: idx, slot: n})
		}
	}
	return f
}

// heading is the picture's first line, led by the tensor's name if it has
// one, and naming the slice drawn of a tensor of more than two dimensions.
func (b broadcast) heading(prefix []int) string {
	heading := namePrefix(b.name) + fmt.Sprintf("shape %v, strides %v: each position and the slot it reads", b.x.Shape(), b.x.Strides())
	if len(prefix) > 0 {
		heading += fmt.Sprintf(" (the slice %s)", strings.TrimSuffix(b.position(prefix, nil), "]")+", :, :]")
	}
	return heading
}

func (b broadcast) Bundle() Bundle {
	f := b.facts()
	svg := &svgDoc{}
	b.draw(svg, f)
	return svg.bundle(b.text(f))
}

// text lists each slot read with its value and the positions that read
// it, the first dozen of them.
func (b broadcast) text(f broadcastFacts) string {
	var text strings.Builder
	text.WriteString(f.heading)
	if summarize(b.x) {
		text.WriteString("\n… (summarized: the first and last rows and columns)")
	}
	st := b.x.Storage()
	for _, s := range f.slots {
		var shown []string
		for _, k := range s.cells[:min(len(s.cells), 12)] {
			shown = append(shown, b.position(f.prefix, f.cells[k].idx))
		}
		if len(s.cells) > 12 {
			shown = append(shown, fmt.Sprintf("… (%d in all)", len(s.cells)))
		}
		fmt.Fprintf(&text, "\nslot %d (%s) ← %s", s.slot, st.DType().FormatElement(st.At(s.slot)), strings.Join(shown, " "))
	}
	return text.String()
}

// draw puts the grid of positions over x's storage strip, with an arrow
// from each position to the slot it reads, in a colour of the slot's own.
// The arrows are drawn before the cells, so that each leaves the grid
// under its row; each cell is tinted with the colour of its arrow.
func (b broadcast) draw(svg *svgDoc, f broadcastFacts) {
	svg.text(0, lineH-4, "start", ink, f.heading)
	s := strip{b.x, b.name}
	sf := s.facts()
	svg.text(0, 2*lineH-4, "start", faint, sf.title)

	top := 3 * lineH
	g := grid{x: f.plane, show: showValues}
	w := cellW // wide enough for every value drawn
	for _, c := range f.cells {
		w = max(w, textWidth(g.cell(c.idx))+1)
	}
	at := func(c positionCell) (x, y float64) { return float64(c.col) * w, top + float64(c.row)*cellH }
	for _, c := range f.gaps {
		x, y := at(c)
		svg.text(x+w/2, y+cellH/2+4, "middle", faint, "…")
	}
	stripTop := top + float64(f.rows)*cellH + 4*lineH
	centres := s.draw(svg, sf, 0, stripTop, highlight, false)
	for n, slot := range f.slots {
		cx, ok := centres[slot.slot]
		if !ok {
			continue
		}
		for _, k := range slot.cells {
			x, y := at(f.cells[k])
			svg.line(x+w/2, y+cellH/2, cx, stripTop+lineH, colorOf(n), true)
		}
	}
	for _, c := range f.cells {
		x, y := at(c)
		svg.rect(x, y, w, cellH, "", lineColor, 1)
		svg.rect(x, y, w, cellH, colorOf(c.slot), lineColor, 0.15)
		g.drawCell(svg, c.idx, x, y, w)
	}
}
