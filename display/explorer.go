package display

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"

	"github.com/tensornb/tensornb/tensor"
)

// Explorer draws an interactive explorer of the address formula over the
// matrix a. It offers five layouts of a's storage: a itself, its
// transpose a.T, the stepped slice a[:, 1::2], row 0 expanded to every row
// with stride 0, and the contiguous copy a.T.contiguous() in a new buffer
// drawn beside a's. Clicking a cell of the grid highlights the storage
// slot it reads and works the formula out, offset + i·s₀ + j·s₁ = address;
// Scan walks the cells in logical order and shows whether the addresses
// step by one, jump or repeat.
//
// Every layout's shape, strides, offset, values and addresses are worked
// out here with package tensor; the HTML form's script only responds to
// clicks. The HTML needs no network and explorers on one page are
// independent. Until the script runs (a notebook runs it only in an output
// it trusts: one the cell just made, or in a trusted notebook), the HTML
// shows the first layout as a still picture, with a line saying how to
// make it live. The text form lists each layout's grid of value@slot, and
// the SVG form draws the first layout.
//
// a must be 2-D, or Bundle panics with a *tensor.Error. A matrix outside 2
// to 16 rows and columns, or over a storage of more than 256 slots, is not
// explored: the bundle says so instead.
func Explorer(a *tensor.Tensor) Renderer { return explorer{a: a} }

type explorer struct {
	a    *tensor.Tensor
	name string // what the explorer calls a; "" for a
}

// called returns what the explorer calls the matrix in its title, its
// expressions and its sentences: its name, or a.
func (e explorer) called() string {
	if e.name == "" {
		return "a"
	}
	return nameText(e.name)
}

// The explorer's bounds: rows and columns, and slots of a's storage.
const (
	explorerMinSize  = 2
	explorerMaxSize  = 16
	explorerMaxSlots = 256
)

// explorerJS drives an explorer in the page: a function expression that
// interactiveJS calls with the explorer's element and its data.
//
//go:embed explorer.js
var explorerJS string

// explorerData is what the script receives.
type explorerData struct {
	Buffers []explorerBuffer `json:"buffers"`
	Modes   []explorerMode   `json:"modes"`
}

// An explorerBuffer is a storage the layouts read: A is a's, B the copy's.
type explorerBuffer struct {
	Name   string   `json:"name"`
	Title  string   `json:"title"`
	Values []string `json:"values"`
}

// An explorerMode is one layout over a buffer.
type explorerMode struct {
	Key        string         `json:"key"`  // names the mode's button for scripts and tests
	Name       string         `json:"name"` // the button's label
	Expr       string         `json:"expr"` // how the tensor is made from the matrix: a.T
	Note       string         `json:"note"`
	Layout     string         `json:"layout"` // (4,3):(1,4)
	Shape      []int          `json:"shape"`
	Strides    []int          `json:"strides"`
	Offset     int            `json:"offset"`
	Contiguous bool           `json:"contiguous"`
	Buffer     string         `json:"buffer"`           // the buffer read
	Source     string         `json:"source,omitempty"` // the buffer the values were copied from
	From       []int          `json:"from,omitempty"`   // for each cell, its slot in Source
	Cells      []explorerCell `json:"cells"`            // in logical order, the order of a scan
	Reads      []int          `json:"reads"`            // how often the cells read each slot of Buffer
	Scan       string         `json:"scan"`             // "steps", "jumps" or "repeats"
	Summary    string         `json:"summary"`          // the scan's verdict in words

	x, copiedFrom *tensor.Tensor // the tensor drawn, and for a copy the view its values came from
	fromExpr      string         // for a copy, the view's expression
}

// An explorerCell is one logical position and the slot it reads.
type explorerCell struct {
	Index []int  `json:"index"`
	Value string `json:"value"`
	Slot  int    `json:"slot"`
	Step  string `json:"step"`  // how a scan reaches it: "start", "step", "jump" or "repeat"
	Delta string `json:"delta"` // its slot minus the previous cell's: "+4"; "" for the first
}

// explorerOutput is the explorer's HTML form: its element, style and
// script.
var explorerOutput = &interactive{class: "tnb-explorer", prefix: "tx", css: explorerCSS, script: explorerJS}

func (e explorer) Bundle() Bundle {
	a := e.a
	if a.Dim() != 2 {
		panic(&tensor.Error{Op: "explorer", Class: tensor.ValueError,
			Message: fmt.Sprintf("explorer expects a matrix (a 2-D tensor), got a tensor of shape %v", a.Shape())})
	}
	if why := e.refusal(); why != "" {
		return refused(why)
	}
	data := e.data()
	text := make([]string, len(data.Modes))
	for i, m := range data.Modes {
		text[i] = m.text(data.Buffers)
	}
	intro := fmt.Sprintf("Explorer of %s, a %d×%d %s matrix over storage A:\n%s",
		e.called(), a.Size(0), a.Size(1), a.DType(), bufferText(data.Buffers[0]))
	return explorerOutput.bundle(intro+"\n\n"+strings.Join(text, "\n\n"), e.svg(),
		"Explorer of "+e.called()+", "+cute(a), e.stillNote(), data)
}

// refusal explains why a is not explored, or returns "".
func (e explorer) refusal() string {
	a, called := e.a, e.called()
	if min(a.Size(0), a.Size(1)) < explorerMinSize || max(a.Size(0), a.Size(1)) > explorerMaxSize {
		return fmt.Sprintf("The explorer draws matrices of %d to %d rows and columns, and %s has shape %v; a larger matrix can be explored through a slice, such as %s.Index(\":8, :8\").",
			explorerMinSize, explorerMaxSize, called, a.Shape(), called)
	}
	if n := a.Storage().Len(); n > explorerMaxSlots {
		return fmt.Sprintf("The explorer draws storages of at most %d slots, and %s is a view into one of %d; explore %s.Contiguous(), a copy of %s in a storage of its own.",
			explorerMaxSlots, called, n, called, called)
	}
	return ""
}

// data works out every layout the explorer offers.
func (e explorer) data() explorerData {
	a, called := e.a, e.called()
	rows, cols := a.Size(0), a.Size(1)
	buffers := []explorerBuffer{storageBuffer("A", fmt.Sprintf("A: the storage of %s, %d slots", called, a.Storage().Len()), a.Storage())}

	first := "contiguous"
	note := fmt.Sprintf("The matrix as stored: a step right moves %d slot and a step down moves %d, so the rows lie end to end in A.", a.Stride(1), a.Stride(0))
	if !a.IsContiguous() {
		first = "as given"
		note = fmt.Sprintf("The matrix as given: a step right moves %d slots and a step down moves %d; %s is not contiguous, so its rows do not lie end to end in A.", a.Stride(1), a.Stride(0), called)
	}
	tExpr := called + ".T"
	t := a.T()
	slice := a.Slice(1, 1, tensor.End, 2)
	expanded := a.Select(0, 0).Expand(rows, cols)
	modes := []explorerMode{
		newMode("base", first, called, note, a, "A"),
		newMode("transpose", "transpose", tExpr, fmt.Sprintf(
			"The same storage with the strides swapped: a step right now moves %d and a step down %d. Nothing was copied.",
			t.Stride(1), t.Stride(0)), t, "A"),
		newMode("slice", "stepped slice", called+"[:, 1::2]", fmt.Sprintf(
			"Every second column from column 1: the view starts at slot %d of A (its storage offset), and a step right moves %d.",
			slice.StorageOffset(), slice.Stride(1)), slice, "A"),
		newMode("expand", "expand", fmt.Sprintf("%s[0].expand(%d, %d)", called, rows, cols), fmt.Sprintf(
			"Row 0 stretched to %d rows with stride 0: a step down moves 0 slots, so every row reads the same %d slots and no row was copied.",
			rows, cols), expanded, "A"),
	}

	c := t.Contiguous()
	if c.SharesStorage(a) {
		modes = append(modes, newMode("copy", "contiguous copy", tExpr+".contiguous()",
			tExpr+" is already contiguous, so contiguous() returns it as it is: no new buffer, no copy.", c, "A"))
		return explorerData{Buffers: buffers, Modes: modes}
	}
	buffers = append(buffers, storageBuffer("B", fmt.Sprintf("B: a new storage of %d slots, made by contiguous()", c.Storage().Len()), c.Storage()))
	m := newMode("copy", "contiguous copy", tExpr+".contiguous()",
		"The transpose copied into a new buffer B in row-major order, so a step right moves 1 slot again. A is untouched: each value in B came from the slot of A that "+tExpr+" reads at the same position.",
		c, "B")
	m.Source, m.copiedFrom, m.fromExpr = "A", t, tExpr
	for _, cell := range m.Cells {
		m.From = append(m.From, t.Address(cell.Index...))
	}
	return explorerData{Buffers: buffers, Modes: append(modes, m)}
}

// storageBuffer lists the values of st.
func storageBuffer(name, title string, st *tensor.Storage) explorerBuffer {
	values := make([]string, st.Len())
	for i := range values {
		values[i] = st.DType().FormatElement(st.At(i))
	}
	return explorerBuffer{Name: name, Title: title, Values: values}
}

// newMode works out the cells of the matrix x, which reads buffer.
func newMode(key, name, expr, note string, x *tensor.Tensor, buffer string) explorerMode {
	m := explorerMode{
		Key: key, Name: name, Expr: expr, Note: note,
		Layout: cute(x), Shape: x.Shape(), Strides: x.Strides(), Offset: x.StorageOffset(),
		Contiguous: x.IsContiguous(), Buffer: buffer,
		Reads: make([]int, x.Storage().Len()),
		x:     x,
	}
	for i := range x.Size(0) {
		for j := range x.Size(1) {
			slot := x.Address(i, j)
			m.Cells = append(m.Cells, explorerCell{Index: []int{i, j}, Value: x.DType().FormatElement(x.At(i, j)), Slot: slot})
			m.Reads[slot]++
		}
	}
	m.Scan, m.Summary = scan(m.Cells)
	return m
}

// scan walks cells in logical order, marks how each read moves from the
// one before (the first starts; a slot read before repeats; the next slot
// steps; any other jumps), and returns the walk's pattern, the most
// telling move it makes, with a sentence saying what it means.
func scan(cells []explorerCell) (pattern, summary string) {
	seen := map[int]bool{}
	var jumps []string
	repeats := 0
	for k := range cells {
		c := &cells[k]
		switch {
		case k == 0:
			c.Step = "start"
		case seen[c.Slot]:
			c.Step = "repeat"
			repeats++
		case c.Slot == cells[k-1].Slot+1:
			c.Step = "step"
		default:
			c.Step = "jump"
		}
		if k > 0 {
			c.Delta = fmt.Sprintf("%+d", c.Slot-cells[k-1].Slot)
		}
		if c.Step == "jump" && !slices.Contains(jumps, c.Delta) {
			jumps = append(jumps, c.Delta)
		}
		seen[c.Slot] = true
	}
	switch {
	case repeats > 0:
		return "repeats", fmt.Sprintf("Repeats: %d of the %d reads go back to a slot already read, so several positions share one element.", repeats, len(cells))
	case len(jumps) > 0:
		return "jumps", fmt.Sprintf("Jumps: the reads skip through storage by %s instead of moving one slot at a time.", strings.Join(jumps, ", "))
	}
	return "steps", "Steps by one: each read is the slot right after the one before, so logical order is storage order."
}

// text describes the mode: its layout, a grid of value@slot and its scan,
// and for a copy the new buffer and where its values came from.
func (m explorerMode) text(buffers []explorerBuffer) string {
	contiguous := "not contiguous"
	if m.Contiguous {
		contiguous = "contiguous"
	}
	lines := []string{
		fmt.Sprintf("%s: %s %s, offset %d, %s, reads %s", m.Name, m.Expr, m.Layout, m.Offset, contiguous, m.Buffer),
		m.Note,
		grid{x: m.x, show: showValues | showSlots}.text(),
		"scan in logical order. " + m.Summary,
	}
	if m.Source != "" {
		for _, b := range buffers {
			if b.Name == m.Buffer {
				lines = append(lines, bufferText(b))
			}
		}
		lines = append(lines, fmt.Sprintf("copied from the %s slots that %s reads:", m.Source, m.fromExpr), grid{x: m.copiedFrom, show: showSlots}.text())
	}
	return strings.Join(lines, "\n")
}

// bufferText lays a buffer out as rows of 16 slots under its title.
func bufferText(b explorerBuffer) string {
	lines := []string{b.Title}
	for start := 0; start < len(b.Values); start += 16 {
		end := min(start+16, len(b.Values))
		slots := make([]string, 0, end-start)
		for s := start; s < end; s++ {
			slots = append(slots, fmt.Sprint(s))
		}
		lines = append(lines, columns([]string{"slot", "value"}, slots, b.Values[start:end]))
	}
	return strings.Join(lines, "\n")
}

// stillNote is the line under the still picture an explorer shows until
// its script runs, which a notebook allows only for outputs it trusts.
func (e explorer) stillNote() string {
	return "A still picture: run the cell, or trust the notebook, to make the explorer live and explore " + e.called() + "'s other layouts."
}

// svg draws the explorer's first layout, a as it is: its grid and its
// storage.
func (e explorer) svg() *svgDoc {
	svg := &svgDoc{}
	svg.text(0, lineH-4, "start", ink, "Explorer of "+e.called()+", "+cute(e.a)+" (the HTML form is interactive)")
	grid{x: e.a, show: showValues | showSlots}.draw(svg, 0, lineH+gap)
	s := strip{e.a, e.name}
	s.draw(svg, s.facts(), 0, svg.height+gap, highlight, true)
	return svg
}

// explorerCSS styles one explorer after interactiveCSS; #ROOT stands for
// its element's id.
const explorerCSS = `
#ROOT button { font: inherit; cursor: pointer; margin: 0; }
#ROOT .tx-modes { display: flex; flex-wrap: wrap; gap: 4px; margin-bottom: 8px; }
#ROOT .tx-mode { border: 1px solid #cbd5e1; background: #f8fafc; color: #1f2937; border-radius: 4px; padding: 3px 10px; }
#ROOT .tx-mode[aria-pressed="true"] { background: #2563eb; border-color: #2563eb; color: #ffffff; }
#ROOT .tx-head { font-weight: bold; }
#ROOT .tx-note { color: #4b5563; margin: 2px 0 10px; max-width: 60em; }
#ROOT .tx-body { display: flex; flex-wrap: wrap; gap: 12px 32px; align-items: flex-start; }
#ROOT .tx-grid { border-collapse: collapse; margin: 0; font-size: inherit; color: inherit; table-layout: auto; }
#ROOT .tx-grid tr { background: none; }
#ROOT .tx-grid th { color: #9ca3af; font-weight: normal; padding: 0 6px; text-align: center; border: 0; }
#ROOT .tx-grid td { padding: 0; border: 1px solid #cbd5e1; text-align: center; }
#ROOT .tx-cell { display: block; min-width: 44px; height: 30px; padding: 0 6px; border: 0; border-radius: 0;
  background: #ffffff; color: #1f2937; }
#ROOT .tx-cell:hover { background: #eff6ff; }
#ROOT .tx-cell.tx-same { background: #dbeafe; }
#ROOT .tx-cell.tx-on { background: #2563eb; color: #ffffff; }
#ROOT .tx-buffer { margin-bottom: 8px; }
#ROOT .tx-buffer-title { color: #4b5563; margin-bottom: 2px; }
#ROOT .tx-slots { display: flex; flex-wrap: wrap; max-width: 600px; padding: 1px 0 0 1px; }
#ROOT .tx-slot { position: relative; min-width: 38px; height: 48px; padding: 15px 3px 0; box-sizing: border-box;
  margin: -1px 0 0 -1px; border: 1px solid #cbd5e1; background: #ffffff; text-align: center; }
#ROOT .tx-addr { position: absolute; top: 1px; left: 0; right: 0; font-size: 10px; color: #9ca3af; }
#ROOT .tx-count { position: absolute; bottom: 1px; left: 0; right: 0; font-size: 10px; line-height: 1; color: #2563eb; }
#ROOT .tx-slot.tx-read { background: #dbeafe; }
#ROOT .tx-slot.tx-offset { box-shadow: inset 0 -3px 0 #2563eb; }
#ROOT .tx-slot.tx-on { background: #2563eb; color: #ffffff; }
#ROOT .tx-slot.tx-on .tx-addr, #ROOT .tx-slot.tx-on .tx-count { color: #ffffff; }
#ROOT .tx-slot.tx-from { outline: 2px dashed #dc2626; outline-offset: -4px; }
#ROOT .tx-read-line { margin-top: 10px; }
#ROOT .tx-rule { color: #9ca3af; }
#ROOT .tx-formula { font-weight: bold; color: #2563eb; }
#ROOT .tx-scanbar { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; margin-top: 10px; color: #4b5563; }
#ROOT .tx-scan { border: 1px solid #2563eb; background: #ffffff; color: #2563eb; border-radius: 4px; padding: 3px 14px; margin-right: 6px; }
#ROOT .tx-trail { display: flex; flex-wrap: wrap; align-items: center; gap: 2px; margin-top: 6px; }
#ROOT .tx-chip { border-radius: 3px; padding: 0 6px; color: #ffffff; }
#ROOT .tx-start { background: #6b7280; }
#ROOT .tx-step { background: #16a34a; }
#ROOT .tx-jump { background: #d97706; }
#ROOT .tx-repeat { background: #7c3aed; }
#ROOT .tx-delta { font-size: 10px; color: #9ca3af; }
#ROOT .tx-verdict { margin-top: 6px; font-weight: bold; }
`
