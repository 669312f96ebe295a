package display

import (
	"math"
	"strconv"
	"strings"

	"github.com/tensornb/tensornb/tensor"
)

// Large tensors are summarized as PyTorch prints them: a tensor of more
// than summarizeAbove elements shows the first and last edgeItems entries
// of each dimension, with a gap between.
const (
	summarizeAbove = 1000
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

// summarize reports whether x is large enough to be drawn summarized.
func summarize(x *tensor.Tensor) bool { return x.Numel() > summarizeAbove }

// cellText formats one element of a tensor of dtype dt for a cell:
// integers as they are, floats the way PyTorch writes a lone value (2.,
// 0.5, 1.2e-05), bools as True and False.
func cellText(dt tensor.DType, v float64) string {
	switch {
	case dt == tensor.Bool:
		if v != 0 {
			return "True"
		}
		return "False"
	case !dt.IsFloatingPoint():
		return strconv.FormatInt(int64(v), 10)
	case math.IsNaN(v):
		return "nan"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	case v == math.Trunc(v) && math.Abs(v) < 1e8:
		return strconv.FormatFloat(v, 'f', 0, 64) + "."
	}
	s := strconv.FormatFloat(v, 'g', 4, 64)
	if strings.Contains(s, "e") {
		return s
	}
	return strings.TrimRight(strings.TrimRight(s, "0"), ".")
}

// fit shortens s to at most n characters, marking the cut with "…".
func fit(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// readCounts returns how many positions of x read each of the storage
// slots accepted by want, walking x's positions in row-major order. It
// stops after maxWalk positions and then reports complete = false.
func readCounts(x *tensor.Tensor, want func(slot int) bool) (counts map[int]int, complete bool) {
	const maxWalk = 1 << 21
	counts = map[int]int{}
	n := x.Numel()
	if n > maxWalk {
		return counts, false
	}
	shape, strides := x.Shape(), x.Strides()
	idx := make([]int, len(shape))
	addr := x.StorageOffset()
	for range n {
		if want(addr) {
			counts[addr]++
		}
		for d := len(shape) - 1; d >= 0; d-- {
			idx[d]++
			addr += strides[d]
			if idx[d] < shape[d] {
				break
			}
			addr -= idx[d] * strides[d]
			idx[d] = 0
		}
	}
	return counts, true
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
