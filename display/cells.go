package display

import (
	"slices"
	"strconv"
	"strings"

	"github.com/tensornb/tensornb/tensor"
)

// Large tensors are summarized as PyTorch prints them: the first and last
// edgeItems entries of each dimension, with a gap between. PyTorch
// summarizes tensors of more than 1000 elements; a picture summarizes
// sooner, above summarizeAbove cells, since it spends up to 400 bytes on a
// cell and stays within 200 KB.
const (
	summarizeAbove = 400
	edgeItems      = 3
)

// gapIndex marks the gap of a summarized dimension in a list of indices.
const gapIndex = -1

// shownIndices returns the indices of a dimension of size n to draw: all
// of them, or the edges with gapIndex between when summarizing.
func shownIndices(n int, summarize bool) []int {
	if !summarize {
		return edgeIndices(n, n)
	}
	return edgeIndices(n, edgeItems)
}

// edgeIndices returns the first and last edge indices of a dimension of
// size n with gapIndex between, or all of them if that is no more.
func edgeIndices(n, edge int) []int {
	if n <= 2*edge {
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		return idx
	}
	idx := []int{}
	for i := range edge {
		idx = append(idx, i)
	}
	idx = append(idx, gapIndex)
	for i := n - edge; i < n; i++ {
		idx = append(idx, i)
	}
	return idx
}

// summarize reports whether x is large enough to be drawn summarized: a
// tensor of more than summarizeAbove elements, or one whose dimensions
// would draw that many rows, columns and panels, as a tensor with a
// dimension of size 0 can, however few its elements.
func summarize(x *tensor.Tensor) bool { return extent(x.Shape()) > summarizeAbove }

// extent returns the product of the sizes of shape, each size 0 counted
// as 1, or a number above summarizeAbove if the product is more.
func extent(shape tensor.Shape) int {
	n := 1
	for _, size := range shape {
		n *= max(size, 1)
		if n > summarizeAbove {
			return summarizeAbove + 1
		}
	}
	return n
}

// indexedRows returns the first two rows of a text table over positions:
// the positions themselves and the values there, "…" at gaps.
func indexedRows(positions []int, value func(i int) string) [][]string {
	rows := [][]string{{}, {}}
	for _, i := range positions {
		if i == gapIndex {
			rows[0], rows[1] = append(rows[0], "…"), append(rows[1], "…")
			continue
		}
		rows[0] = append(rows[0], strconv.Itoa(i))
		rows[1] = append(rows[1], value(i))
	}
	return rows
}

// fit shortens s to at most n characters, marking the cut with "…".
func fit(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// readCounts returns how many positions of x read each of the given
// storage slots. It reports complete = false if some count was too costly
// to work out (an overlapping layout with a great many solutions).
func readCounts(x *tensor.Tensor, slots []int) (counts map[int]int, complete bool) {
	counts = map[int]int{}
	if x.Numel() == 0 {
		return counts, true
	}
	// A stride-0 dimension multiplies the readers of every slot; the other
	// dimensions are searched from the largest stride down.
	repeat := 1
	var sizes, strides []int
	for d, size := range x.Shape() {
		if s := x.Stride(d); s == 0 {
			repeat *= size
		} else {
			sizes, strides = append(sizes, size), append(strides, s)
		}
	}
	order := make([]int, len(sizes))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strides[b] - strides[a] })
	c := solver{}
	for _, d := range order {
		c.sizes, c.strides = append(c.sizes, sizes[d]), append(c.strides, strides[d])
	}
	c.reach = make([]int, len(c.sizes)+1)
	for d := len(c.sizes) - 1; d >= 0; d-- {
		c.reach[d] = c.reach[d+1] + (c.sizes[d]-1)*c.strides[d]
	}
	complete = true
	for _, slot := range slots {
		if slot == gapIndex {
			continue
		}
		c.budget = 1 << 16
		if n := c.count(0, slot-x.StorageOffset()); n > 0 {
			counts[slot] = n * repeat
		}
		complete = complete && c.budget > 0
	}
	return counts, complete
}

// solver counts the index tuples whose address is a given distance from
// the offset: the number of positions that read one slot.
type solver struct {
	sizes, strides []int // largest stride first, all positive
	reach          []int // reach[d]: the largest distance dimensions d… can add
	budget         int   // steps left before giving up
}

func (c *solver) count(d, rest int) int {
	if d == len(c.sizes) {
		if rest == 0 {
			return 1
		}
		return 0
	}
	if rest < 0 || rest > c.reach[d] || c.budget <= 0 {
		return 0
	}
	c.budget--
	s := c.strides[d]
	lo := max(0, (rest-c.reach[d+1]+s-1)/s)
	hi := min(c.sizes[d]-1, rest/s)
	total := 0
	for i := lo; i <= hi; i++ {
		total += c.count(d+1, rest-i*s)
	}
	return total
}

// formula writes the address formula of x with index names i, j, k, …:
// "address = 1 + 4·i + 2·j". Terms whose stride is 0 are written "0·k",
// since that is the point of a broadcast dimension.
func formula(x *tensor.Tensor) string {
	var b strings.Builder
	b.WriteString("address = " + strconv.Itoa(x.StorageOffset()))
	for d, s := range x.Strides() {
		b.WriteString(" + " + strconv.Itoa(s) + "·" + indexName(d, x.Dim()))
	}
	return b.String()
}

// indexName names dimension d of an n-dimensional tensor: i, j, k, l for
// up to four dimensions, i0, i1, … beyond.
func indexName(d, n int) string {
	if n <= 4 {
		return string("ijkl"[d])
	}
	return "i" + strconv.Itoa(d)
}
