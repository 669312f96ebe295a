package display

import (
	"cmp"
	"fmt"
	"slices"
)

// A flowGraph is a diagram of boxes joined by labelled arrows, each box in
// a group drawn as a larger box around its members: Lineage's tensors in
// their storages, DecodeFlow's steps in their contracts. Every arrow goes
// from an earlier box to a later one, so the graph has no cycle; flowLayout
// places it in columns from left to right, and drawFlow draws it as SVG.
type flowGraph struct {
	groups []string // the title of each group
	nodes  []flowNode
	edges  []flowEdge
	notes  []string // lines under the diagram, such as recording mistakes
	empty  string   // what the diagram says when it has no box
}

// A flowNode is one box: its lines of text, and the index of its group.
// The first line is the box's title, drawn in ink, the others in grey;
// head is how many of the lines the title takes once wrapped (0 means 1).
type flowNode struct {
	group int
	lines []string
	head  int
}

// title returns the rows of the box's title, and the rest.
func (n flowNode) title() (title, rest []string) {
	k := min(max(n.head, 1), len(n.lines))
	return n.lines[:k], n.lines[k:]
}

// A flowEdge is one arrow, from node index from to node index to, with a
// label; a view is drawn dotted, a copy thick.
type flowEdge struct {
	from, to int
	label    string
	view     bool
}

// Bounds of a drawn flow graph, so that its SVG stays small whatever was
// recorded: the boxes and arrows past these are left out, with a note. A
// line of a box longer than flowMaxLine characters is wrapped onto further
// rows; the lines of all the boxes share flowMaxText characters, past
// which a line is cut.
const (
	flowMaxNodes = 40
	flowMaxEdges = 80
	flowMaxNotes = 20
	flowMaxLine  = 2 * maxName                    // characters of a row of a box, a label or a note
	flowMaxText  = flowMaxNodes * 2 * flowMaxLine // characters of the boxes' lines
)

// Geometry of a flow diagram.
const (
	charW     = 7.5  // the width allowed for a character of the font
	flowPadX  = 10.0 // left and right of the text in a box
	flowPadY  = 6.0  // above and below the text in a box
	flowGapX  = 40.0 // between columns, where arrows change height
	flowGapY  = 12.0 // between the boxes of a column
	flowLane  = 4.0  // the height an arrow takes passing through a column
	flowTitle = lineH + 2*flowPadY
)

// textWidth returns the width allowed for s in the picture's font: a
// character of an East Asian script or an emoji counts twice.
func textWidth(s string) float64 {
	w := 0.0
	for _, r := range s {
		w += runeWidth(r)
	}
	return w
}

// runeWidth returns the width allowed for r, as textWidth counts it.
func runeWidth(r rune) float64 {
	if wide(r) {
		return 2 * charW
	}
	return charW
}

// wrap breaks s into rows no wider than width, each row ending after a
// space if one lies in its second half, else where the next character
// would not fit; a character wider than width has a row to itself. The
// rows joined are s.
func wrap(s string, width float64) []string {
	var rows []string
	rest := []rune(s)
	for {
		w, end, space := 0.0, 0, 0
		for end < len(rest) && w+runeWidth(rest[end]) <= width {
			w += runeWidth(rest[end])
			end++
			if rest[end-1] == ' ' {
				space = end
			}
		}
		if end < len(rest) {
			end = max(end, 1)
			if space > end/2 {
				end = space
			}
		}
		rows = append(rows, string(rest[:end]))
		rest = rest[end:]
		if len(rest) == 0 {
			return rows
		}
	}
}

// wide reports whether r takes two columns of a monospace font.
func wide(r rune) bool {
	return r >= 0x1100 && r <= 0x115f || r >= 0x2e80 && r <= 0xa4cf || r >= 0xac00 && r <= 0xd7a3 ||
		r >= 0xf900 && r <= 0xfaff || r >= 0xfe30 && r <= 0xfe4f || r >= 0xff00 && r <= 0xff60 ||
		r >= 0xffe0 && r <= 0xffe6 || r >= 0x1f300 && r <= 0x1faff || r >= 0x20000 && r <= 0x3fffd
}

// bounded returns g cut to flowMaxNodes boxes, flowMaxEdges arrows and
// flowMaxNotes notes, with a note saying what was left out; it also
// leaves out an arrow that does not go from an earlier box to a later
// one. The lines of its boxes are wrapped into rows of at most
// flowMaxLine characters' width, and share flowMaxText characters
// evenly: with 40 boxes of two lines, a line keeps 160 characters, with
// one box of two, 6400. Its arrows' labels and its notes are cut to
// flowMaxLine characters.
func (g flowGraph) bounded() flowGraph {
	out := flowGraph{groups: g.groups, empty: g.empty}
	kept := min(len(g.nodes), flowMaxNodes)
	for _, n := range g.nodes[:kept] {
		var rows []string
		head := 0
		for k, line := range n.lines {
			rows = append(rows, wrap(fit(line, flowMaxText/(kept*len(n.lines))), flowMaxLine*charW)...)
			if k == 0 {
				head = len(rows)
			}
		}
		out.nodes = append(out.nodes, flowNode{group: n.group, lines: rows, head: head})
	}
	for _, e := range g.edges {
		if e.from < e.to && e.to < len(out.nodes) && len(out.edges) < flowMaxEdges {
			e.label = fit(e.label, flowMaxLine)
			out.edges = append(out.edges, e)
		}
	}
	out.notes = slices.Clone(g.notes[:min(len(g.notes), flowMaxNotes)])
	for k := range out.notes {
		out.notes[k] = fit(out.notes[k], flowMaxLine)
	}
	if nodes, edges, notes := len(g.nodes)-len(out.nodes), len(g.edges)-len(out.edges), len(g.notes)-len(out.notes); nodes+edges+notes > 0 {
		out.notes = append(out.notes, fmt.Sprintf("not drawn: %d boxes, %d arrows, %d notes (the text form lists them)", nodes, edges, notes))
	}
	return out
}

// A rect is a box of the picture: its top left corner and its size.
type rect struct{ x, y, w, h float64 }

// overlaps reports whether r and s share more than an edge.
func (r rect) overlaps(s rect) bool {
	return r.x < s.x+s.w && s.x < r.x+r.w && r.y < s.y+s.h && s.y < r.y+r.h
}

// A point is a point of the picture.
type point struct{ x, y float64 }

// A flowLayout is where each part of a flow graph is drawn.
type flowLayout struct {
	groups []rect    // the box of each group; zero for a group with no box
	titles []rect    // the title of each group, at the top of its box
	nodes  []rect    // the box of each node
	labels []rect    // the label of each edge
	paths  [][]point // each edge's arrow, from its source's right side to its target's left side, the arrows of a side apart
	notes  point     // where the first note's line starts
}

// A flowItem is what takes room in a column: a node, an edge's label (in
// the column before its target) or an edge passing through (a lane).
type flowItem struct {
	col, group int
	w, h       float64
	preds      []int   // the items in the column before that lead here
	key        float64 // the order in the column, within the group
	top        float64 // relative to the top of the group's content
}

// layout places g (already bounded) in columns from left to right, in the
// manner of a layered (Sugiyama) drawing: a node's column is twice the
// length of the longest path of arrows that leads to it, an arrow has its
// label in the column before its target and a lane in each column it
// crosses, and each group takes a band of the picture's height across all
// columns, so that group boxes never overlap. Within a column, a group's
// items are ordered by the mean position of what leads to them (one sweep
// from left to right) and stacked from the height of what leads to them
// down. An arrow runs straight through its lanes and its label and turns
// only in the gaps between columns, where nothing else is drawn; so no
// arrow crosses a box or another arrow's label.
func (g flowGraph) layout() flowLayout {
	items, nodeItem, chains := g.items()
	cols := orderColumns(items)
	content := g.stack(items, cols)

	// Columns' widths, and groups' bands from the top down.
	colX, colW := make([]float64, len(cols)), make([]float64, len(cols))
	for c, col := range cols {
		for _, i := range col {
			colW[c] = max(colW[c], items[i].w)
		}
		if c > 0 {
			colX[c] = colX[c-1] + colW[c-1] + flowGapX
		} else {
			colX[c] = gap + flowPadX
		}
	}
	used := make([]bool, len(g.groups))
	for _, n := range g.nodes {
		used[n.group] = true
	}
	contentTop := make([]float64, len(g.groups))
	out := flowLayout{groups: make([]rect, len(g.groups)), titles: make([]rect, len(g.groups))}
	y := gap
	for k, title := range g.groups {
		if !used[k] {
			continue
		}
		contentTop[k] = y + flowTitle
		out.groups[k] = rect{x: gap, y: y, w: textWidth(title) + 2*flowPadX, h: flowTitle + content[k] + flowPadY}
		out.titles[k] = rect{x: gap + flowPadX - 2, y: y + flowPadY - 1, w: textWidth(title) + 4, h: lineH + 2}
		y += out.groups[k].h + 2*gap
	}
	place := func(i int) rect {
		it := items[i]
		return rect{x: colX[it.col] + (colW[it.col]-it.w)/2, y: contentTop[it.group] + it.top, w: it.w, h: it.h}
	}
	for i := range g.nodes {
		r := place(nodeItem[i])
		out.nodes = append(out.nodes, r)
		box := &out.groups[g.nodes[i].group]
		box.w = max(box.w, r.x+r.w+flowPadX-box.x)
	}
	out.notes = point{gap, y + lineH}

	// Where arrows leave and enter boxes: spread over the box's side, in
	// the order of the heights they go to or come from.
	middle := func(i int) float64 { r := place(i); return r.y + r.h/2 }
	outs, ins := make([][]int, len(g.nodes)), make([][]int, len(g.nodes))
	for k, e := range g.edges {
		outs[e.from] = append(outs[e.from], k)
		ins[e.to] = append(ins[e.to], k)
	}
	startY, endY := make([]float64, len(g.edges)), make([]float64, len(g.edges))
	for i, r := range out.nodes {
		spread(outs[i], func(k int) float64 { return middle(chains[k][0]) }, r, startY)
		spread(ins[i], func(k int) float64 { return middle(chains[k][len(chains[k])-1]) }, r, endY)
	}

	// Arrows: straight through each column, turning in the gaps.
	for k, e := range g.edges {
		from, to := out.nodes[e.from], out.nodes[e.to]
		c := items[nodeItem[e.from]].col
		path := []point{{from.x + from.w, startY[k]}, {colX[c] + colW[c], startY[k]}}
		for _, i := range chains[k] {
			c := items[i].col
			path = append(path, point{colX[c], middle(i)}, point{colX[c] + colW[c], middle(i)})
		}
		c = items[nodeItem[e.to]].col
		path = append(path, point{colX[c], endY[k]}, point{to.x, endY[k]})
		out.paths = append(out.paths, straighten(path))
		last := chains[k][len(chains[k])-1]
		out.labels = append(out.labels, place(last))
	}
	return out
}

// items returns what takes room in the columns of g's layout: a box for
// each node, in a column twice the length of the longest path of arrows
// that leads to it, then each edge's lanes, its label last; nodeItem[i]
// is node i's item, and chains[k] edge k's lanes and label.
func (g flowGraph) items() (items []flowItem, nodeItem []int, chains [][]int) {
	rank := make([]int, len(g.nodes))
	for _, e := range g.edges { // in order of e.to, as recorded
		rank[e.to] = max(rank[e.to], rank[e.from]+1)
	}
	nodeItem = make([]int, len(g.nodes))
	for i, n := range g.nodes {
		w := 0.0
		for _, line := range n.lines {
			w = max(w, textWidth(line))
		}
		nodeItem[i] = len(items)
		items = append(items, flowItem{col: 2 * rank[i], group: n.group, w: w + 2*flowPadX, h: float64(len(n.lines))*lineH + 2*flowPadY, key: float64(i)})
	}
	chains = make([][]int, len(g.edges))
	for k, e := range g.edges {
		prev := nodeItem[e.from]
		group := g.nodes[e.to].group
		for col := 2*rank[e.from] + 1; col < 2*rank[e.to]; col++ {
			it := flowItem{col: col, group: group, h: flowLane, preds: []int{prev}}
			if col == 2*rank[e.to]-1 {
				it.w, it.h = textWidth(e.label)+8, lineH+2
			}
			prev = len(items)
			chains[k] = append(chains[k], prev)
			items = append(items, it)
		}
		to := &items[nodeItem[e.to]]
		to.preds = append(to.preds, prev)
	}
	return items, nodeItem, chains
}

// orderColumns returns the items of each column, ordered by group, then
// by the mean position of the items that lead to them (each item's key),
// one column after another from the left.
func orderColumns(items []flowItem) [][]int {
	ncol := 1
	for _, it := range items {
		ncol = max(ncol, it.col+1)
	}
	cols := make([][]int, ncol)
	for i, it := range items {
		cols[it.col] = append(cols[it.col], i)
	}
	pos := make([]float64, len(items)) // an item's position in its column
	for c, col := range cols {
		if c > 0 {
			for _, i := range col {
				sum := 0.0
				for _, p := range items[i].preds {
					sum += pos[p]
				}
				items[i].key = sum / float64(max(1, len(items[i].preds)))
			}
		}
		slices.SortStableFunc(col, func(a, b int) int {
			if items[a].group != items[b].group {
				return items[a].group - items[b].group
			}
			switch {
			case items[a].key < items[b].key:
				return -1
			case items[a].key > items[b].key:
				return 1
			}
			return 0
		})
		for k, i := range col {
			pos[i] = float64(k)
		}
	}
	return cols
}

// stack sets each item's height within its group's band, column by
// column: level with the middle of what leads to it in its group, below
// the item above it. It returns the height of each group's content.
func (g flowGraph) stack(items []flowItem, cols [][]int) (content []float64) {
	content = make([]float64, len(g.groups))
	for _, col := range cols {
		next := map[int]float64{} // the top of the next item of each group
		for _, i := range col {
			it := &items[i]
			want, n := 0.0, 0
			for _, p := range it.preds {
				if items[p].group == it.group {
					want += items[p].top + items[p].h/2
					n++
				}
			}
			if n > 0 {
				want = want/float64(n) - it.h/2
			}
			it.top = max(want, next[it.group])
			next[it.group] = it.top + it.h + flowGapY
			content[it.group] = max(content[it.group], it.top+it.h)
		}
	}
	return content
}

// spread sets at[k], for each edge k of edges, to a height on the side of
// box b: the edges, in order of key, divide b's height evenly.
func spread(edges []int, key func(int) float64, b rect, at []float64) {
	slices.SortStableFunc(edges, func(j, k int) int { return cmp.Compare(key(j), key(k)) })
	for n, k := range edges {
		at[k] = b.y + b.h*float64(n+1)/float64(len(edges)+1)
	}
}

// straighten drops the points of path that lie on a straight line
// between their neighbours, and repeated points.
func straighten(path []point) []point {
	out := []point{path[0]}
	for i := 1; i < len(path); i++ {
		p := path[i]
		if p == out[len(out)-1] {
			continue
		}
		if n := len(out); n >= 2 {
			a, b := out[n-2], out[n-1]
			if (b.x-a.x)*(p.y-a.y) == (b.y-a.y)*(p.x-a.x) && (b.x-a.x)*(p.x-b.x) >= 0 && (b.y-a.y)*(p.y-b.y) >= 0 {
				out[n-1] = p
				continue
			}
		}
		out = append(out, p)
	}
	return out
}
