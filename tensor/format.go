package tensor

import (
	"math"
	"strconv"
	"strings"
)

// PyTorch's default print options, which String follows.
const (
	fmtPrecision = 4    // digits after the point in fixed and scientific style
	fmtThreshold = 1000 // tensors with more elements than this are summarized
	fmtEdgeItems = 3    // items kept at each end of a summarized dimension
	fmtLineWidth = 80   // rows wrap to stay within this many characters
)

// fmtMaxShown bounds the elements String prints, where PyTorch's summary
// does not: three items at each end of every long dimension make 6ⁿ
// elements for n long dimensions, and a dimension of size 2 or 3 keeps all
// of its items. A summary over this many elements cuts its outer
// dimensions, outermost first, to their first item and "...", until what
// remains is within the bound. Every tensor PyTorch prints with at most
// this many elements prints as PyTorch prints it.
const fmtMaxShown = 2000

// String returns what PyTorch 1.13's repr prints for the same tensor, such
// as "tensor([0.5000, 1.0000])" or "tensor([1, 2], dtype=torch.int32)".
// Tensors of more than 1000 elements show only three items at each end of
// every long dimension, and long rows wrap at 80 characters. Unlike
// PyTorch, String prints at most 2000 elements (see fmtMaxShown), so that
// a tensor of high rank prints in a bounded time and space.
func (x *Tensor) String() string {
	if x == nil {
		return "<nil>"
	}
	const prefix = "tensor("
	body := "[]"
	if x.Numel() > 0 {
		body = newFmtPrinter(x).render(len(prefix))
	}
	return fmtAddSuffixes(prefix+body, fmtSuffixes(x), len(prefix))
}

// fmtSuffixes returns the keyword arguments PyTorch prints after the data.
// The dtype is shown unless it is the one torch.tensor would infer from the
// printed values; an empty tensor shows every dtype but float32, and its
// size unless it is 1-D. Then the grad_fn of a result autograd recorded, or
// requires_grad=True for a leaf that requires grad.
func fmtSuffixes(x *Tensor) []string {
	var suffixes []string
	dt := x.DType()
	showDType := dt != Float32 && dt != Int64 && dt != Bool
	if x.Numel() == 0 {
		if x.Dim() != 1 {
			suffixes = append(suffixes, "size="+x.Shape().String())
		}
		showDType = dt != Float32
	}
	if showDType {
		suffixes = append(suffixes, "dtype=torch."+dt.String())
	}
	if name := x.GradFn(); name != "" {
		suffixes = append(suffixes, "grad_fn=<"+name+">")
	} else if x.requiresGrad() {
		suffixes = append(suffixes, "requires_grad=True")
	}
	return suffixes
}

// fmtAddSuffixes appends each suffix after a comma and closes the
// parenthesis. A suffix that would pass the line width starts a new line
// indented by indent. Like PyTorch, it counts the last line of s as two
// characters longer than it is.
func fmtAddSuffixes(s string, suffixes []string, indent int) string {
	var b strings.Builder
	b.WriteString(s)
	lineLen := len(s) - strings.LastIndexByte(s, '\n') + 1
	for _, suffix := range suffixes {
		if lineLen+len(suffix)+2 > fmtLineWidth {
			b.WriteString(",\n" + strings.Repeat(" ", indent) + suffix)
			lineLen = indent + len(suffix)
		} else {
			b.WriteString(", " + suffix)
			lineLen += len(suffix) + 2
		}
	}
	b.WriteByte(')')
	return b.String()
}

// fmtStyle is how the floats of one tensor are written.
type fmtStyle int

const (
	fmtIntegral   fmtStyle = iota // whole numbers with a point: "2."
	fmtFixed                      // four decimals: "0.5000"
	fmtScientific                 // four decimals and an exponent: "1.0000e+10"
)

// fmtChooseStyle picks the style PyTorch uses for a tensor whose nonzero
// finite shown elements are vals.
func fmtChooseStyle(vals []float64) fmtStyle {
	if len(vals) == 0 {
		return fmtIntegral
	}
	lo, hi := math.Inf(1), 0.0
	integral := true
	for _, v := range vals {
		lo, hi = min(lo, math.Abs(v)), max(hi, math.Abs(v))
		integral = integral && v == math.Ceil(v)
	}
	wide := hi/lo > 1000 || hi > 1e8
	switch {
	case wide || (!integral && lo < 1e-4):
		return fmtScientific
	case integral:
		return fmtIntegral
	default:
		return fmtFixed
	}
}

// fmtFloat writes v in the given style as Python's format does.
func fmtFloat(v float64, style fmtStyle) string {
	switch {
	case math.IsNaN(v):
		return "nan"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	switch style {
	case fmtIntegral:
		return strconv.FormatFloat(v, 'f', 0, 64) + "."
	case fmtFixed:
		return strconv.FormatFloat(v, 'f', fmtPrecision, 64)
	default:
		return strconv.FormatFloat(v, 'e', fmtPrecision, 64)
	}
}

// FormatElement writes v, an element of dtype dt as At returns it, alone
// rather than in a column of String's output, as the pictures of package
// display write a cell: bools as True and False, integers as they are,
// floats to four significant digits without trailing zeros (0.5, 0.3333,
// 1.2e-05), but a whole number of magnitude under 1e8 with a point, and
// nan, inf and -inf, as String writes them (2., nan).
func (dt DType) FormatElement(v float64) string {
	switch {
	case dt == Bool:
		if v != 0 {
			return "True"
		}
		return "False"
	case !dt.IsFloatingPoint():
		return strconv.FormatInt(int64(v), 10)
	case math.IsNaN(v) || math.IsInf(v, 0) || (v == math.Trunc(v) && math.Abs(v) < 1e8):
		return fmtFloat(v, fmtIntegral)
	}
	s := strconv.FormatFloat(v, 'g', 4, 64)
	if strings.Contains(s, "e") {
		return s
	}
	return strings.TrimRight(strings.TrimRight(s, "0"), ".")
}

// fmtPrinter lays out the elements of a non-empty tensor as PyTorch does.
// It reads only the elements it prints, straight from storage, so printing
// a large tensor costs little.
type fmtPrinter struct {
	x         *Tensor
	summarize bool                // long dimensions show only their edge items
	cut       int                 // dimensions before this one show only their first item
	readInt   func(off int) int64 // reads an integer element; nil for other dtypes
	style     fmtStyle            // how floats are written
	width     int                 // each element is padded on the left to this width
}

// newFmtPrinter prepares to print x, choosing the float style and the
// column width, as PyTorch does, from only the elements that will be shown.
func newFmtPrinter(x *Tensor) *fmtPrinter {
	p := &fmtPrinter{x: x, summarize: x.Numel() > fmtThreshold, width: 1}
	p.cut = p.cutDims()
	dt := x.DType()
	if dt != Bool && !dt.IsFloatingPoint() {
		p.readInt = intGetter(x.storage)
	}
	shown := p.shownElements()
	if dt.IsFloatingPoint() {
		shown = p.nonzeroFinite(shown)
		vals := make([]float64, len(shown))
		for k, off := range shown {
			vals[k] = x.storage.load(off)
		}
		p.style = fmtChooseStyle(vals)
	}
	for _, off := range shown {
		p.width = max(p.width, len(p.text(off)))
	}
	return p
}

// nonzeroFinite returns the storage offsets in offs of elements that are
// neither zero, infinite nor NaN: the only ones that set the style and
// width of a floating-point tensor.
func (p *fmtPrinter) nonzeroFinite(offs []int) []int {
	var kept []int
	for _, off := range offs {
		v := p.x.storage.load(off)
		if v != 0 && !math.IsInf(v, 0) && !math.IsNaN(v) {
			kept = append(kept, off)
		}
	}
	return kept
}

// cutDims returns how many outer dimensions must show only their first
// item for the tensor to print at most fmtMaxShown elements. The last two
// dimensions are never cut: they show at most 36 elements summarized, and
// at most 1000 in a tensor too small to summarize.
func (p *fmtPrinter) cutDims() int {
	n := p.x.Dim()
	// shown[d] is the number of elements dimensions d… show, held at
	// fmtMaxShown+1 once it is more.
	shown := make([]int, n+1)
	shown[n] = 1
	for d := n - 1; d >= 0; d-- {
		shown[d] = min(p.count(p.x.shape[d])*shown[d+1], fmtMaxShown+1)
	}
	cut := 0
	for cut < n-2 && shown[cut] > fmtMaxShown {
		cut++
	}
	return cut
}

// count returns how many items a dimension of the given size shows
// uncut.
func (p *fmtPrinter) count(size int) int {
	if p.summarize && size > 2*fmtEdgeItems {
		return 2 * fmtEdgeItems
	}
	return size
}

// indices returns the indices shown along dimension d, with -1 where the
// summary prints "..." in place of the middle, or of all but the first
// item in a cut dimension.
func (p *fmtPrinter) indices(d int) []int {
	size := p.x.shape[d]
	var idx []int
	if d < p.cut && size > 1 {
		return []int{0, -1}
	}
	if p.summarize && size > 2*fmtEdgeItems {
		for i := range fmtEdgeItems {
			idx = append(idx, i)
		}
		idx = append(idx, -1)
		for i := size - fmtEdgeItems; i < size; i++ {
			idx = append(idx, i)
		}
		return idx
	}
	for i := range size {
		idx = append(idx, i)
	}
	return idx
}

// shownElements returns the storage offsets of the elements that will be
// printed.
func (p *fmtPrinter) shownElements() []int {
	offs := []int{p.x.offset}
	for d := range p.x.shape {
		var next []int
		for _, off := range offs {
			for _, i := range p.indices(d) {
				if i >= 0 {
					next = append(next, off+i*p.x.strides[d])
				}
			}
		}
		offs = next
	}
	return offs
}

// text writes the element at storage offset off without padding.
func (p *fmtPrinter) text(off int) string {
	switch {
	case p.readInt != nil:
		return strconv.FormatInt(p.readInt(off), 10)
	case p.x.DType() != Bool:
		return fmtFloat(p.x.storage.load(off), p.style)
	case p.x.storage.load(off) != 0:
		return "True"
	default:
		return "False"
	}
}

// cell writes the element at storage offset off, padded on the left to the
// column width.
func (p *fmtPrinter) cell(off int) string {
	s := p.text(off)
	return strings.Repeat(" ", max(p.width-len(s), 0)) + s
}

// render returns the bracketed elements; indent is the column where the
// outermost bracket stands.
func (p *fmtPrinter) render(indent int) string {
	if p.x.Dim() == 0 {
		return p.cell(p.x.offset)
	}
	return p.block(0, p.x.offset, indent)
}

// block renders the sub-tensor made of dimensions dim onward that starts
// at storage offset off. Its parts are separated by a comma, as many
// newlines as each part has dimensions, and the indent of the next level.
func (p *fmtPrinter) block(dim, off, indent int) string {
	if dim == p.x.Dim()-1 {
		return p.row(off, indent)
	}
	var parts []string
	for _, i := range p.indices(dim) {
		if i < 0 {
			parts = append(parts, "...")
		} else {
			parts = append(parts, p.block(dim+1, off+i*p.x.strides[dim], indent+1))
		}
	}
	sep := "," + strings.Repeat("\n", p.x.Dim()-dim-1) + strings.Repeat(" ", indent+1)
	return "[" + strings.Join(parts, sep) + "]"
}

// row renders the last dimension starting at storage offset off, wrapping
// after as many elements as fit the line width by PyTorch's estimate: the
// column width plus two for ", ".
func (p *fmtPrinter) row(off, indent int) string {
	last := p.x.Dim() - 1
	var items []string
	for _, i := range p.indices(last) {
		if i < 0 {
			items = append(items, " ...")
		} else {
			items = append(items, p.cell(off+i*p.x.strides[last]))
		}
	}
	perLine := max(1, (fmtLineWidth-indent)/(p.width+2))
	var lines []string
	for len(items) > 0 {
		n := min(perLine, len(items))
		lines = append(lines, strings.Join(items[:n], ", "))
		items = items[n:]
	}
	return "[" + strings.Join(lines, ",\n"+strings.Repeat(" ", indent+1)) + "]"
}
