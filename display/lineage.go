package display

import (
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/tensornb/tensornb/tensor"
)

// A Lineage records how tensors were derived from one another and draws
// it as a flowchart: a box per tensor with its shape, strides and offset,
// inside a box per storage (S1, S2, … in order of appearance), and an
// arrow from each parent labelled with the operation and whether the
// result is a view of the parent (same storage, dotted arrow) or a copy (a
// storage of its own, thick arrow). The tensors themselves decide view or
// copy, through SharesStorage, whatever the operation's name. The
// flowchart comes as Mermaid source and as SVG drawn in Go, which shows at
// most 40 tensors and 80 arrows and says what it left out.
//
//	l := display.NewLineage()
//	x := l.Add("x", tensor.Float32.Arange(24).View(2, 3, 4))
//	y := l.Derive("y", x.Transpose(1, 2), "transpose(1, 2)", "x")
//	l.Derive("z", y.Reshape(-1), "reshape(-1)", "y")
//	display.Show(l)
//
// Names and operations are shown with control characters made visible
// (␀, ␛) and cut to 80 characters. Mistakes in recording do not panic: a nil tensor or a name recorded
// before leaves that call out, and a parent name never recorded leaves
// out that arrow. Each mistake is listed under the picture, in every form.
// The zero Lineage is empty and ready to use.
type Lineage struct {
	nodes    []lineageNode
	problems []string
}

// A lineageNode is one recorded tensor.
type lineageNode struct {
	name    string
	x       *tensor.Tensor
	op      string
	parents []string // as given to Derive
	from    []int    // the indices of the parents that were recorded
}

// NewLineage returns an empty Lineage.
func NewLineage() *Lineage { return &Lineage{} }

// Add records x under name as a starting tensor, one derived from no
// other, and returns x.
func (l *Lineage) Add(name string, x *tensor.Tensor) *tensor.Tensor {
	return l.Derive(name, x, "")
}

// Derive records x under name as made by op (the operation as it should
// read, such as "transpose(1, 2)") from the tensors recorded under the
// parent names, and returns x, so that a step can be recorded where it is
// computed. With no parents, x is a starting tensor that op made, such as
// "arange(24)".
func (l *Lineage) Derive(name string, x *tensor.Tensor, op string, parents ...string) *tensor.Tensor {
	if x == nil {
		l.problems = append(l.problems, fmt.Sprintf("%q has no tensor (nil) and is left out", nameText(name)))
		return x
	}
	if l.find(name) >= 0 {
		l.problems = append(l.problems, fmt.Sprintf("%q was recorded before; the second tensor of that name is left out", nameText(name)))
		return x
	}
	n := lineageNode{name: name, x: x, op: op, parents: slices.Clone(parents)}
	for _, p := range parents {
		if i := l.find(p); i >= 0 {
			n.from = append(n.from, i)
		} else {
			l.problems = append(l.problems, fmt.Sprintf("%q, a parent of %q, was never recorded", nameText(p), nameText(name)))
		}
	}
	l.nodes = append(l.nodes, n)
	return x
}

// find returns the index of the tensor recorded under name, or -1.
func (l *Lineage) find(name string) int {
	for i, n := range l.nodes {
		if n.name == name {
			return i
		}
	}
	return -1
}

// storages returns the storages of the recorded tensors in order of
// appearance, and the name of each: S1, S2, ….
func (l *Lineage) storages() ([]*tensor.Storage, map[*tensor.Storage]string) {
	var list []*tensor.Storage
	names := map[*tensor.Storage]string{}
	for _, n := range l.nodes {
		s := n.x.Storage()
		if _, ok := names[s]; !ok {
			list = append(list, s)
			names[s] = fmt.Sprintf("S%d", len(list))
		}
	}
	return list, names
}

// isView reports whether n shares its storage with one of its recorded
// parents.
func (l *Lineage) isView(n lineageNode) bool {
	for _, p := range n.from {
		if n.x.SharesStorage(l.nodes[p].x) {
			return true
		}
	}
	return false
}

// derivation writes how n was made: "transpose(1, 2)(x)", "add(x, y)",
// "arange(24)", or "" for a tensor added as it is.
func (n lineageNode) derivation() string {
	if len(n.parents) == 0 {
		return nameText(n.op)
	}
	parents := make([]string, len(n.parents))
	for i, p := range n.parents {
		parents[i] = nameText(p)
	}
	return nameText(n.op) + "(" + strings.Join(parents, ", ") + ")"
}

// lineageLayout writes x's shape and strides, (2, 4, 3):(12, 1, 4), and
// its storage offset if it is not 0.
func lineageLayout(x *tensor.Tensor) string {
	s := x.Shape().String() + ":" + x.Strides().String()
	if x.StorageOffset() != 0 {
		s += fmt.Sprintf(" offset %d", x.StorageOffset())
	}
	return s
}

// storageTitle describes a storage: "storage S1: 24 × float32 (96 bytes)".
func storageTitle(name string, s *tensor.Storage) string {
	return fmt.Sprintf("storage %s: %d × %s (%d bytes)", name, s.Len(), s.DType(), s.NBytes())
}

// Bundle returns the lineage as a Mermaid flowchart (text/vnd.mermaid),
// as the same flowchart drawn in Go (image/svg+xml), as HTML that draws
// the Mermaid source where the page has Mermaid JS and shows the SVG
// otherwise, and as a list of the tensors with their storages
// (text/plain).
func (l *Lineage) Bundle() Bundle {
	return flowBundle(l.text(), l.mermaid(), l.graph())
}

// graph returns the lineage as boxes and arrows: a group per storage, a
// box per tensor with the lines the Mermaid form gives it, and an arrow
// from each recorded parent; the problems are its notes.
func (l *Lineage) graph() flowGraph {
	list, names := l.storages()
	g := flowGraph{empty: "no tensors recorded"}
	group := map[*tensor.Storage]int{}
	for k, s := range list {
		group[s] = k
		g.groups = append(g.groups, storageTitle(names[s], s))
	}
	for i, n := range l.nodes {
		g.nodes = append(g.nodes, flowNode{group: group[n.x.Storage()], lines: []string{n.title(), lineageLayout(n.x)}})
		for _, p := range n.from {
			view := n.x.SharesStorage(l.nodes[p].x)
			g.edges = append(g.edges, flowEdge{from: p, to: i, label: n.arrowLabel(view), view: view})
		}
	}
	if len(l.problems) > 0 {
		g.notes = append([]string{"problems:"}, l.problems...)
	}
	return g
}

// title is the first line of n's box: its name, and how it was made if
// no arrow leads to it.
func (n lineageNode) title() string {
	title := nameText(n.name)
	if len(n.from) == 0 && n.op != "" {
		title += " = " + n.derivation()
	}
	return title
}

// arrowLabel is the label of an arrow into n: "transpose(1, 2) · view".
func (n lineageNode) arrowLabel(view bool) string {
	kind := "copy"
	if view {
		kind = "view"
	}
	if n.op == "" {
		return kind
	}
	return nameText(n.op) + " · " + kind
}

// text lists the tensors, one a line, in the order they were recorded,
// then the storages with the tensors over each, then the problems:
//
//	x                       in S1       (2, 3, 4):(12, 4, 1)
//	y = transpose(1, 2)(x)  view of S1  (2, 4, 3):(12, 1, 4)
func (l *Lineage) text() string {
	var b strings.Builder
	if len(l.nodes) == 0 {
		b.WriteString("no tensors recorded\n")
	}
	list, names := l.storages()
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, n := range l.nodes {
		what := nameText(n.name)
		if d := n.derivation(); d != "" {
			what += " = " + d
		}
		where := "in "
		switch {
		case l.isView(n):
			where = "view of "
		case len(n.from) > 0:
			where = "copy in "
		}
		fmt.Fprintf(w, "%s\t%s\t%s\n", what, where+names[n.x.Storage()], lineageLayout(n.x))
	}
	w.Flush()
	if len(list) > 0 {
		b.WriteString("\n")
	}
	for _, s := range list {
		var over []string
		for _, n := range l.nodes {
			if n.x.Storage() == s {
				over = append(over, nameText(n.name))
			}
		}
		fmt.Fprintf(&b, "%s behind %s\n", storageTitle(names[s], s), strings.Join(over, ", "))
	}
	if len(l.problems) > 0 {
		b.WriteString("\nproblems:\n")
		for _, p := range l.problems {
			b.WriteString("  " + p + "\n")
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// mermaid writes the flowchart: a subgraph per storage holding its
// tensors' nodes (n1, n2, … in the order recorded), left to right like the
// whole chart even when no arrow leaves the subgraph, or a node saying
// there are none, then the arrows, then a node listing the problems, if
// any. A node with no arrow into it names the operation that made it.
func (l *Lineage) mermaid() string {
	list, names := l.storages()
	var b strings.Builder
	b.WriteString("flowchart LR\n")
	if len(l.nodes) == 0 {
		b.WriteString("  empty[\"no tensors recorded\"]\n")
	}
	for _, s := range list {
		fmt.Fprintf(&b, "  subgraph %s[\"%s\"]\n    direction LR\n", names[s], mermaidText(storageTitle(names[s], s)))
		for i, n := range l.nodes {
			if n.x.Storage() != s {
				continue
			}
			fmt.Fprintf(&b, "    n%d[\"%s<br>%s\"]\n", i+1, mermaidText(n.title()), mermaidText(lineageLayout(n.x)))
		}
		b.WriteString("  end\n")
	}
	for i, n := range l.nodes {
		for _, p := range n.from {
			view, arrow := n.x.SharesStorage(l.nodes[p].x), "==>"
			if view {
				arrow = "-.->"
			}
			fmt.Fprintf(&b, "  n%d %s|\"%s\"| n%d\n", p+1, arrow, mermaidText(n.arrowLabel(view)), i+1)
		}
	}
	if len(l.problems) > 0 {
		lines := []string{"problems"}
		for _, p := range l.problems {
			lines = append(lines, mermaidText(p))
		}
		fmt.Fprintf(&b, "  problems[\"%s\"]:::problem\n", strings.Join(lines, "<br>"))
		b.WriteString("  classDef problem fill:#fef2f2,stroke:#b91c1c,color:#b91c1c\n")
	}
	return b.String()
}
