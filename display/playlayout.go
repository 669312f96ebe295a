package display

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// This file is the playground's layout arithmetic: for one setting of the
// controls (a storage length, an offset, and each dimension's size and
// stride) it works out the slot every position reads, how often each slot
// is read, what kind of layout it is, which view op of the starting
// tensor makes it, and the Go line that makes it. playlayout.js does the
// same arithmetic in the page, function for function, so that the
// controls answer at once without a kernel; its top says why Go cannot
// answer for it beforehand. This file is the rule: the tests check it
// against package tensor, and write what it says of many settings to
// testdata/playground/table.json, which playlayout.js's test replays. The
// directive below writes that table anew after a change here.

//go:generate go test -run ^TestPlaygroundTable$DOLLAR -update

// Bounds of the playground's controls.
const (
	playMaxSlots  = 64  // storage slots
	playMaxCells  = 256 // positions: the product of the sizes
	playMaxDims   = 4
	playMaxStride = 128 // strides lie in [-playMaxStride, playMaxStride]
	playMaxOffset = 128
)

// A playLayout is one setting of the playground: a storage of Storage
// slots, and the shape, strides (in elements) and storage offset of a
// tensor over it. NumPy says whose rules judge it: NumPy's, which allow
// negative strides, or PyTorch's, which refuse them.
type playLayout struct {
	Storage int   `json:"storage"`
	Shape   []int `json:"shape"`
	Strides []int `json:"strides"`
	Offset  int   `json:"offset"`
	NumPy   bool  `json:"numpy"`
}

// A playBase is the tensor a playground starts from, x, and the storage
// its layouts are over.
type playBase struct {
	Name    string   `json:"name"`    // what the playground calls x in its sentences
	Go      string   `json:"go"`      // x as a Go expression: x, or tensor.Arange(12).View(3, 4)
	Py      string   `json:"py"`      // x as a Python expression: x, or torch.arange(12).view(3, 4)
	Blank   bool     `json:"blank"`   // the storage holds 0, 1, 2, … (Playground(nil))
	Storage int      `json:"storage"` // the slots of x's storage
	Shape   []int    `json:"shape"`
	Strides []int    `json:"strides"`
	Offset  int      `json:"offset"`
	DType   string   `json:"dtype"`
	Item    int      `json:"item"`   // bytes an element
	Values  []string `json:"values"` // the values of x's storage, as cells show them
	Zero    string   `json:"zero"`   // the value of a slot added past x's storage
}

// The kinds of layout, from the worst: a setting is the first that fits.
//
//   - negative: a stride is below 0 and PyTorch's rules judge it; PyTorch
//     refuses negative strides (NumPy's x[::-1] is a view, torch.flip a
//     copy).
//   - out-of-bounds: some position's address, offset + Σ index·stride,
//     falls outside the storage's slots 0 … Storage-1; as_strided refuses
//     the layout.
//   - overlapping: every address is in the storage but some slot is read
//     by two positions or more; reading is well defined, an in-place write
//     is not, and PyTorch refuses it.
//   - contiguous: PyTorch's is_contiguous: the positions in row-major
//     order read consecutive slots (dimensions of size 1 aside).
//   - view: none of the above, and one view op of x (transpose or permute,
//     view, an index of slices with steps and integers, diagonal, expand,
//     unfold, or those of x.View(-1)) makes exactly this shape, these
//     strides and this offset from x.
//   - strided: none of the above: only as_strided makes it.
//
// A layout of the first three kinds may still be made by an op of x (an
// expand, an unfold, a NumPy flip): the state names it.
const (
	kindNegative    = "negative"
	kindOutOfBounds = "out-of-bounds"
	kindOverlapping = "overlapping"
	kindContiguous  = "contiguous"
	kindView        = "view"
	kindStrided     = "strided"
)

// A playState is everything the playground shows for one setting. The
// page's script computes the same fields, and tests compare the two as
// JSON.
type playState struct {
	Layout    playLayout `json:"layout"`
	Kind      string     `json:"kind"`
	Op        string     `json:"op"`        // the op family that makes the layout from x, "" for none
	Python    string     `json:"python"`    // that op in PyTorch's (or NumPy's) words: x.T, x[1:, ::2]
	Go        string     `json:"go"`        // a Go expression that makes the layout from x
	Addresses []int      `json:"addresses"` // the slot of each position, in row-major order
	Reads     []int      `json:"reads"`     // how many positions read each slot
	Outside   []int      `json:"outside"`   // the first position whose address is outside the storage
	Headline  string     `json:"headline"`
	Sentence  string     `json:"sentence"`
	Detail    string     `json:"detail"`
	Scan      string     `json:"scan"`    // steps, jumps, repeats or out
	Steps     []string   `json:"steps"`   // how the walk reaches each position: start, step, jump, repeat, out
	Deltas    []int      `json:"deltas"`  // each address minus the one before (0 for the first)
	Summary   string     `json:"summary"` // the walk's verdict in words
}

// playNumel multiplies the sizes.
func playNumel(shape []int) int {
	n := 1
	for _, s := range shape {
		n *= s
	}
	return n
}

// playRowMajor returns the strides of a contiguous tensor of shape.
func playRowMajor(shape []int) []int {
	strides := make([]int, len(shape))
	step := 1
	for d := len(shape) - 1; d >= 0; d-- {
		strides[d] = step
		step *= shape[d]
	}
	return strides
}

// playIsRowMajor is PyTorch's is_contiguous for a tensor with elements:
// dimensions of size 1 are skipped, and each other dimension's stride is
// the product of the sizes after it.
func playIsRowMajor(shape, strides []int) bool {
	expected := 1
	for d := len(shape) - 1; d >= 0; d-- {
		if shape[d] == 1 {
			continue
		}
		if strides[d] != expected {
			return false
		}
		expected *= shape[d]
	}
	return true
}

// playPositionOf returns the index of position k in row-major order.
func playPositionOf(shape []int, k int) []int {
	idx := make([]int, len(shape))
	for d := len(shape) - 1; d >= 0; d-- {
		idx[d] = k % shape[d]
		k /= shape[d]
	}
	return idx
}

// playList writes ints as PyTorch writes a size list: [3, 4].
func playList(xs []int) string { return "[" + playJoin(xs) + "]" }

// playJoin writes ints separated by ", ".
func playJoin(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, ", ")
}

// playArithmetic writes how the address of position idx is worked out:
// 1 + 2·4 + 3·(-1) = 6.
func playArithmetic(l playLayout, idx []int) string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(l.Offset))
	addr := l.Offset
	for d, i := range idx {
		s := l.Strides[d]
		st := strconv.Itoa(s)
		if s < 0 {
			st = "(" + st + ")"
		}
		b.WriteString(" + " + strconv.Itoa(i) + "·" + st)
		addr += i * s
	}
	return b.String() + " = " + strconv.Itoa(addr)
}

// playClassify works out what the playground shows for layout l over base b.
func playClassify(b *playBase, l playLayout) playState {
	st := playState{Layout: l}
	st.Addresses, st.Reads, st.Outside = playAddresses(l)
	negative := slices.IndexFunc(l.Strides, func(s int) bool { return s < 0 })
	shared, _, _ := playShared(st.Reads)
	switch {
	case negative >= 0 && !l.NumPy:
		st.Kind = kindNegative
	case st.Outside != nil:
		st.Kind = kindOutOfBounds
	case shared > 0:
		st.Kind = kindOverlapping
	case playIsRowMajor(l.Shape, l.Strides):
		st.Kind = kindContiguous
	}
	var op *playOp
	if st.Kind != kindNegative && st.Kind != kindOutOfBounds {
		op = playFindOp(b, l)
	}
	if st.Kind == "" {
		st.Kind = kindStrided
		if op != nil {
			st.Kind = kindView
		}
	}
	st.Go = playStorageGo(b, l.Storage) + ".AsStrided([]int{" + playJoin(l.Shape) + "}, []int{" + playJoin(l.Strides) + "}, " + strconv.Itoa(l.Offset) + ")"
	if op != nil {
		st.Op, st.Python = op.key, op.py
		if op.goExpr != "" {
			st.Go = op.goExpr
		}
	}
	playExplain(&st, b, op)
	st.Steps, st.Deltas, st.Scan, st.Summary = playWalk(l, st.Addresses)
	return st
}

// playAddresses returns the address of every position of l in row-major
// order, how many positions read each slot of its storage, and the first
// position whose address falls outside the storage (nil if none does).
func playAddresses(l playLayout) (addresses, reads, outside []int) {
	reads = make([]int, l.Storage)
	for k := range playNumel(l.Shape) {
		idx := playPositionOf(l.Shape, k)
		a := l.Offset
		for d, i := range idx {
			a += i * l.Strides[d]
		}
		addresses = append(addresses, a)
		if a < 0 || a >= l.Storage {
			if outside == nil {
				outside = idx
			}
			continue
		}
		reads[a]++
	}
	return addresses, reads, outside
}

// playShared counts the slots read more than once, and names the slot read
// most often, with its count.
func playShared(reads []int) (shared, most, mostReads int) {
	for slot, r := range reads {
		if r > 1 {
			shared++
		}
		if r > mostReads {
			most, mostReads = slot, r
		}
	}
	return shared, most, mostReads
}

// playExplain writes st's headline, sentence and detail for its kind, with
// the op that makes the layout when there is one.
func playExplain(st *playState, b *playBase, op *playOp) {
	l, name := st.Layout, b.Name
	opClause := func() string {
		if op == nil {
			return ""
		}
		return " It is " + playDescribe(op, name) + "."
	}
	switch st.Kind {
	case kindNegative:
		negative := slices.IndexFunc(l.Strides, func(s int) bool { return s < 0 })
		st.Headline = "Refused: a negative stride"
		st.Sentence = fmt.Sprintf("Dimension %d has stride %d: it walks the storage backwards. NumPy allows that (x[::-1] is a view), PyTorch does not (torch.flip copies); switch to NumPy's rules to see the layout.",
			negative, l.Strides[negative])
		st.Detail = "as_strided refuses it: RuntimeError: as_strided: Negative strides are not supported at the moment, got strides: " + playList(l.Strides)
	case kindOutOfBounds:
		playExplainOutOfBounds(st, b)
	case kindOverlapping:
		shared, most, mostReads := playShared(st.Reads)
		st.Headline = "Overlapping"
		slots := "slots are"
		if shared == 1 {
			slots = "slot is"
		}
		st.Sentence = fmt.Sprintf("%d %s read by more than one position (slot %d by %d).%s Reading is well defined; writing is not, since one slot cannot keep two values.",
			shared, slots, most, mostReads, opClause())
		st.Detail = "An in-place write, such as y.CopyFrom(z) (y.copy_(z) in PyTorch), is refused: RuntimeError: unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation."
	case kindContiguous:
		st.Headline = "Contiguous"
		st.Sentence = fmt.Sprintf("In row-major order the positions read consecutive slots, from slot %d, with no gaps.", l.Offset)
		if op != nil {
			st.Sentence += opClause()
		} else {
			st.Sentence += " No single view op of " + name + " makes it: as_strided does."
		}
	case kindView:
		st.Headline = "A view PyTorch makes"
		if op.goExpr == "" {
			st.Headline = "A view NumPy makes"
		}
		st.Sentence = "It is " + playDescribe(op, name) + ". Not contiguous, and no slot is read twice."
		if op.goExpr == "" {
			st.Detail = "PyTorch has no negative strides: torch.flip makes a copy, and tensor follows PyTorch (the Go line fails as as_strided does)."
		}
	case kindStrided:
		st.Headline = "Only as_strided makes this"
		st.Sentence = "Every position reads a slot of its own inside the storage, but not in row-major order, and no single view op of " + name + " makes this layout: as_strided does."
	}
}

// playExplainOutOfBounds names the first position outside the storage,
// with the arithmetic of its address, and what as_strided says of it.
func playExplainOutOfBounds(st *playState, b *playBase) {
	l := st.Layout
	addr := 0
	for _, a := range st.Addresses {
		if a < 0 || a >= l.Storage {
			addr = a
			break
		}
	}
	where := fmt.Sprintf("past the last slot, %d", l.Storage-1)
	if addr < 0 {
		where = "before slot 0"
	}
	st.Headline = "Out of bounds"
	st.Sentence = fmt.Sprintf("Position %s reads slot %s, %s: the storage has slots 0 to %d.",
		playList(st.Outside), playArithmetic(l, st.Outside), where, l.Storage-1)
	if l.NumPy {
		st.Detail = "NumPy's as_strided does not check: that position would read memory outside the buffer."
		return
	}
	need := l.Offset + 1
	for d, s := range l.Shape {
		need += (s - 1) * l.Strides[d]
	}
	st.Detail = fmt.Sprintf("as_strided refuses it: RuntimeError: setStorage: sizes %s, strides %s, storage offset %d, and itemsize %d requiring a storage size of %d are out of bounds for storage of size %d",
		playList(l.Shape), playList(l.Strides), l.Offset, b.Item, need*b.Item, l.Storage*b.Item)
}

// playWalk reads the positions in row-major order and says how each address
// follows the one before: the first starts; an address outside the
// storage is out; a slot read before repeats; the next slot steps; any
// other move jumps. The walk's pattern is the most telling move made.
func playWalk(l playLayout, addresses []int) (steps []string, deltas []int, pattern, summary string) {
	seen := map[int]bool{}
	var jumps []string
	repeats, outs := 0, 0
	for k, a := range addresses {
		step := "jump"
		switch {
		case k == 0 && (a < 0 || a >= l.Storage):
			step = "out"
		case k == 0:
			step = "start"
		case a < 0 || a >= l.Storage:
			step = "out"
		case seen[a]:
			step = "repeat"
		case a == addresses[k-1]+1:
			step = "step"
		}
		delta := 0
		if k > 0 {
			delta = a - addresses[k-1]
		}
		switch step {
		case "out":
			outs++
		case "repeat":
			repeats++
		case "jump":
			if j := fmt.Sprintf("%+d", delta); !slices.Contains(jumps, j) {
				jumps = append(jumps, j)
			}
		}
		steps, deltas = append(steps, step), append(deltas, delta)
		seen[a] = true
	}
	switch {
	case outs > 0:
		return steps, deltas, "out", fmt.Sprintf("Out of bounds: %d of the %d reads fall outside the storage.", outs, len(addresses))
	case repeats > 0:
		return steps, deltas, "repeats", fmt.Sprintf("Repeats: %d of the %d reads go back to a slot already read.", repeats, len(addresses))
	case len(jumps) > 0:
		return steps, deltas, "jumps", "Jumps: the reads move through the storage by " + strings.Join(jumps, ", ") + ", not one slot at a time."
	}
	return steps, deltas, "steps", "Steps by one: every read is the slot after the one before, so logical order is storage order."
}

// playStorageGo returns a Go expression for a storage of n slots: x's storage
// when n is its length, else its first n slots copied, or its slots and
// zeros after them; 0, 1, 2, … for a blank playground.
func playStorageGo(b *playBase, n int) string {
	switch {
	case b.Blank:
		return "tensor.Arange(" + strconv.Itoa(n) + ")"
	case n == b.Storage:
		return b.Go
	case n < b.Storage:
		return b.Go + ".AsStrided([]int{" + strconv.Itoa(n) + "}, []int{1}, 0).Clone()"
	}
	return "tensor.Cat([]*tensor.Tensor{" + b.Go + ".AsStrided([]int{" + strconv.Itoa(b.Storage) + "}, []int{1}, 0), " +
		b.Go + ".DType().Zeros(" + strconv.Itoa(n-b.Storage) + ")}, 0)"
}

// A playOp is a view op of x that makes a layout.
type playOp struct {
	key    string // identity, permute, view, index, diagonal, expand, unfold
	py     string // in PyTorch's words (NumPy's for a negative step)
	goExpr string // in Go; "" when tensor cannot make it (a negative step)
	why    string // what makes the layout this op's
}

// playFindOp finds the view op of x that makes layout l, trying in turn x
// itself, a permutation of its dimensions, a view with another shape (of
// a contiguous x), an index (slices, steps and integers), a diagonal, an
// expand of an index, an unfold, and, for a contiguous x of two or more
// dimensions, an index and an unfold of x.View(-1). The layout must be
// over x's own storage. It returns nil if none makes it.
func playFindOp(b *playBase, l playLayout) *playOp {
	if l.Storage != b.Storage {
		return nil
	}
	bs, bt, bo := b.Shape, b.Strides, b.Offset
	s, t, o := l.Shape, l.Strides, l.Offset
	r, q := len(bs), len(s)
	name := b.Name
	if slices.Equal(s, bs) && slices.Equal(t, bt) && o == bo {
		return &playOp{"identity", b.Py, b.Go, name + " itself"}
	}
	if q == r && o == bo && r >= 2 {
		for _, p := range playPermutations(r) {
			match := true
			for i, d := range p {
				match = match && s[i] == bs[d] && t[i] == bt[d]
			}
			if !match {
				continue
			}
			why := "the sizes and strides of " + name + "'s dimensions, in another order"
			var moved []int
			for i, d := range p {
				if i != d {
					moved = append(moved, i)
				}
			}
			switch {
			case r == 2:
				return &playOp{"permute", b.Py + ".T", b.Go + ".T()", why}
			case len(moved) == 2:
				args := strconv.Itoa(moved[0]) + ", " + strconv.Itoa(moved[1])
				return &playOp{"permute", b.Py + ".transpose(" + args + ")", b.Go + ".Transpose(" + args + ")", why}
			}
			return &playOp{"permute", b.Py + ".permute(" + playJoin(p) + ")", b.Go + ".Permute(" + playJoin(p) + ")", why}
		}
	}
	dense := slices.Equal(bt, playRowMajor(bs))
	if dense && o == bo && playNumel(s) == playNumel(bs) && slices.Equal(t, playRowMajor(s)) {
		return &playOp{"view", b.Py + ".view(" + playJoin(s) + ")", b.Go + ".View(" + playJoin(s) + ")",
			name + "'s elements in the same order, under another shape"}
	}
	if spec, negative, ok := playMatchIndex(bs, bt, bo, s, t, o, nil, l.NumPy); ok {
		return playIndexOp(b.Py, b.Go, spec, negative, name)
	}
	if q == r-1 && r >= 2 {
		if op := playMatchDiagonal(b, l); op != nil {
			return op
		}
	}
	if op := playMatchExpand(b, l); op != nil {
		return op
	}
	if op := playMatchUnfold(b.Py, b.Go, name, bs, bt, bo, l); op != nil {
		return op
	}
	if dense && r >= 2 {
		flat := []int{playNumel(bs)}
		py, goExpr, flatName := b.Py+".view(-1)", b.Go+".View(-1)", "the flattened "+name
		if spec, negative, ok := playMatchIndex(flat, []int{1}, bo, s, t, o, nil, l.NumPy); ok {
			return playIndexOp(py, goExpr, spec, negative, flatName)
		}
		if op := playMatchUnfold(py, goExpr, flatName, flat, []int{1}, bo, l); op != nil {
			return op
		}
	}
	return nil
}

// playDescribe says which op makes a layout and why.
func playDescribe(op *playOp, name string) string {
	if op.key == "identity" {
		return name + " itself, as given"
	}
	return op.py + ": " + op.why
}

// playIndexOp is the op x[spec].
func playIndexOp(py, goExpr, spec string, negative bool, name string) *playOp {
	op := &playOp{key: "index", py: py + "[" + spec + "]", goExpr: goExpr + `.Index("` + spec + `")`,
		why: "each stride is " + name + "'s times the step, an integer index drops its dimension, and the offset moves to the first element taken"}
	if negative {
		op.goExpr = ""
	}
	return op
}

// playPermutations returns every order of 0 … r-1 but the identity, in
// lexicographic order.
func playPermutations(r int) [][]int {
	var out [][]int
	var grow func(p []int)
	grow = func(p []int) {
		if len(p) == r {
			for i, d := range p {
				if i != d {
					out = append(out, slices.Clone(p))
					return
				}
			}
			return
		}
		for d := range r {
			if !slices.Contains(p, d) {
				grow(append(p, d))
			}
		}
	}
	grow(nil)
	return out
}

// playCombinations returns every increasing choice of q of 0 … r-1, in
// lexicographic order.
func playCombinations(r, q int) [][]int {
	var out [][]int
	var grow func(c []int, next int)
	grow = func(c []int, next int) {
		if len(c) == q {
			out = append(out, slices.Clone(c))
			return
		}
		for d := next; d < r; d++ {
			grow(append(c, d), d+1)
		}
	}
	grow(nil, 0)
	return out
}

// playMatchIndex finds the index expression that makes layout (s, t, o) from
// a tensor of shape bs, strides bt and offset bo: for each dimension of
// the tensor, an integer (the dimension is dropped) or a slice
// start:stop:step (the dimension is kept, its stride multiplied by the
// step), the kept ones in order. Negative steps are allowed if numpy. A
// wild dimension of the layout is one an expand will stretch: it must be
// a slice of one element, whatever its stride. The first match is
// returned, trying the kept dimensions and then the starts in
// lexicographic order; the expression leaves out trailing full slices
// (x[1] rather than x[1, :]), and is "" for the whole tensor.
func playMatchIndex(bs, bt []int, bo int, s, t []int, o int, wild []bool, numpy bool) (spec string, negative, ok bool) {
	r, q := len(bs), len(s)
	if q > r {
		return "", false, false
	}
	for _, kept := range playCombinations(r, q) {
		steps, sizes := make([]int, r), make([]int, r)
		keptAt := make([]int, r) // the layout dimension of each kept tensor dimension, or -1
		for d := range keptAt {
			keptAt[d] = -1
		}
		fits := true
		for j, d := range kept {
			keptAt[d] = j
			size, step := s[j], 1
			switch {
			case wild != nil && wild[j]:
				size = 1
			case bt[d] == 0:
				fits = fits && t[j] == 0
			case t[j]%bt[d] != 0 || t[j] == 0:
				fits = false
			default:
				step = t[j] / bt[d]
				fits = fits && (step > 0 || numpy)
			}
			steps[d], sizes[d] = step, size
			fits = fits && (size-1)*playAbs(step) <= bs[d]-1
		}
		if !fits {
			continue
		}
		lo, hi := make([]int, r), make([]int, r) // the starts each dimension may take
		for d := range r {
			switch j := keptAt[d]; {
			case j < 0:
				lo[d], hi[d] = 0, bs[d]-1
			case steps[d] > 0:
				lo[d], hi[d] = 0, bs[d]-1-(sizes[d]-1)*steps[d]
			default:
				lo[d], hi[d] = (sizes[d]-1)*-steps[d], bs[d]-1
			}
		}
		starts := make([]int, r)
		var solve func(d, rest int) bool
		solve = func(d, rest int) bool {
			if d == r {
				return rest == 0
			}
			for i := lo[d]; i <= hi[d]; i++ {
				starts[d] = i
				if solve(d+1, rest-i*bt[d]) {
					return true
				}
			}
			return false
		}
		if !solve(0, o-bo) {
			continue
		}
		items := make([]string, r)
		for d := range r {
			if keptAt[d] < 0 {
				items[d] = strconv.Itoa(starts[d])
				continue
			}
			items[d] = playSliceText(starts[d], sizes[d], steps[d], bs[d])
			negative = negative || steps[d] < 0
		}
		for len(items) > 0 && items[len(items)-1] == ":" {
			items = items[:len(items)-1]
		}
		return strings.Join(items, ", "), negative, true
	}
	return "", false, false
}

// playSliceText writes the slice that takes size elements of a dimension of
// length n from start, every step: as short as Python allows.
func playSliceText(start, size, step, n int) string {
	if step > 0 {
		first, stop := "", ""
		if start != 0 {
			first = strconv.Itoa(start)
		}
		if (n-start+step-1)/step != size { // the elements an omitted stop would take
			stop = strconv.Itoa(start + (size-1)*step + 1)
		}
		by := ""
		if step != 1 {
			by = ":" + strconv.Itoa(step)
		}
		return first + ":" + stop + by
	}
	first, stop := "", ""
	if start != n-1 {
		first = strconv.Itoa(start)
	}
	if start/-step+1 != size {
		stop = strconv.Itoa(start + (size-1)*step - 1)
	}
	return first + ":" + stop + ":" + strconv.Itoa(step)
}

func playAbs(v int) int { return max(v, -v) }

// playMatchDiagonal finds the diagonal op, x.Diagonal(k, d1, d2) with d1 <
// d2, that makes l: the two dimensions are dropped and a last one steps
// along both at once, with stride bt[d1] + bt[d2]. Offsets k are tried
// from 0 out: 0, 1, -1, 2, -2, …
func playMatchDiagonal(b *playBase, l playLayout) *playOp {
	bs, bt, r := b.Shape, b.Strides, len(b.Shape)
	longest := slices.Max(bs)
	for d1 := range r {
		for d2 := d1 + 1; d2 < r; d2++ {
			for n := 0; n < 2*longest; n++ {
				k := (n + 1) / 2
				if n%2 == 0 {
					k = -k
				}
				size, start := 0, b.Offset
				if k >= 0 {
					size = min(bs[d1], bs[d2]-k)
					start += k * bt[d2]
				} else {
					size = min(bs[d1]+k, bs[d2])
					start -= k * bt[d1]
				}
				if size <= 0 || start != l.Offset {
					continue
				}
				var shape, strides []int
				for d := range r {
					if d != d1 && d != d2 {
						shape, strides = append(shape, bs[d]), append(strides, bt[d])
					}
				}
				shape, strides = append(shape, size), append(strides, bt[d1]+bt[d2])
				if !slices.Equal(shape, l.Shape) || !slices.Equal(strides, l.Strides) {
					continue
				}
				py := fmt.Sprintf("%s.diagonal(%d, %d, %d)", b.Py, k, d1, d2)
				if d1 == 0 && d2 == 1 {
					py = b.Py + ".diagonal()"
					if k != 0 {
						py = fmt.Sprintf("%s.diagonal(%d)", b.Py, k)
					}
				}
				return &playOp{"diagonal", py, fmt.Sprintf("%s.Diagonal(%d, %d, %d)", b.Go, k, d1, d2),
					fmt.Sprintf("one step moves along dimensions %d and %d of %s at once, stride %d + %d = %d", d1, d2, b.Name, bt[d1], bt[d2], bt[d1]+bt[d2])}
			}
		}
	}
	return nil
}

// playMatchExpand finds an expand of an index of x that makes l, where l has
// a dimension of stride 0 and size over 1: its leading such dimensions
// are new ones, added by expand, and the other such dimensions are
// slices of one element that expand stretches: x[0].expand(3, 4).
func playMatchExpand(b *playBase, l playLayout) *playOp {
	s, t := l.Shape, l.Strides
	stretched := func(j int) bool { return t[j] == 0 && s[j] > 1 }
	lead := 0
	for lead < len(s) && stretched(lead) {
		lead++
	}
	wild := make([]bool, len(s)-lead)
	stretch := lead > 0
	for j := range wild {
		wild[j] = stretched(lead + j)
		stretch = stretch || wild[j]
	}
	if !stretch {
		return nil
	}
	spec, negative, ok := playMatchIndex(b.Shape, b.Strides, b.Offset, s[lead:], t[lead:], l.Offset, wild, l.NumPy)
	if !ok {
		return nil
	}
	py, goExpr := b.Py, b.Go
	if spec != "" {
		py, goExpr = py+"["+spec+"]", goExpr+`.Index("`+spec+`")`
	}
	op := &playOp{"expand", py + ".expand(" + playJoin(s) + ")", goExpr + ".Expand(" + playJoin(s) + ")",
		"stride 0 reads one slot all along a stretched dimension, so nothing is copied"}
	if negative {
		op.goExpr = ""
	}
	return op
}

// playMatchUnfold finds the unfold op, x.Unfold(d, size, step), that makes l
// from the tensor (bs, bt, bo) called name: dimension d counts windows,
// its stride times step, and a new last dimension walks a window with
// d's stride. Dimensions, sizes and steps are tried in increasing order,
// steps up to the dimension's length.
func playMatchUnfold(py, goExpr, name string, bs, bt []int, bo int, l playLayout) *playOp {
	if len(l.Shape) != len(bs)+1 || l.Offset != bo {
		return nil
	}
	for d := range bs {
		for size := 1; size <= bs[d]; size++ {
			for step := 1; step <= bs[d]; step++ {
				shape, strides := slices.Clone(bs), slices.Clone(bt)
				shape[d] = (bs[d]-size)/step + 1
				strides[d] *= step
				shape, strides = append(shape, size), append(strides, bt[d])
				if !slices.Equal(shape, l.Shape) || !slices.Equal(strides, l.Strides) {
					continue
				}
				args := fmt.Sprintf("%d, %d, %d", d, size, step)
				return &playOp{"unfold", py + ".unfold(" + args + ")", goExpr + ".Unfold(" + args + ")",
					fmt.Sprintf("windows of %d elements of %s, one every %d, so windows share slots when the step is smaller than the window", size, name, step)}
			}
		}
	}
	return nil
}
