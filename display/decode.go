package display

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/tensornb/tensornb/tensor"
)

// DecodeFlow draws how each contract decodes its packed axis, as a
// flowchart (Mermaid source, and SVG and PNG drawn in Go) with one box per
// contract: the packed axis with the formula of a position, the unflatten
// into the contract's axes, and a select of each part along the role
// axis. Every step is a view, drawn as the dotted arrow Lineage uses for
// views. Two contracts side by side show two stories for the same axis.
//
//	display.Show(display.DecodeFlow(tensor.InterleavedByHead(2, 3), tensor.BlockedByRole(2, 3)))
func DecodeFlow(contracts ...tensor.Contract) Renderer { return decodeFlow(contracts) }

type decodeFlow []tensor.Contract

// A decodeStep is one arrow of the flow: from the packed axis to the
// split, or from the split to a part.
type decodeStep struct {
	op     string // "unflatten", "select r = 0"
	result string // "Q", or "" for the split
	axes   []string
	sizes  []int
}

// steps lists c's decode, the split first.
func steps(c tensor.Contract) []decodeStep {
	out := []decodeStep{{op: "unflatten", axes: c.Axes, sizes: c.Sizes}}
	r := slices.Index(c.Axes, c.Role)
	if r < 0 {
		return out
	}
	axes := slices.Delete(slices.Clone(c.Axes), r, r+1)
	sizes := slices.Delete(slices.Clone(c.Sizes), r, r+1)
	for v, name := range c.Parts {
		out = append(out, decodeStep{op: fmt.Sprintf("select %s = %d", c.Role, v), result: name, axes: axes, sizes: sizes})
	}
	return out
}

// positionFormula writes the flat position as the contract's axes times
// their strides: "6·h + 3·r + d".
func positionFormula(c tensor.Contract) string {
	terms := make([]string, len(c.Axes))
	stride := 1
	for a := len(c.Axes) - 1; a >= 0; a-- {
		terms[a] = c.Axes[a]
		if stride != 1 {
			terms[a] = strconv.Itoa(stride) + "·" + c.Axes[a]
		}
		stride *= c.Sizes[a]
	}
	return "position = " + strings.Join(terms, " + ")
}

// dims writes axes and their sizes after the dimensions a decode keeps:
// "(…, h, d) = (…, 2, 3)".
func dims(axes []string, sizes []int) string {
	values := make([]string, len(sizes))
	for i, v := range sizes {
		values[i] = strconv.Itoa(v)
	}
	return "(…, " + strings.Join(axes, ", ") + ") = (…, " + strings.Join(values, ", ") + ")"
}

// Bundle draws the flow; a contract that is not whole (see
// tensor.Contract.Validate) is refused with its error.
func (f decodeFlow) Bundle() Bundle {
	for _, c := range f {
		if err := c.Validate(); err != nil {
			panic(err)
		}
	}
	var src, text strings.Builder
	src.WriteString("flowchart LR\n")
	w := tabwriter.NewWriter(&text, 0, 0, 2, ' ', 0)
	for k, c := range f {
		if k > 0 {
			fmt.Fprintln(w)
		}
		id := "c" + strconv.Itoa(k+1)
		fmt.Fprintf(&src, "  subgraph %s[\"%s\"]\n    direction LR\n", id, mermaidText(nameText(c.String())))
		fmt.Fprintf(&src, "    %s_packed[\"%s<br>%s\"]\n", id, mermaidText(fmt.Sprintf("packed axis of %d", c.Len())), mermaidText(positionFormula(c)))
		fmt.Fprintf(w, "%s: %d positions, %s\n", nameText(c.String()), c.Len(), positionFormula(c))
		for s, step := range steps(c) {
			node, label := fmt.Sprintf("%s_%d", id, s), nameText(step.result)
			if label == "" {
				label = "split"
			}
			fmt.Fprintf(&src, "    %s[\"%s<br>%s\"]\n", node, mermaidText(label), mermaidText(dims(step.axes, step.sizes)))
			fmt.Fprintf(w, "  %s\t%s\t%s\tview\n", label, step.op, dims(step.axes, step.sizes))
		}
		src.WriteString("  end\n")
		for s, step := range steps(c) {
			from := id + "_packed"
			if s > 0 {
				from = id + "_0"
			}
			fmt.Fprintf(&src, "  %s -.->|\"%s\"| %s_%d\n", from, mermaidText(step.op+" · view"), id, s)
		}
	}
	w.Flush()
	if len(f) == 0 {
		src.WriteString("  empty[\"no contracts to draw\"]\n")
		text.WriteString("no contracts to draw\n")
	}
	return flowBundle(text.String(), src.String(), f.graph())
}

// graph returns the flow as boxes and arrows, with the lines and labels
// of the Mermaid form: a group per contract holding its packed axis, its
// split and its parts, an arrow from the packed axis to the split and
// from the split to each part.
func (f decodeFlow) graph() flowGraph {
	g := flowGraph{empty: "no contracts to draw"}
	for k, c := range f {
		g.groups = append(g.groups, nameText(c.String()))
		packed := len(g.nodes)
		g.nodes = append(g.nodes, flowNode{group: k, lines: []string{fmt.Sprintf("packed axis of %d", c.Len()), positionFormula(c)}})
		for s, step := range steps(c) {
			label := nameText(step.result)
			if label == "" {
				label = "split"
			}
			from := packed
			if s > 0 {
				from = packed + 1
			}
			g.edges = append(g.edges, flowEdge{from: from, to: len(g.nodes), label: step.op + " · view", view: true})
			g.nodes = append(g.nodes, flowNode{group: k, lines: []string{label, dims(step.axes, step.sizes)}})
		}
	}
	return g
}
