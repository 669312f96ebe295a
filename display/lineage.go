package display

import (
	"fmt"
	"slices"
	"strconv"
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
	index    map[string]int // the index in nodes of each name recorded
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
	if l == nil {
		panic(&tensor.Error{Op: "Lineage.Derive", Class: tensor.ValueError, Message: "the Lineage is nil, so it cannot record " + strconv.Quote(nameText(name)) + ": make one with display.NewLineage()"})
	}
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
	if l.index == nil {
		l.index = map[string]int{}
	}
	l.index[name] = len(l.nodes)
	l.nodes = append(l.nodes, n)
	return x
}

// find returns the index of the tensor recorded under name, or -1.
func (l *Lineage) find(name string) int {
	if i, ok := l.index[name]; ok {
		return i
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

// Bounds of the text form, which lists more than the pictures: at most
// textMaxNodes tensors, whose lines share textMaxBytes bytes, and
// textMaxNotes problems of at most maxName characters each.
const (
	textMaxNodes = 200
	textMaxBytes = 150_000
	textMaxNotes = 100
)

// storageTitle describes a storage: "storage S1: 24 × float32 (96 bytes)".
func storageTitle(name string, s *tensor.Storage) string {
	return fmt.Sprintf("storage %s: %d × %s (%d bytes)", name, s.Len(), s.DType(), s.NBytes())
}

// Bundle returns the lineage as a Mermaid flowchart (text/vnd.mermaid),
// as the same flowchart drawn in Go (image/svg+xml, and image/png unless
// it is too large), and as a list of the tensors with their storages
// (text/plain). The Mermaid form holds what the picture drawn in Go
// holds: the first 40 tensors, 80 arrows and 20 problems. The text form
// lists up to 200 tensors and 100 problems. Each form stays within
// 200 KB: the longer a list, the shorter each of its texts may be.
func (l *Lineage) Bundle() Bundle {
	if l == nil {
		l = &Lineage{} // a nil Lineage has recorded nothing
	}
	return flowBundle(l.text(), l.mermaid(), l.graph())
}

// graph returns the lineage as boxes and arrows: a group per storage, a
// box per tensor with the lines the Mermaid form gives it, and an arrow
// from each recorded parent; the problems are its notes. Only the first
// flowMaxNodes boxes, and the arrows into them, are ever drawn (see
// flowGraph.bounded): the boxes and arrows past them are only counted, so
// they are left without lines or labels, which would cost the most (the
// layout of a 1000-D tensor is some 6000 characters).
func (l *Lineage) graph() flowGraph {
	list, names := l.storages()
	g := flowGraph{empty: "no tensors recorded"}
	group := map[*tensor.Storage]int{}
	for k, s := range list {
		group[s] = k
		g.groups = append(g.groups, storageTitle(names[s], s))
	}
	for i, n := range l.nodes {
		drawn := i < flowMaxNodes
		node := flowNode{group: group[n.x.Storage()]}
		if drawn {
			node.lines = []string{n.title(), lineageLayout(n.x)}
		}
		g.nodes = append(g.nodes, node)
		for _, p := range n.from {
			e := flowEdge{from: p, to: i}
			if drawn {
				e.view = n.x.SharesStorage(l.nodes[p].x)
				e.label = n.arrowLabel(e.view)
			}
			g.edges = append(g.edges, e)
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
	listed := l.nodes[:min(len(l.nodes), textMaxNodes)]
	// Each tensor takes a row and at most a storage's line. A row holds
	// two texts of each characters, of up to 3 bytes, and the padding of
	// the first; a storage line a title and names of each characters.
	each := (textMaxBytes/max(1, len(listed)) - 100) / 10
	list, names := l.storages()
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, n := range listed {
		what := nameText(n.name)
		if d := n.derivation(); d != "" {
			what += " = " + d
		}
		what = fit(what, each)
		where := "in "
		switch {
		case l.isView(n):
			where = "view of "
		case len(n.from) > 0:
			where = "copy in "
		}
		fmt.Fprintf(w, "%s\t%s\t%s\n", what, where+names[n.x.Storage()], fit(lineageLayout(n.x), each))
	}
	w.Flush()
	if left := len(l.nodes) - len(listed); left > 0 {
		fmt.Fprintf(&b, "… and %d more tensors, not listed\n", left)
	}
	if len(list) > 0 {
		b.WriteString("\n")
	}
	for _, s := range list {
		var over []string
		for _, n := range listed {
			if n.x.Storage() == s {
				over = append(over, nameText(n.name))
			}
		}
		if len(over) > 0 {
			fmt.Fprintf(&b, "%s behind %s\n", storageTitle(names[s], s), fit(strings.Join(over, ", "), each))
		}
	}
	if len(l.problems) > 0 {
		b.WriteString("\nproblems:\n")
		for _, p := range l.problems[:min(len(l.problems), textMaxNotes)] {
			b.WriteString("  " + fit(p, maxName) + "\n")
		}
		if left := len(l.problems) - textMaxNotes; left > 0 {
			fmt.Fprintf(&b, "  … and %d more\n", left)
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// mermaid writes the flowchart: a subgraph per storage holding its
// tensors' nodes (n1, n2, … in the order recorded), left to right like the
// whole chart even when no arrow leaves the subgraph, or a node saying
// there are none, then the arrows, then a node listing the problems, if
// any. A node with no arrow into it names the operation that made it. It
// holds what the picture drawn in Go holds (see flowGraph.bounded), and
// says in its problems node what it left out.
func (l *Lineage) mermaid() string {
	g := l.graph().bounded()
	list, names := l.storages()
	var b strings.Builder
	b.WriteString("flowchart LR\n")
	if len(l.nodes) == 0 {
		b.WriteString("  empty[\"no tensors recorded\"]\n")
	}
	for k, s := range list {
		var members []string
		for i, n := range g.nodes {
			if n.group == k {
				title, rest := n.title()
				members = append(members, fmt.Sprintf("    n%d[\"%s<br>%s\"]\n", i+1, mermaidText(strings.Join(title, "")), mermaidText(strings.Join(rest, ""))))
			}
		}
		if len(members) == 0 {
			continue
		}
		fmt.Fprintf(&b, "  subgraph %s[\"%s\"]\n    direction LR\n%s  end\n", names[s], mermaidText(storageTitle(names[s], s)), strings.Join(members, ""))
	}
	for _, e := range g.edges {
		arrow := "==>"
		if e.view {
			arrow = "-.->"
		}
		fmt.Fprintf(&b, "  n%d %s|\"%s\"| n%d\n", e.from+1, arrow, mermaidText(e.label), e.to+1)
	}
	if len(g.notes) > 0 {
		lines := []string{"problems"}
		notes := g.notes
		if len(l.problems) > 0 {
			notes = notes[1:] // the picture's heading "problems:"
		}
		for _, note := range notes {
			lines = append(lines, mermaidText(note))
		}
		fmt.Fprintf(&b, "  problems[\"%s\"]:::problem\n", strings.Join(lines, "<br>"))
		b.WriteString("  classDef problem fill:#fef2f2,stroke:#b91c1c,color:#b91c1c\n")
	}
	return b.String()
}
