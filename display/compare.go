package display

import (
	"fmt"
	"math"
	"strings"

	"github.com/tensornb/tensornb/tensor"
)

// Compare draws got, the tensor a piece of code made, beside want, the
// one it should have made, as an exercise's check shows a failure: their
// layouts side by side in one table, the facts that differ marked ≠;
// their values, the elements that differ marked, when their shapes agree;
// and their storages, each tensor's slots marked as Views marks them and
// the slots the two read differently marked ≠. A copy where a view was
// asked for, other strides or another offset show at a glance. The names label the two sides.
//
//	display.Compare(display.Named{"expected", want}, display.Named{"yours", got})
func Compare(want, got Named) Renderer { return comparison{want: want, got: got} }

type comparison struct{ want, got Named }

// A fact is one row of a comparison's table: its label and the two
// tensors' values.
type fact struct{ label, want, got string }

func (f fact) differs() bool { return f.want != f.got }

// facts returns the rows of the table, naming storages as groups does.
func (c comparison) facts(groups []storageGroup) []fact {
	storage := func(x *tensor.Tensor) string {
		for _, g := range groups {
			if g.storage == x.Storage() {
				return fmt.Sprintf("%s: %d × %s", g.name, g.storage.Len(), g.storage.DType())
			}
		}
		return ""
	}
	contiguous := func(x *tensor.Tensor) string {
		if x.IsContiguous() {
			return "yes"
		}
		return "no"
	}
	w, g := c.want.Tensor, c.got.Tensor
	return []fact{
		{"dtype", w.DType().String(), g.DType().String()},
		{"shape", w.Shape().String(), g.Shape().String()},
		{"strides", fmt.Sprint(w.Strides()), fmt.Sprint(g.Strides())},
		{"offset", fmt.Sprint(w.StorageOffset()), fmt.Sprint(g.StorageOffset())},
		{"contiguous", contiguous(w), contiguous(g)},
		{"storage", storage(w), storage(g)},
	}
}

// differs reports whether the elements at idx of want and got differ; NaN
// is taken to equal NaN.
func (c comparison) differs(idx []int) bool {
	a, b := c.want.Tensor.At(idx...), c.got.Tensor.At(idx...)
	return a != b && !(math.IsNaN(a) && math.IsNaN(b))
}

// grids returns the two value grids, with the elements that differ
// marked, or false if the shapes differ and there is nothing to set side
// by side.
func (c comparison) grids() (want, got grid, ok bool) {
	if !sameShape(c.want.Tensor, c.got.Tensor) {
		return grid{}, grid{}, false
	}
	want = grid{x: c.want.Tensor, show: showValues, name: c.want.Name, differs: c.differs}
	got = grid{x: c.got.Tensor, show: showValues, name: c.got.Name, differs: c.differs}
	return want, got, true
}

func (c comparison) Bundle() Bundle {
	pair := views{c.want, c.got}
	facts := c.facts(pair.groups())
	var text strings.Builder
	heading := fmt.Sprintf("%s and %s side by side; ≠ marks what differs", nameText(c.want.Name), nameText(c.got.Name))
	text.WriteString(heading + "\n")
	svg := &svgDoc{}
	svg.text(0, lineH-4, "start", ink, heading)
	y := c.drawFacts(svg, facts, lineH+gap)
	text.WriteString(factsText(c, facts))

	if want, got, ok := c.grids(); ok {
		// The left grid is drawn once aside to learn its width.
		scratch := &svgDoc{}
		want.draw(scratch, 0, 0)
		want.draw(svg, 0, y+gap)
		got.draw(svg, scratch.width+3*gap, y+gap)
		y = svg.height + gap
		text.WriteString("\n\n" + want.text() + "\n\n" + got.text())
	}
	text.WriteString("\n\n" + pair.render(svg, y+gap, true))
	return svg.bundle(text.String())
}

// factsText lays the table out in columns, a ≠ after each row that
// differs.
func factsText(c comparison, facts []fact) string {
	labels := []string{""}
	wants, gots, marks := []string{nameText(c.want.Name)}, []string{nameText(c.got.Name)}, []string{""}
	for _, f := range facts {
		labels = append(labels, f.label)
		wants, gots = append(wants, f.want), append(gots, f.got)
		mark := ""
		if f.differs() {
			mark = "≠"
		}
		marks = append(marks, mark)
	}
	return transpose(labels, wants, gots, marks)
}

// transpose lays out columns of cells side by side, one line a row, each
// column as wide as its widest cell.
func transpose(cols ...[]string) string {
	widths := make([]int, len(cols))
	for i, col := range cols {
		for _, cell := range col {
			widths[i] = max(widths[i], len([]rune(cell)))
		}
	}
	var lines []string
	for r := range cols[0] {
		var b strings.Builder
		for i, col := range cols {
			b.WriteString(pad(col[r], widths[i]+2))
		}
		lines = append(lines, strings.TrimRight(b.String(), " "))
	}
	return strings.Join(lines, "\n")
}

// drawFacts draws the table at y0 and returns the y below it: a header
// with the two names in the colours Views gives them, then a row a fact,
// whose values are drawn in the mismatch colour, with a ≠, where they
// differ.
func (c comparison) drawFacts(svg *svgDoc, facts []fact, y0 float64) float64 {
	labelW, colW := 90.0, 0.0
	for _, f := range facts {
		colW = max(colW, textWidth(f.want), textWidth(f.got))
	}
	colW = max(colW, textWidth(nameText(c.want.Name)), textWidth(nameText(c.got.Name))) + 2*gap
	rows := len(facts) + 1
	svg.rect(0, y0, labelW+2*colW+3*gap, float64(rows)*lineH+gap, "#f8fafc", lineColor, 1)
	y := y0 + gap/2 + lineH - 4
	svg.text(labelW, y, "start", colorOf(0), nameText(c.want.Name))
	svg.text(labelW+colW, y, "start", colorOf(1), nameText(c.got.Name))
	for _, f := range facts {
		y += lineH
		color := ink
		if f.differs() {
			color = mismatch
			svg.text(labelW+2*colW, y, "start", mismatch, "≠")
		}
		svg.text(gap, y, "start", faint, f.label)
		svg.text(labelW, y, "start", color, f.want)
		svg.text(labelW+colW, y, "start", color, f.got)
	}
	return y0 + float64(rows)*lineH + gap
}
