package display

import (
	"fmt"
	"html"
	"slices"
	"strconv"
	"strings"

	"github.com/tensornb/tensornb/tensor"
)

// part names what position i of a packed axis belongs to under c: its
// coordinates on every axis but the last (fastest) one, slowest first,
// the role axis written with its part names, e.g. "h0·Q". Each word is
// written as nameText writes a name, so a long part name is cut only
// past maxName characters.
func part(c tensor.Contract, i int) string {
	words := coordinateWords(c, i)
	for k, w := range words {
		words[k] = nameText(w)
	}
	return strings.Join(words, "·")
}

// partKey identifies the part of position i whatever order the axes come
// in, so that one part has one colour under every contract.
func partKey(c tensor.Contract, i int) string {
	words := coordinateWords(c, i)
	slices.Sort(words)
	return strings.Join(words, ",")
}

// coordinateWords writes the coordinates of position i on every axis but
// the fastest: "h0", "Q".
func coordinateWords(c tensor.Contract, i int) []string {
	meaning := c.Meaning(i)
	var words []string
	for _, axis := range c.Axes[:len(c.Axes)-1] {
		v := meaning[axis]
		if axis == c.Role {
			words = append(words, c.Parts[v])
		} else {
			words = append(words, axis+strconv.Itoa(v))
		}
	}
	return words
}

// Packing draws the values of a packed 1-D axis once, and under it one row
// per contract naming and colouring the part each position belongs to
// (head and role, say): two contracts over the same values show how the
// same numbers decode into different vectors. A part has the same colour
// in every row. Values and part names are drawn whole, the cells as wide
// as the longest; an axis of more than 400 positions, or one whose cells
// would make the picture too large, is drawn summarized, its first and
// last positions with a gap between.
//
//	display.Packing(x, tensor.InterleavedByHead(2, 2), tensor.BlockedByRole(2, 2))
func Packing(values *tensor.Tensor, contracts ...tensor.Contract) Renderer {
	return packing{values, contracts}
}

type packing struct {
	values    *tensor.Tensor
	contracts []tensor.Contract
}

// check refuses values that the contracts do not describe.
func (p packing) check() {
	if p.values.Dim() != 1 {
		panic(&tensor.Error{Op: "packing", Class: tensor.ValueError,
			Message: fmt.Sprintf("packing expects the 1-D packed axis, got a tensor of shape %v", p.values.Shape())})
	}
	for _, c := range p.contracts {
		if err := c.Validate(); err != nil {
			panic(err)
		}
		if c.Len() != p.values.Numel() {
			panic(&tensor.Error{Op: "packing", Class: tensor.ValueError,
				Message: fmt.Sprintf("%s packs %d positions, but the axis has %d", c, c.Len(), p.values.Numel())})
		}
	}
}

// packingBudget bounds the bytes a packing's SVG form spends on its
// cells, so that every form stays within 200 KB (the HTML form holds the
// SVG in base64, a third larger). An axis whose cells would pass it is
// summarized, however few its positions.
const packingBudget = 120_000

// cellBytes is what a drawn cell costs besides its label: its <rect> and
// the markup of its <text>.
const cellBytes = 170

// summarized reports whether the packing draws its axis summarized: when
// it has more than summarizeAbove positions, or when its cells, each as
// wide as its label, would pass packingBudget bytes.
func (p packing) summarized() bool {
	n := p.values.Numel()
	if n > summarizeAbove {
		return true
	}
	cost := 0
	for i := range n {
		cost += 2*cellBytes + len(p.values.DType().FormatElement(p.values.At(i)))
		for _, c := range p.contracts {
			cost += cellBytes + len(html.EscapeString(printable(part(c, i))))
		}
		if cost > packingBudget {
			return true
		}
	}
	return false
}

// packingFacts is what both forms of a packing show: a table whose rows
// are the positions drawn, their values and, for each contract, the part
// each position belongs to, and the colour of each part.
type packingFacts struct {
	positions []int    // the positions drawn, gapIndex at a gap
	labels    []string // each row's label
	rows      [][]string
	colors    map[string]string // by partKey
}

func (p packing) facts() packingFacts {
	positions := shownIndices(p.values.Numel(), p.summarized())
	f := packingFacts{positions: positions, labels: []string{"position", "value"}, colors: p.partColors(positions)}
	f.rows = indexedRows(positions, func(i int) string { return p.values.DType().FormatElement(p.values.At(i)) })
	for _, c := range p.contracts {
		f.labels = append(f.labels, nameText(c.String()))
		row := []string{}
		for _, i := range positions {
			if i == gapIndex {
				row = append(row, "…")
				continue
			}
			row = append(row, part(c, i))
		}
		f.rows = append(f.rows, row)
	}
	return f
}

// partColors colours the parts of every contract in the order the drawn
// positions meet them, keyed by partKey.
func (p packing) partColors(positions []int) map[string]string {
	colors := map[string]string{}
	for _, c := range p.contracts {
		for _, i := range positions {
			if i == gapIndex {
				continue
			}
			if _, ok := colors[partKey(c, i)]; !ok {
				colors[partKey(c, i)] = colorOf(len(colors))
			}
		}
	}
	return colors
}

func (p packing) Bundle() Bundle {
	p.check()
	f := p.facts()
	svg := &svgDoc{}
	p.draw(svg, f)
	return svg.bundle(p.text(f))
}

// text lays the table out in aligned columns.
func (p packing) text(f packingFacts) string { return columns(f.labels, f.rows...) }

// draw puts the table's rows one under another, each cell as wide as the
// widest label drawn, with a pixel to spare: positions, then values in
// framed cells, then each contract's parts on the colour of their part.
func (p packing) draw(svg *svgDoc, f packingFacts) {
	labelW := 0.0
	for _, l := range f.labels {
		labelW = max(labelW, textWidth(l)+gap)
	}
	w := cellW
	for _, row := range f.rows {
		for _, cell := range row {
			w = max(w, textWidth(cell)+1)
		}
	}
	for r, label := range f.labels {
		y := float64(r) * (cellH + 4)
		svg.text(labelW-gap, y+cellH/2+4, "end", ink, label)
		for k, i := range f.positions {
			x := labelW + float64(k)*w
			switch {
			case i == gapIndex:
				svg.text(x+w/2, y+cellH/2+4, "middle", faint, "…")
			case r == 0:
				svg.text(x+w/2, y+cellH/2+4, "middle", faint, fmt.Sprint(i))
			case r == 1:
				svg.rect(x, y, w, cellH, "", lineColor, 1)
				svg.text(x+w/2, y+cellH/2+4, "middle", ink, f.rows[r][k])
			default:
				c := p.contracts[r-2]
				svg.rect(x, y, w, cellH, f.colors[partKey(c, i)], paper, 0.85)
				svg.text(x+w/2, y+cellH/2+4, "middle", paper, f.rows[r][k])
			}
		}
	}
}
