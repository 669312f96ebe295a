package display

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"

	"github.com/tensornb/tensornb/tensor"
)

// Playground draws a stride playground that starts from x: controls edit
// the length of the storage, the storage offset, and each dimension's
// size and stride (one to four dimensions), over x's storage and values.
// For every setting it draws the grid of positions, each with the value
// it reads and its slot, and the storage with the slots read tinted and
// counted (×3 where three positions read one slot). It says which kind of
// layout the setting is, the first that fits of:
//
//   - refused: a stride is negative, which PyTorch's rules refuse, with
//     as_strided's message; a switch to NumPy's rules allows it (x[::-1]
//     is a view there);
//   - out of bounds: a position's address, offset + Σ index·stride, is
//     outside the storage; the first such position in row-major order is
//     named, with its arithmetic and as_strided's message;
//   - overlapping: some slot is read by two positions or more; reading is
//     fine, and an in-place write is refused with PyTorch's message;
//   - contiguous: PyTorch's is_contiguous, row-major with no gaps;
//   - a view: one view op of x makes exactly this shape, these strides and
//     this offset: a transpose or permute, a view with another shape, an
//     index of slices, steps and integers, a diagonal, an expand, an
//     unfold, or an index or unfold of x.View(-1);
//   - only as_strided makes it.
//
// A layout of the first three kinds may still be an op's (an expand, an
// unfold, a NumPy flip), which the playground names too. Scan walks the
// positions in order to show whether the addresses step by one, jump or
// repeat. A Go line makes the layout from x, to paste into the next cell:
// the op (x.T(), x.Index("1:, ::2"), x.Index("0").Expand(3, 4)), or
// x.AsStrided([]int{…}, []int{…}, offset) when no op does, which fails
// as PyTorch's as_strided would for a refused layout. Presets set the
// contiguous layout, a transpose, every other column, a flip, a broadcast
// row, the diagonal, a rolling window of 3 and overlapping unfold
// windows.
//
// Storage slots added past x's storage hold zeros; the Go line then
// builds that storage with tensor.Cat, and a shorter storage with a copy
// of x's first slots. Playground(nil) starts blank: x is
// tensor.Arange(12).View(3, 4), over a storage holding 0, 1, 2, ….
//
// The layout arithmetic is done in Go for the text form, the still
// picture and the tests, and again by the HTML form's script for the
// controls; a table of settings that Go writes, which the script's test
// replays, keeps the two equal. The HTML needs no network
// and playgrounds on one page are independent. Until the script runs (a
// notebook runs it only in an output it trusts), the HTML shows x's
// layout as a still picture, which the SVG form draws too; the text form
// describes it and lists the presets with their Go lines.
//
// x must have one to four dimensions, at least one and at most 256
// elements, and a storage of at most 64 slots; otherwise the bundle says
// so instead.
func Playground(x *tensor.Tensor) Renderer { return playground{x: x} }

// Playground draws the stride playground of the tensor as Playground
// does, calling it by its name where Playground calls it x: in its
// sentences and in the Go lines it writes (y.T() for a tensor named y).
func (n Named) Playground() Renderer { return playground{x: n.Tensor, name: n.Name} }

type playground struct {
	x    *tensor.Tensor // nil for a blank playground
	name string         // "" for x
}

// playgroundJS drives a playground in the page: a function expression
// that playScript calls with the playground's element, its data and
// playlayoutJS.
//
//go:embed playground.js
var playgroundJS string

// playlayoutJS is playlayout.go's arithmetic for the page: a function
// expression that takes x's playBase and returns classify, which is
// playClassify. TestPlaygroundTable and TestPlaygroundTableInBrowser keep
// the two equal (see the top of playlayout.js for why there are two).
//
//go:embed playlayout.js
var playlayoutJS string

// playScript is the playground's own script, which interactiveJS calls
// with the element and the data: playgroundJS, given playlayoutJS too.
var playScript = "function (root, ui, data, tools) {\n  return (" + expression(playgroundJS) +
	")(root, ui, data, tools, " + expression(playlayoutJS) + ");\n}"

// playData is what the script receives.
type playData struct {
	Title   string       `json:"title"`
	Base    playBase     `json:"base"`
	Presets []playPreset `json:"presets"` // the first is x as given
	Limits  playLimits   `json:"limits"`
}

// A playPreset is a layout a button sets.
type playPreset struct {
	Key    string     `json:"key"`
	Name   string     `json:"name"`
	Layout playLayout `json:"layout"`
}

// playLimits are the bounds of the controls.
type playLimits struct {
	Slots  int `json:"slots"`
	Cells  int `json:"cells"`
	Dims   int `json:"dims"`
	Stride int `json:"stride"`
	Offset int `json:"offset"`
}

// playOutput is the playground's HTML form: its element, style and
// script.
var playOutput = &interactive{class: "tnb-playground", prefix: "tp", css: playCSS, script: playScript}

// called is what the playground calls x.
func (p playground) called() string {
	if p.name == "" {
		return "x"
	}
	return nameText(p.name)
}

// refusal explains why x is not played with, or returns "".
func (p playground) refusal() string {
	x, called := p.x, p.called()
	if x == nil {
		return ""
	}
	switch {
	case x.Dim() < 1 || x.Dim() > playMaxDims:
		return fmt.Sprintf("The stride playground starts from tensors of 1 to %d dimensions, and %s has %d; try %s.Reshape(-1), or a slice.", playMaxDims, called, x.Dim(), called)
	case x.Numel() < 1 || x.Numel() > playMaxCells:
		return fmt.Sprintf("The stride playground draws 1 to %d elements, and %s has %d (shape %v); try a slice, such as %s.Index(\":4\").", playMaxCells, called, x.Numel(), x.Shape(), called)
	case x.Storage().Len() > playMaxSlots:
		return fmt.Sprintf("The stride playground draws storages of at most %d slots, and %s is over one of %d; try %s.Contiguous(), a copy in a storage of its own, or a slice of it.", playMaxSlots, called, x.Storage().Len(), called)
	}
	return ""
}

// playValue writes an element as a cell shows it.
func playValue(dt tensor.DType, v float64) string { return dt.FormatElement(v) }

// base describes x, or the blank playground's arange.
func (p playground) base() *playBase {
	x := p.x
	if x == nil {
		b := &playBase{Name: "x", Go: "tensor.Arange(12).View(3, 4)", Py: "torch.arange(12).view(3, 4)", Blank: true,
			Storage: 12, Shape: []int{3, 4}, Strides: []int{4, 1}, Offset: 0,
			DType: tensor.Int64.String(), Item: tensor.Int64.ItemSize(), Zero: "0"}
		for i := range 12 {
			b.Values = append(b.Values, strconv.Itoa(i))
		}
		return b
	}
	st := x.Storage()
	called := p.called()
	b := &playBase{Name: called, Go: called, Py: called, Storage: st.Len(),
		Shape: x.Shape(), Strides: x.Strides(), Offset: x.StorageOffset(),
		DType: x.DType().String(), Item: x.ElementSize(), Zero: playValue(st.DType(), 0)}
	for i := range st.Len() {
		b.Values = append(b.Values, playValue(st.DType(), st.At(i)))
	}
	return b
}

// layout returns b's own layout, judged by PyTorch's rules.
func (b *playBase) layout() playLayout {
	return playLayout{Storage: b.Storage, Shape: b.Shape, Strides: b.Strides, Offset: b.Offset}
}

// presets returns x as given and the preset layouts that apply to x.
func (b *playBase) presets() []playPreset {
	bs, bt, bo, r, n := b.Shape, b.Strides, b.Offset, len(b.Shape), b.Storage
	clone := func(xs []int) []int { return append([]int{}, xs...) }
	out := []playPreset{{"start", b.Name + " as given", b.layout()}}
	add := func(key, name string, shape, strides []int, offset int, numpy bool) {
		if len(shape) > playMaxDims || playNumel(shape) > playMaxCells {
			return
		}
		out = append(out, playPreset{key, name, playLayout{n, shape, strides, offset, numpy}})
	}
	add("contiguous", "contiguous", clone(bs), playRowMajor(bs), 0, false)
	if r >= 2 {
		shape, strides := clone(bs), clone(bt)
		shape[r-2], shape[r-1] = shape[r-1], shape[r-2]
		strides[r-2], strides[r-1] = strides[r-1], strides[r-2]
		add("transpose", "transpose", shape, strides, bo, false)
	}
	if bs[r-1] >= 2 {
		shape, strides := clone(bs), clone(bt)
		shape[r-1], strides[r-1] = (bs[r-1]+1)/2, 2*bt[r-1]
		add("every-other", "every other column", shape, strides, bo, false)
	}
	if bs[0] >= 2 {
		strides := clone(bt)
		strides[0] = -bt[0]
		add("flip", "flip (NumPy)", clone(bs), strides, bo+(bs[0]-1)*bt[0], true)
	}
	switch {
	case r >= 2 && bs[0] >= 2:
		strides := clone(bt)
		strides[0] = 0
		add("broadcast", "broadcast row", clone(bs), strides, bo, false)
	case r == 1:
		add("broadcast", "broadcast row", []int{3, bs[0]}, []int{0, bt[0]}, bo, false)
	}
	if r >= 2 && min(bs[0], bs[1]) >= 2 {
		add("diagonal", "diagonal", append(clone(bs[2:]), min(bs[0], bs[1])), append(clone(bt[2:]), bt[0]+bt[1]), bo, false)
	}
	if n >= 3 {
		add("rolling", "rolling window of 3", []int{n - 2, 3}, []int{1, 1}, 0, false)
	}
	if c := bs[r-1]; c >= 3 {
		size := max(2, (c+1)/2)
		step := max(1, size/2)
		shape, strides := clone(bs), clone(bt)
		shape[r-1], strides[r-1] = (c-size)/step+1, bt[r-1]*step
		add("windows", "unfold windows", append(shape, size), append(strides, bt[r-1]), bo, false)
	}
	return out
}

func (p playground) Bundle() Bundle {
	if why := p.refusal(); why != "" {
		return refused(why)
	}
	b := p.base()
	data := playData{Title: playTitle(b), Base: *b, Presets: b.presets(),
		Limits: playLimits{Slots: playMaxSlots, Cells: playMaxCells, Dims: playMaxDims, Stride: playMaxStride, Offset: playMaxOffset}}
	start := playClassify(b, b.layout())
	return playOutput.bundle(playText(b, start, data.Presets), playSVG(b, start), playTitle(b),
		"A still picture of "+b.Name+"'s layout: run the cell, or trust the notebook, to edit the layout.", data)
}

// playTitle is the first line of every form.
func playTitle(b *playBase) string {
	if b.Blank {
		return fmt.Sprintf("Stride playground of x = %s (%s) over a storage of %d slots", b.Go, b.DType, b.Storage)
	}
	return fmt.Sprintf("Stride playground of %s (%s, shape %v) over a storage of %d slots", b.Name, b.DType, tensor.Shape(b.Shape), b.Storage)
}

// playLayoutLine writes a layout: shape (3, 4), strides (4, 1), offset 0.
func playLayoutLine(l playLayout) string {
	rules := "PyTorch's rules"
	if l.NumPy {
		rules = "NumPy's rules"
	}
	return fmt.Sprintf("shape %v, strides %v, offset %d, storage of %d slots, %s",
		tensor.Shape(l.Shape), tensor.Strides(l.Strides), l.Offset, l.Storage, rules)
}

// playCellValue returns the value in slot a of a storage of n slots, or
// "" outside it.
func playCellValue(b *playBase, n, a int) string {
	switch {
	case a < 0 || a >= n:
		return ""
	case a < len(b.Values):
		return b.Values[a]
	case b.Blank:
		return strconv.Itoa(a)
	}
	return b.Zero
}

// playText is the text form: the title, x's layout, its grid of
// value@slot, the storage with the slots read, the verdict, the Go line,
// and each preset with its verdict and Go line.
func playText(b *playBase, st playState, presets []playPreset) string {
	l := st.Layout
	lines := []string{
		playTitle(b) + " (the HTML form is interactive: it edits the storage length, the offset, and each dimension's size and stride)",
		playLayoutLine(l),
	}
	lines = append(lines, playGridText(b, st)...)
	var slots, values, reads []string
	for a := range l.Storage {
		mark := ""
		if r := st.Reads[a]; r == 1 {
			mark = "^"
		} else if r > 1 {
			mark = "^×" + strconv.Itoa(r)
		}
		if a == l.Offset {
			mark += " off"
		}
		slots, values, reads = append(slots, strconv.Itoa(a)), append(values, playCellValue(b, l.Storage, a)), append(reads, mark)
	}
	lines = append(lines, "storage:")
	for lo := 0; lo < len(slots); lo += 16 {
		hi := min(lo+16, len(slots))
		lines = append(lines, columns([]string{"slot", "value", "read"}, slots[lo:hi], values[lo:hi], reads[lo:hi]))
	}
	lines = append(lines, st.Headline+". "+st.Sentence)
	if st.Detail != "" {
		lines = append(lines, st.Detail)
	}
	lines = append(lines, "scan: "+st.Summary, "Go: "+st.Go, "presets:")
	for _, p := range presets {
		ps := playClassify(b, p.Layout)
		verdict := ps.Headline
		if ps.Python != "" {
			verdict += ": " + ps.Python
		}
		lines = append(lines, fmt.Sprintf("  %s: %s → %s → Go: %s", p.Name, playLayoutLine(p.Layout), verdict, ps.Go))
	}
	return strings.Join(lines, "\n")
}

// playPanels splits a layout's positions into 2-D panels: for each index
// of the leading dimensions, the rows and columns of the last two (one
// row for a 1-D layout). It returns each panel's leading index and the
// position number of its first cell.
func playPanels(shape []int) (leads [][]int, rows, cols int) {
	r := len(shape)
	rows, cols = 1, shape[r-1]
	if r >= 2 {
		rows = shape[r-2]
	}
	lead := shape[:max(r-2, 0)]
	for k := range playNumel(lead) {
		leads = append(leads, playPositionOf(lead, k))
	}
	return leads, rows, cols
}

// playPanelTitle names a panel: [0, :, :].
func playPanelTitle(lead []int, r int) string {
	parts := make([]string, 0, r)
	for _, i := range lead {
		parts = append(parts, strconv.Itoa(i))
	}
	for len(parts) < r {
		parts = append(parts, ":")
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// playCellText is a grid cell: value@slot, or ?@slot outside the storage.
func playCellText(b *playBase, st playState, k int) string {
	a := st.Addresses[k]
	v := playCellValue(b, st.Layout.Storage, a)
	if v == "" {
		v = "?"
	}
	return v + "@" + strconv.Itoa(a)
}

// playGridText lays out the grid of value@slot: a table per panel, each
// table one string of lines under its title.
func playGridText(b *playBase, st playState) []string {
	shape := st.Layout.Shape
	leads, rows, cols := playPanels(shape)
	var lines []string
	for n, lead := range leads {
		if len(shape) > 2 {
			lines = append(lines, playPanelTitle(lead, len(shape)))
		}
		table := make([][]string, rows+1)
		labels := make([]string, rows+1)
		for j := range cols {
			table[0] = append(table[0], indexName(len(shape)-1, len(shape))+"="+strconv.Itoa(j))
		}
		for i := range rows {
			if len(shape) >= 2 {
				labels[i+1] = indexName(len(shape)-2, len(shape)) + "=" + strconv.Itoa(i)
			}
			for j := range cols {
				table[i+1] = append(table[i+1], playCellText(b, st, (n*rows+i)*cols+j))
			}
		}
		lines = append(lines, columns(labels, table...))
	}
	return lines
}

// playWrap breaks text into lines of at most n characters, at spaces.
func playWrap(text string, n int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len([]rune(line))+1+len([]rune(w)) > n {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return append(lines, line)
}

// playSVG draws the still picture of a state: the title, the layout, the
// grid of value@slot, the storage with the slots read tinted and counted,
// the verdict and the Go line.
func playSVG(b *playBase, st playState) *svgDoc {
	svg := &svgDoc{}
	l := st.Layout
	y := lineH - 4.0
	svg.text(0, y, "start", ink, playTitle(b)+" (the HTML form is interactive)")
	y += lineH
	svg.text(0, y, "start", faint, playLayoutLine(l))
	y += gap

	shape := l.Shape
	leads, rows, cols := playPanels(shape)
	w := cellW * 1.5
	for _, a := range st.Addresses {
		// The value ends 3 px left of the middle and the slot starts 3 px
		// right of it.
		v := max(textWidth(playCellValue(b, l.Storage, a)), textWidth("?"))
		w = max(w, 2*(max(v, textWidth("@"+strconv.Itoa(a)))+3+1.5))
	}
	labelW := 36.0
	panelW := labelW + float64(cols)*w
	perRow := max(1, int(760/(panelW+2*gap)))
	top := y
	for n, lead := range leads {
		x0 := float64(n%perRow) * (panelW + 2*gap)
		py := top + float64(n/perRow)*(float64(rows+1)*cellH+2*lineH)
		if len(shape) > 2 {
			svg.text(x0, py+lineH-4, "start", ink, playPanelTitle(lead, len(shape)))
			py += lineH
		}
		for j := range cols {
			svg.text(x0+labelW+float64(j)*w+w/2, py+lineH-4, "middle", faint, indexName(len(shape)-1, len(shape))+"="+strconv.Itoa(j))
		}
		py += lineH
		for i := range rows {
			cy := py + float64(i)*cellH
			if len(shape) >= 2 {
				svg.text(x0+labelW-4, cy+cellH/2+4, "end", faint, indexName(len(shape)-2, len(shape))+"="+strconv.Itoa(i))
			}
			for j := range cols {
				k := (n*rows+i)*cols + j
				cx := x0 + labelW + float64(j)*w
				svg.rect(cx, cy, w, cellH, "", lineColor, 1)
				a := st.Addresses[k]
				v := playCellValue(b, l.Storage, a)
				color := highlight
				if v == "" {
					v, color = "?", "#dc2626"
				}
				svg.text(cx+w/2-3, cy+cellH/2+4, "end", ink, v)
				svg.text(cx+w/2+3, cy+cellH/2+4, "start", color, "@"+strconv.Itoa(a))
			}
		}
	}
	y = svg.height + gap + lineH

	svg.text(0, y-4, "start", ink, fmt.Sprintf("storage: %d slots; the tinted ones are read (×n: by n positions); ▲ marks the offset", l.Storage))
	y += lineH
	const perLine = 16
	for lo := 0; lo < l.Storage; lo += perLine {
		for a := lo; a < min(lo+perLine, l.Storage); a++ {
			x0 := float64(a-lo) * cellW
			svg.text(x0+cellW/2, y-4, "middle", faint, strconv.Itoa(a))
			fill, opacity := "", 1.0
			if st.Reads[a] > 0 {
				fill, opacity = highlight, 0.25
			}
			svg.rect(x0, y, cellW, cellH, fill, lineColor, opacity)
			svg.text(x0+cellW/2, y+cellH/2+4, "middle", ink, fit(playCellValue(b, l.Storage, a), 6))
			mark := ""
			if st.Reads[a] > 1 {
				mark = "×" + strconv.Itoa(st.Reads[a])
			}
			if a == l.Offset {
				mark = strings.TrimSpace("▲ " + mark)
			}
			if mark != "" {
				svg.text(x0+cellW/2, y+cellH+lineH-4, "middle", highlight, mark)
			}
		}
		y += cellH + 2*lineH
	}

	for i, line := range playWrap(st.Headline+". "+st.Sentence, 110) {
		color := ink
		if i == 0 {
			color = playKindColor(st.Kind)
		}
		svg.text(0, y, "start", color, line)
		y += lineH
	}
	if st.Detail != "" {
		for _, line := range playWrap(st.Detail, 110) {
			svg.text(0, y, "start", faint, line)
			y += lineH
		}
	}
	svg.text(0, y, "start", ink, "Go: "+st.Go)
	return svg
}

// playKindColor is the colour a kind of layout is announced in.
func playKindColor(kind string) string {
	switch kind {
	case kindContiguous:
		return "#16a34a"
	case kindView:
		return highlight
	case kindStrided:
		return "#0891b2"
	case kindOverlapping:
		return "#7c3aed"
	}
	return "#dc2626"
}

// playCSS styles one playground after interactiveCSS; #ROOT stands for
// its element's id.
const playCSS = `
#ROOT button, #ROOT input { font: inherit; margin: 0; }
#ROOT button { cursor: pointer; border: 1px solid #cbd5e1; background: #f8fafc; color: #1f2937; border-radius: 4px; padding: 2px 8px; }
#ROOT button:disabled { cursor: default; color: #9ca3af; }
#ROOT button[aria-pressed="true"] { background: #2563eb; border-color: #2563eb; color: #ffffff; }
#ROOT .tp-title { font-weight: bold; margin-bottom: 6px; }
#ROOT .tp-bar { display: flex; flex-wrap: wrap; align-items: center; gap: 4px; margin-bottom: 6px; }
#ROOT .tp-label { color: #4b5563; margin-right: 2px; }
#ROOT .tp-controls { display: flex; flex-wrap: wrap; gap: 8px 28px; align-items: flex-start; margin: 6px 0 8px; }
#ROOT .tp-field { display: inline-flex; align-items: center; gap: 4px; margin-right: 12px; }
#ROOT input[type=number] { width: 4.5em; padding: 1px 3px; border: 1px solid #cbd5e1; border-radius: 3px; background: #ffffff; color: #1f2937; }
#ROOT .tp-dims { border-collapse: collapse; font-size: inherit; color: inherit; margin: 0; }
#ROOT .tp-dims tr { background: none; }
#ROOT .tp-dims th { color: #6b7280; font-weight: normal; padding: 0 6px; text-align: left; border: 0; }
#ROOT .tp-dims td { padding: 1px 6px; border: 0; text-align: left; }
#ROOT .tp-formula { color: #2563eb; }
#ROOT .tp-verdict { margin: 6px 0 2px; max-width: 64em; }
#ROOT .tp-badge { display: inline-block; border-radius: 3px; padding: 0 6px; margin-right: 6px; color: #ffffff; font-weight: bold; }
#ROOT .tp-kind-contiguous { background: #16a34a; }
#ROOT .tp-kind-view { background: #2563eb; }
#ROOT .tp-kind-strided { background: #0891b2; }
#ROOT .tp-kind-overlapping { background: #7c3aed; }
#ROOT .tp-kind-out-of-bounds, #ROOT .tp-kind-negative { background: #dc2626; }
#ROOT .tp-detail { color: #4b5563; max-width: 64em; }
#ROOT .tp-goline { display: flex; align-items: center; gap: 6px; margin: 6px 0 10px; }
#ROOT .tp-go { background: #f1f5f9; border: 1px solid #e2e8f0; border-radius: 3px; padding: 2px 6px; white-space: pre; user-select: all; }
#ROOT .tp-body { display: flex; flex-wrap: wrap; gap: 12px 32px; align-items: flex-start; }
#ROOT .tp-panels { display: flex; flex-wrap: wrap; gap: 8px 16px; max-width: 720px; }
#ROOT .tp-panel-title { color: #4b5563; }
#ROOT .tp-grid { border-collapse: collapse; margin: 0; font-size: inherit; color: inherit; table-layout: auto; }
#ROOT .tp-grid tr { background: none; }
#ROOT .tp-grid th { color: #9ca3af; font-weight: normal; padding: 0 4px; text-align: center; border: 0; }
#ROOT .tp-grid td { padding: 0; border: 1px solid #cbd5e1; text-align: center; }
#ROOT .tp-cell { display: block; min-width: 52px; height: 30px; padding: 0 4px; border: 0; border-radius: 0; background: #ffffff; }
#ROOT .tp-cell .tp-at { color: #2563eb; }
#ROOT .tp-cell.tp-out { background: #fee2e2; }
#ROOT .tp-cell.tp-out .tp-at { color: #dc2626; }
#ROOT .tp-cell.tp-same { background: #dbeafe; }
#ROOT .tp-cell.tp-on { background: #2563eb; color: #ffffff; }
#ROOT .tp-cell.tp-on .tp-at { color: #ffffff; }
#ROOT .tp-slots { display: flex; flex-wrap: wrap; width: 624px; padding: 1px 0 0 1px; }
#ROOT .tp-slot { position: relative; width: 39px; height: 48px; padding: 15px 2px 0; box-sizing: border-box;
  margin: -1px 0 0 -1px; border: 1px solid #cbd5e1; background: #ffffff; text-align: center; overflow: hidden; white-space: nowrap; }
#ROOT .tp-addr { position: absolute; top: 1px; left: 0; right: 0; font-size: 10px; color: #9ca3af; }
#ROOT .tp-count { position: absolute; bottom: 1px; left: 0; right: 0; font-size: 10px; line-height: 1; color: #2563eb; font-weight: bold; }
#ROOT .tp-slot.tp-read { background: #dbeafe; }
#ROOT .tp-slot.tp-shared { background: #ede9fe; }
#ROOT .tp-slot.tp-shared .tp-count { color: #7c3aed; }
#ROOT .tp-slot.tp-offset { box-shadow: inset 0 -3px 0 #2563eb; }
#ROOT .tp-slot.tp-on { background: #2563eb; color: #ffffff; }
#ROOT .tp-slot.tp-on .tp-addr, #ROOT .tp-slot.tp-on .tp-count { color: #ffffff; }
#ROOT .tp-read-line { margin-top: 8px; min-height: 1.4em; }
#ROOT .tp-scanbar { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; margin-top: 8px; color: #4b5563; }
#ROOT .tp-trail { display: flex; flex-wrap: wrap; align-items: center; gap: 2px; margin-top: 6px; max-width: 720px; }
#ROOT .tp-chip { border-radius: 3px; padding: 0 5px; color: #ffffff; }
#ROOT .tp-step-start { background: #6b7280; }
#ROOT .tp-step-step { background: #16a34a; }
#ROOT .tp-step-jump { background: #d97706; }
#ROOT .tp-step-repeat { background: #7c3aed; }
#ROOT .tp-step-out { background: #dc2626; }
#ROOT .tp-delta { font-size: 10px; color: #9ca3af; }
#ROOT .tp-summary { margin-top: 6px; font-weight: bold; }
`
