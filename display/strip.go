package display

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tensornb/tensornb/tensor"
)

// Strip draws x's storage as a row of numbered slots holding their values,
// with the slots x reads highlighted (and how often, where a stride of 0
// makes several positions read one slot) and x's storage offset marked.
func Strip(x *tensor.Tensor) Renderer { return strip{x: x} }

type strip struct {
	x    *tensor.Tensor
	name string // the tensor's name, in the title; "" for an unnamed x
}

// A storage longer than maxSlots is drawn in part: its start, the slots
// from the tensor's offset on, and its end.
const maxSlots = 64

// slotsShown returns the storage slots to draw, in order, with gapIndex
// where slots are left out.
func slotsShown(n, offset int) []int {
	if n <= maxSlots {
		return shownIndices(n, false)
	}
	var keep []int
	add := func(lo, hi int) {
		for i := max(lo, 0); i < min(hi, n); i++ {
			keep = append(keep, i)
		}
	}
	add(0, 24)
	add(offset, offset+16)
	add(n-16, n)
	slices.Sort(keep)
	keep = slices.Compact(keep)
	var out []int
	for i, s := range keep {
		if i > 0 && s != keep[i-1]+1 {
			out = append(out, gapIndex)
		}
		out = append(out, s)
	}
	return out
}

// stripFacts is what both forms of a strip show.
type stripFacts struct {
	slots    []int       // slots drawn, gapIndex for gaps
	reads    map[int]int // reads of each drawn slot
	complete bool        // reads were counted for every position
	title    string
}

func (s strip) facts() stripFacts {
	st := s.x.Storage()
	slots := slotsShown(st.Len(), s.x.StorageOffset())
	reads, complete := readCounts(s.x, slots)
	title := fmt.Sprintf("storage: %d × %s (%d bytes); the tensor's %d elements start at offset %d",
		st.Len(), st.DType(), st.NBytes(), s.x.Numel(), s.x.StorageOffset())
	if s.name != "" {
		name := nameText(s.name)
		title = fmt.Sprintf("storage of %s: %d × %s (%d bytes); %s's %d elements start at offset %d",
			name, st.Len(), st.DType(), st.NBytes(), name, s.x.Numel(), s.x.StorageOffset())
	}
	return stripFacts{slots: slots, reads: reads, complete: complete, title: title}
}

func (s strip) Bundle() Bundle {
	f := s.facts()
	svg := &svgDoc{}
	s.draw(svg, f, 0, 0, highlight, true)
	return svg.bundle(s.text(f))
}

// text lays the strip out in columns: slot numbers, values, and a mark
// under each slot read (×n for a slot read n times).
func (s strip) text(f stripFacts) string {
	st := s.x.Storage()
	var slotRow, valueRow, readRow []string
	for _, slot := range f.slots {
		if slot == gapIndex {
			slotRow, valueRow, readRow = append(slotRow, "…"), append(valueRow, "…"), append(readRow, "")
			continue
		}
		mark := ""
		switch n := f.reads[slot]; {
		case n == 1:
			mark = "^"
		case n > 1:
			mark = fmt.Sprintf("^×%d", n)
		}
		if slot == s.x.StorageOffset() {
			mark += " off"
		}
		slotRow = append(slotRow, fmt.Sprint(slot))
		valueRow = append(valueRow, st.DType().FormatElement(st.At(slot)))
		readRow = append(readRow, mark)
	}
	rows := columns([]string{"slot", "value", "read"}, slotRow, valueRow, readRow)
	if !f.complete {
		rows += "\n(some slots are read in too many ways to count)"
	}
	return f.title + "\n" + rows
}

// draw puts the strip at (x0, y0) with read slots in color, under its
// title if titled, and returns the x of each drawn slot's centre. A slot
// read n times, n > 1, has ×n under it, and then the offset's marker goes
// a line lower.
func (s strip) draw(svg *svgDoc, f stripFacts, x0, y0 float64, color string, titled bool) map[int]float64 {
	st := s.x.Storage()
	y := y0 + lineH
	if titled {
		svg.text(x0, y0+lineH-4, "start", ink, f.title)
		y += lineH
	}
	below := y + cellH // the bottom of the slots, or of their counts
	for _, slot := range f.slots {
		if slot != gapIndex && f.reads[slot] > 1 {
			below += lineH
			break
		}
	}
	centres := map[int]float64{}
	for i, slot := range f.slots {
		x := x0 + float64(i)*cellW
		if slot == gapIndex {
			svg.text(x+cellW/2, y+cellH/2+4, "middle", faint, "…")
			continue
		}
		centres[slot] = x + cellW/2
		svg.text(x+cellW/2, y-4, "middle", faint, fmt.Sprint(slot))
		fill, opacity := "", 1.0
		if n := f.reads[slot]; n > 0 {
			fill, opacity = color, 0.25
			if n > 1 {
				svg.text(x+cellW/2, y+cellH+lineH, "middle", color, fmt.Sprintf("×%d", n))
			}
		}
		svg.rect(x, y, cellW, cellH, fill, lineColor, opacity)
		svg.text(x+cellW/2, y+cellH/2+4, "middle", ink, fit(st.DType().FormatElement(st.At(slot)), 6))
		if slot == s.x.StorageOffset() {
			svg.text(x+4, below+lineH, "start", color, "▲ offset")
		}
	}
	svg.grow(x0, below+lineH+4)
	return centres
}

// columns lays out labelled rows of cells in aligned columns.
func columns(labels []string, rows ...[]string) string {
	width := make([]int, len(rows[0]))
	for _, row := range rows {
		for i, cell := range row {
			width[i] = max(width[i], len([]rune(cell)))
		}
	}
	labelWidth := 0
	for _, l := range labels {
		labelWidth = max(labelWidth, len([]rune(l)))
	}
	lines := make([]string, len(rows))
	for r, row := range rows {
		line := pad(labels[r], labelWidth)
		for i, cell := range row {
			line += " " + pad(cell, width[i])
		}
		lines[r] = strings.TrimRight(line, " ")
	}
	return strings.Join(lines, "\n")
}

// pad right-pads s with spaces to n characters.
func pad(s string, n int) string {
	return s + strings.Repeat(" ", max(n-len([]rune(s)), 0))
}
