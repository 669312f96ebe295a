package tensor

import (
	"slices"
	"strconv"
	"strings"
)

// Index returns x indexed by a Python-style index expression, as x[spec]
// would be in PyTorch:
//
//	x.Index("1:, ::2")      // slices: start:stop:step, each part optional
//	x.Index("..., 0, None") // Ellipsis, an integer, a new axis
//	x.Index("[0, 2], :")    // a list of integers along one dimension
//
// Integers, slices, "..." and "None" are basic indexing and return a view,
// exactly as in PyTorch. A list is advanced indexing and returns a copy
// (as IndexSelect does); one list per index is supported, and use
// IndexSelect and Gather beyond that.
func (x *Tensor) Index(spec string) *Tensor {
	x.must("Index")
	items := parseIndex(spec)
	specified, lists, ellipses := 0, 0, 0
	for _, it := range items {
		switch it.kind {
		case itemInt, itemSlice, itemList:
			specified++
		case itemEllipsis:
			ellipses++
		}
		if it.kind == itemList {
			lists++
		}
	}
	if ellipses > 1 {
		// PyTorch 1.13 lets a second ellipsis walk past the last dimension;
		// NumPy and later PyTorch refuse it, and so do we.
		failIndex("index", "an index can only have a single ellipsis ('...')")
	}
	if lists > 1 {
		failIndex("index", "an index can hold at most one list; use IndexSelect or Gather for more")
	}
	if specified > x.Dim() {
		if x.Dim() == 0 && specified == 1 && items[0].kind == itemInt {
			failIndex("index", "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
		}
		if x.Dim() == 0 && specified == 1 && items[0].kind == itemSlice {
			failIndex("index", "slice() cannot be applied to a 0-dim tensor.")
		}
		failIndex("index", "too many indices for tensor of dimension %d", x.Dim())
	}

	// Basic indexing first, leaving the list's dimension whole; then the
	// list picks along it, as PyTorch does.
	y := x
	dim := 0 // the dimension of y the next item applies to
	var list *indexItem
	listDim := 0
	for pos, it := range items {
		switch it.kind {
		case itemInt:
			size := y.shape[dim]
			if it.start < -size || it.start >= size {
				failIndex("index", "index %d is out of bounds for dimension %d with size %d", it.start, pos, size)
			}
			y = y.Select(dim, it.start)
		case itemSlice:
			y = y.Slice(dim, it.start, it.stop, it.step)
			dim++
		case itemNone:
			y = y.Unsqueeze(dim)
			dim++
		case itemEllipsis:
			dim += x.Dim() - specified
		case itemList:
			list, listDim = &items[pos], dim
			dim++
		}
	}
	if list == nil && y == x {
		// x[...] and x[()] are views of all of x.
		return x.alias()
	}
	if list == nil {
		return y
	}
	size := y.shape[listDim]
	if len(list.list) > 0 && size == 0 {
		failIndex("index", "index is out of bounds for dimension with size 0")
	}
	if shape := y.Shape(); len(list.list) > 0 {
		// A result with no elements reads none: PyTorch checks no index.
		shape[listDim] = len(list.list)
		if Shape(shape).Numel() == 0 {
			yShape := y.Shape()
			out := newTensor(y.DType(), shape)
			out.strides = indexResultStrides(y, listDim, Int64.Zeros(len(list.list)))
			return record(out, "IndexBackward0", []*Tensor{y}, nil,
				func(g *Tensor, _ []*Tensor) []*Tensor { return []*Tensor{newTensor(g.DType(), yShape)} })
		}
	}
	picks := make([]int64, len(list.list))
	for i, v := range list.list {
		if v < -size || v >= size {
			failIndex("index", "index %d is out of bounds for dimension 0 with size %d", v, size)
		}
		if v < 0 {
			v += size
		}
		picks[i] = int64(v)
	}
	index := New(picks)
	return renamed("IndexBackward0", []*Tensor{y.indexSelect(listDim, index, indexResultStrides(y, listDim, index))})[0]
}

type indexKind int

const (
	itemInt indexKind = iota
	itemSlice
	itemNone
	itemEllipsis
	itemList
)

// An indexItem is one comma-separated part of an index expression.
type indexItem struct {
	kind              indexKind
	start, stop, step int   // an integer is start
	list              []int // the integers of a list
}

// parseIndex splits an index expression into its items.
func parseIndex(spec string) []indexItem {
	var items []indexItem
	if strings.TrimSpace(spec) == "" {
		return nil
	}
	for _, part := range splitTopLevel(spec) {
		items = append(items, parseItem(spec, strings.TrimSpace(part)))
	}
	return items
}

// splitTopLevel splits spec at the commas that are not inside brackets.
func splitTopLevel(spec string) []string {
	var parts []string
	depth, start := 0, 0
	for i, r := range spec {
		switch r {
		case '[':
			depth++
		case ']':
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, spec[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, spec[start:])
}

func parseItem(spec, part string) indexItem {
	bad := func(why string) {
		panic(newError("index", "IndexError", "invalid index %q: %s", spec, why))
	}
	switch {
	case part == "":
		bad("an empty item between commas")
	case part == "...":
		return indexItem{kind: itemEllipsis}
	case part == "None":
		return indexItem{kind: itemNone}
	case strings.HasPrefix(part, "["):
		if !strings.HasSuffix(part, "]") {
			bad("a list must end with ]")
		}
		var list []int
		for _, s := range strings.Split(part[1:len(part)-1], ",") {
			if s = strings.TrimSpace(s); s == "" {
				continue
			}
			v, err := strconv.Atoi(s)
			if err != nil {
				bad(strconv.Quote(s) + " is not an integer")
			}
			list = append(list, v)
		}
		return indexItem{kind: itemList, list: list}
	case strings.Contains(part, ":"):
		fields := strings.Split(part, ":")
		if len(fields) > 3 {
			bad("a slice has at most start:stop:step")
		}
		it := indexItem{kind: itemSlice, start: 0, stop: End, step: 1}
		for i, f := range fields {
			if f = strings.TrimSpace(f); f == "" {
				continue
			}
			v, err := strconv.Atoi(f)
			if err != nil {
				bad(strconv.Quote(f) + " is not an integer")
			}
			switch i {
			case 0:
				it.start = v
			case 1:
				it.stop = v
			case 2:
				if v == 0 {
					panic(newError("index", "ValueError", "slice step cannot be zero"))
				}
				it.step = v
			}
		}
		return it
	}
	v, err := strconv.Atoi(part)
	if err != nil {
		bad(strconv.Quote(part) + " is not an integer, a slice, a list, ... or None")
	}
	return indexItem{kind: itemInt, start: v}
}

// indexResultStrides returns the strides PyTorch gives the result of
// indexing y with the list index along dim: its index kernel's
// TensorIterator lays the result out in the order of its operands'
// strides, y's (with stride 0 along dim) and the index's (viewed with
// size-1 dimensions around it), which differs from a contiguous layout
// only along dimensions of size 0 or 1 and where y is not row-major.
func indexResultStrides(y *Tensor, dim int, index *Tensor) []int {
	shape := y.Shape()
	shape[dim] = index.Numel()
	src := slices.Clone(y.strides)
	src[dim] = 0
	around := slices.Repeat([]int{1}, len(shape))
	around[dim] = index.Numel()
	view := index.View(around...)
	idx := make([]int, len(shape))
	for d, s := range view.strides {
		if around[d] == shape[d] { // a size-1 dimension of the index that stays 1 keeps its stride
			idx[d] = s
		}
	}
	if slices.Equal(around, shape) && y.view(shape, src, y.offset).IsContiguous() && view.IsContiguous() {
		return contiguousStrides(shape)
	}
	return iteratorStrides(shape, [][]int{src, idx})
}

// iteratorStrides returns the strides of an output that PyTorch's
// TensorIterator allocates for inputs of the given strides: dimensions
// sorted by the inputs' strides, the fastest first (an input whose stride
// is 0 along either of two dimensions does not order them; equal strides
// put the smaller dimension first), and the output dense in that order.
func iteratorStrides(shape []int, inputs [][]int) []int {
	n := len(shape)
	perm := make([]int, n) // fastest first
	for i := range perm {
		perm[i] = n - 1 - i
	}
	order := func(d0, d1 int) int {
		for _, st := range inputs {
			s0, s1 := st[d0], st[d1]
			switch {
			case s0 == 0 || s1 == 0:
				continue
			case s0 < s1:
				return -1
			case s0 > s1:
				return 1
			case shape[d0] > shape[d1]:
				return 1
			}
		}
		return 0
	}
	for i := 1; i < n; i++ {
		d1 := i
		for d0 := i - 1; d0 >= 0; d0-- {
			if c := order(perm[d0], perm[d1]); c > 0 {
				perm[d0], perm[d1] = perm[d1], perm[d0]
				d1 = d0
			} else if c < 0 {
				break
			}
		}
	}
	inverted := true
	for i, d := range perm {
		inverted = inverted && d == n-1-i
	}
	if inverted {
		return contiguousStrides(shape)
	}
	strides, next := make([]int, n), 1
	for _, d := range perm {
		strides[d] = next
		next *= shape[d]
	}
	return strides
}
