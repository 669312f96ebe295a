package tensor

import (
	"slices"
	"strconv"
	"strings"
)

// View or copy: Index returns x indexed by a Python-style index expression,
// as x[spec] would be in PyTorch: a view, unless spec holds a list of
// integers, which makes a copy.
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
		failIndex("index", "invalid index %q: %s", spec, why)
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
					failValue("index", "slice step cannot be zero")
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
// TensorIterator lays the result out as it lays out an elementwise
// result of its operands, y with stride 0 along dim and the index viewed
// with size-1 dimensions around it. The layout differs from a contiguous
// one only where y is not row-major and along dimensions of size 0 or 1.
func indexResultStrides(y *Tensor, dim int, index *Tensor) []int {
	shape := y.Shape()
	shape[dim] = index.Numel()
	src := slices.Clone(y.strides)
	src[dim] = 0
	around := slices.Repeat([]int{1}, len(shape))
	around[dim] = index.Numel()
	return elementwiseStrides(shape, y.view(shape, src, y.offset), index.View(around...))
}
