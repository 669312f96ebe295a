package display

import (
	"fmt"
	"html"
	"slices"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/tensor"
)

// flowCases are graphs whose layouts are checked: the article's lineage,
// a fan-in of many parents, a long chain over alternating storages,
// names of control characters and great length, and decode flows.
func flowCases() map[string]flowGraph {
	article := NewLineage()
	x := article.Derive("x", tensor.Float32.Arange(24).View(2, 3, 4), "arange(24).view(2, 3, 4)")
	y := article.Derive("y", x.Transpose(1, 2), "transpose(1, 2)", "x")
	article.Derive("z", y.Reshape(-1), "reshape(-1)", "y")
	t := article.Derive("t", x.Select(0, 1), "select(0, 1)", "x")
	article.Derive("s", t.Add(x.Select(0, 0)), "add", "t", "x")

	fan := NewLineage()
	var parents []string
	for i := range 12 {
		name := fmt.Sprintf("p%d", i)
		fan.Add(name, tensor.Arange(4).View(2, 2))
		parents = append(parents, name)
	}
	fan.Derive("sum", tensor.Arange(4), "stack", parents...)

	chain := NewLineage()
	c := chain.Add("c0", tensor.Arange(6).View(2, 3))
	for i := 1; i < 60; i++ {
		next := c.T()
		if i%3 == 0 {
			next = next.Contiguous()
		}
		c = chain.Derive(fmt.Sprintf("c%d", i), next, "step", fmt.Sprintf("c%d", i-1), "c0")
	}

	hostile := NewLineage()
	long := strings.Repeat("long", 1000)
	h := hostile.Derive("\x00\x1b[31m"+long, tensor.Arange(6), "\n"+long)
	hostile.Derive("a\nb", h.View(2, 3), long, "\x00\x1b[31m"+long, "missing")
	hostile.Derive("转置 → ✓ 🙂", h.Contiguous(), "转置转置转置", "a\nb")

	return map[string]flowGraph{
		"long lines": longLines().graph(),
		"article":    article.graph(),
		"fan-in":     fan.graph(),
		"chain":      chain.graph(),
		"hostile":    hostile.graph(),
		"decode":     decodeFlow{tensor.InterleavedByHead(2, 3), tensor.BlockedByRole(2, 3), tensor.FusedQKV(4, 16)}.graph(),
		"empty":      NewLineage().graph(),
	}
}

// The layout keeps every box and label clear of every other, inside its
// group's box, with the groups apart; every arrow runs from a point of
// its own on its source's right side to one on its target's left side,
// through its own label and through no box or other label.
func TestFlowLayoutKeepsThingsApart(t *testing.T) {
	for name, g := range flowCases() {
		t.Run(name, func(t *testing.T) {
			g = g.bounded()
			l := g.layout()
			type part struct {
				what  string
				r     rect
				group int
			}
			var parts []part
			for i, r := range l.nodes {
				parts = append(parts, part{fmt.Sprintf("node %d", i), r, g.nodes[i].group})
			}
			for k, r := range l.labels {
				parts = append(parts, part{fmt.Sprintf("label %d", k), r, g.nodes[g.edges[k].to].group})
			}
			for k, r := range l.titles {
				if r.w > 0 {
					parts = append(parts, part{fmt.Sprintf("title %d", k), r, k})
				}
			}
			for i, a := range parts {
				if !inside(a.r, l.groups[a.group]) {
					t.Errorf("%s %v is not inside its group's box %v", a.what, a.r, l.groups[a.group])
				}
				for _, b := range parts[i+1:] {
					if a.r.overlaps(b.r) {
						t.Errorf("%s %v overlaps %s %v", a.what, a.r, b.what, b.r)
					}
				}
			}
			for i, a := range l.groups {
				for _, b := range l.groups[i+1:] {
					if a.w > 0 && b.w > 0 && a.overlaps(b) {
						t.Errorf("group boxes %v and %v overlap", a, b)
					}
				}
			}
			starts, ends := map[point]bool{}, map[point]bool{}
			for k, e := range g.edges {
				path := l.paths[k]
				from, to := l.nodes[e.from], l.nodes[e.to]
				if start := path[0]; start.x != from.x+from.w || start.y <= from.y || start.y >= from.y+from.h || starts[start] {
					t.Errorf("arrow %d starts at %v, not at a point of its own on the right side of %v", k, start, from)
				}
				if end := path[len(path)-1]; end.x != to.x || end.y <= to.y || end.y >= to.y+to.h || ends[end] {
					t.Errorf("arrow %d ends at %v, not at a point of its own on the left side of %v", k, end, to)
				}
				starts[path[0]], ends[path[len(path)-1]] = true, true
				label := l.labels[k]
				if !crosses(path, rect{label.x + label.w/2 - 0.5, label.y + label.h/2 - 0.5, 1, 1}) {
					t.Errorf("arrow %d does not pass through the middle of its label %v: %v", k, label, path)
				}
				for _, p := range parts {
					if p.what == fmt.Sprintf("label %d", k) || strings.HasPrefix(p.what, "title") {
						continue
					}
					if crosses(path, shrink(p.r)) {
						t.Errorf("arrow %d crosses %s %v: %v", k, p.what, p.r, path)
					}
				}
			}
		})
	}
}

// inside reports whether r lies within s.
func inside(r, s rect) bool {
	return r.x >= s.x && r.y >= s.y && r.x+r.w <= s.x+s.w && r.y+r.h <= s.y+s.h
}

// shrink returns r without a rim of half a pixel, where an arrow may
// touch the box it starts or ends at.
func shrink(r rect) rect { return rect{r.x + 0.5, r.y + 0.5, r.w - 1, r.h - 1} }

// crosses reports whether a segment of path enters r (Liang–Barsky
// clipping).
func crosses(path []point, r rect) bool {
	for i := 1; i < len(path); i++ {
		a, b := path[i-1], path[i]
		dx, dy := b.x-a.x, b.y-a.y
		lo, hi := 0.0, 1.0
		ok := true
		for _, c := range [][2]float64{{-dx, a.x - r.x}, {dx, r.x + r.w - a.x}, {-dy, a.y - r.y}, {dy, r.y + r.h - a.y}} {
			p, q := c[0], c[1]
			switch {
			case p == 0 && q < 0:
				ok = false
			case p < 0:
				lo = max(lo, q/p)
			case p > 0:
				hi = min(hi, q/p)
			}
		}
		if ok && lo <= hi {
			return true
		}
	}
	return false
}

// A lineage too large to draw whole is drawn in part, with a note that
// says what is left out.
func TestFlowBoundsWhatItDraws(t *testing.T) {
	g := flowCases()["chain"]
	b := g.bounded()
	if len(b.nodes) != flowMaxNodes || len(b.edges) > flowMaxEdges {
		t.Fatalf("kept %d nodes and %d edges", len(b.nodes), len(b.edges))
	}
	want := fmt.Sprintf("not drawn: %d boxes, %d arrows, 0 notes (the text form lists them)", len(g.nodes)-flowMaxNodes, len(g.edges)-len(b.edges))
	if last := b.notes[len(b.notes)-1]; last != want {
		t.Errorf("the last note is %q, want %q", last, want)
	}
}

// longLines is a lineage whose boxes have lines longer than a row: a
// tensor made from twelve parents never recorded, whose title says how
// (about 900 characters), and two 60-D tensors, whose layouts take about
// 350 characters.
func longLines() *Lineage {
	l := NewLineage()
	var parents []string
	for i := range 12 {
		parents = append(parents, fmt.Sprintf("parent_%02d_%s", i, strings.Repeat("p", 60)))
	}
	shape := make([]int, 60)
	for i := range shape {
		shape[i] = 1
	}
	x := l.Derive("x", tensor.Arange(1).View(shape...), "stack", parents...)
	l.Derive("y 转置转置转置", x.Expand(append(shape[:59:59], 3)...), "expand", "x")
	return l
}

// A box's lines longer than a row are wrapped onto further rows, whole,
// each row within flowMaxLine characters' width; the drawn picture has
// every row, the rows of the title in ink and the others in grey.
func TestFlowWrapsLongLines(t *testing.T) {
	g := longLines().graph()
	b := g.bounded()
	svg := g.draw().String()
	for i, n := range g.nodes {
		rows := b.nodes[i].lines
		if whole := strings.Join(n.lines, ""); strings.Join(rows, "") != whole {
			t.Errorf("box %d: the rows %q are not its lines %q whole", i, rows, n.lines)
		}
		if len(rows) <= len(n.lines) {
			t.Errorf("box %d: its lines of %d characters were not wrapped: %q", i, len(strings.Join(n.lines, "")), rows)
		}
		title := len(wrap(n.lines[0], flowMaxLine*charW))
		for k, row := range rows {
			if textWidth(row) > flowMaxLine*charW {
				t.Errorf("box %d: the row %q is %v px wide, more than %d characters", i, row, textWidth(row), flowMaxLine)
			}
			tone := faint
			if k < title {
				tone = ink
			}
			if !strings.Contains(svg, `fill="`+tone+`">`+html.EscapeString(row)+"</text>") {
				t.Errorf("box %d: the picture does not draw the row %q in %s", i, row, tone)
			}
		}
	}
}

// wrap breaks after a space in a row's second half, else where the next
// character would not fit, and gives a character wider than a row a row
// of its own.
func TestWrap(t *testing.T) {
	for _, c := range []struct {
		s     string
		chars float64 // the width of a row, in characters
		want  []string
	}{
		{"", 10, []string{""}},
		{"fits", 10, []string{"fits"}},
		{"exactly 10", 10, []string{"exactly 10"}},
		{"aaaa bbbb cccc", 10, []string{"aaaa bbbb ", "cccc"}},
		{"abcdefghijkl", 5, []string{"abcde", "fghij", "kl"}},
		{"ab cdefghijkl", 6, []string{"ab cde", "fghijk", "l"}},
		{"(1, 1, 1, 1, 1, 1)", 8, []string{"(1, 1, ", "1, 1, ", "1, 1)"}},
		{"转置转置", 3, []string{"转", "置", "转", "置"}},
		{"a转置", 1, []string{"a", "转", "置"}},
	} {
		if got := wrap(c.s, c.chars*charW); !slices.Equal(got, c.want) {
			t.Errorf("wrap(%q, %v characters) = %q, want %q", c.s, c.chars, got, c.want)
		}
	}
}

// However long the lines of many boxes, the rows drawn hold at most
// flowMaxText characters, and no fewer than before lines were wrapped:
// flowMaxLine characters of each of a box's two lines.
func TestFlowBoundsLongLines(t *testing.T) {
	long := strings.Repeat("long ", 2000)
	for _, n := range []int{1, 7, flowMaxNodes, 3 * flowMaxNodes} {
		g := flowGraph{groups: []string{"storage"}}
		for i := range n {
			g.nodes = append(g.nodes, flowNode{lines: []string{fmt.Sprint(i, long), long}})
		}
		b := g.bounded()
		total := 0
		for i, node := range b.nodes {
			chars := len([]rune(strings.Join(node.lines, "")))
			if chars < 2*flowMaxLine {
				t.Errorf("%d boxes: box %d keeps %d characters, fewer than two lines of %d", n, i, chars, flowMaxLine)
			}
			total += chars
		}
		if total > flowMaxText {
			t.Errorf("%d boxes: their rows hold %d characters, more than %d", n, total, flowMaxText)
		}
	}
}

// straighten keeps a path's corners and drops the points between them.
func TestStraighten(t *testing.T) {
	got := straighten([]point{{0, 0}, {5, 0}, {5, 0}, {10, 0}, {20, 10}, {30, 20}, {40, 20}})
	want := []point{{0, 0}, {10, 0}, {30, 20}, {40, 20}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("straighten gives %v, want %v", got, want)
	}
}
