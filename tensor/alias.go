package tensor

import "slices"

// SharesStorage reports whether x and y read the same storage allocation,
// whatever their offsets: the test behind comparing PyTorch's
// untyped_storage().data_ptr(). Views of one tensor share storage; copies
// do not.
func (x *Tensor) SharesStorage(y *Tensor) bool {
	x.must("SharesStorage")
	mustArg("SharesStorage", y)
	return x.storage == y.storage
}

// MayShareMemory reports whether the storage slots x and y could reach
// overlap, judging by their bounds only, like np.may_share_memory. It can
// report true for two views that interleave without touching.
func (x *Tensor) MayShareMemory(y *Tensor) bool {
	x.must("MayShareMemory")
	mustArg("MayShareMemory", y)
	if x.storage != y.storage || x.Numel() == 0 || y.Numel() == 0 {
		return false
	}
	xlo, xhi := x.span()
	ylo, yhi := y.span()
	return xlo < yhi && ylo < xhi
}

// SharesMemory reports whether some storage slot is read by both x and y,
// exactly, like np.shares_memory: x[:, 0::2] and x[:, 1::2] share storage
// but not memory.
func (x *Tensor) SharesMemory(y *Tensor) bool {
	x.must("SharesMemory")
	mustArg("SharesMemory", y)
	if !x.MayShareMemory(y) {
		return false
	}
	xlo, xhi := x.span()
	ylo, yhi := y.span()
	lo, hi := max(xlo, ylo), min(xhi, yhi)
	// Mark the slots x reads within the common range, then look for a slot
	// of y among them. Stride-0 dimensions add no slots and are skipped.
	marked := make([]bool, hi-lo)
	addresses(x, func(a int) bool {
		if a >= lo && a < hi {
			marked[a-lo] = true
		}
		return true
	})
	found := false
	addresses(y, func(a int) bool {
		if a >= lo && a < hi && marked[a-lo] {
			found = true
		}
		return !found
	})
	return found
}

// addresses calls visit with the storage slot of every distinct position of
// x (dimensions of stride 0 are walked once) until visit returns false.
func addresses(x *Tensor, visit func(int) bool) {
	var shape, strides []int
	for d, size := range x.shape {
		if x.strides[d] != 0 {
			shape = append(shape, size)
			strides = append(strides, x.strides[d])
		}
	}
	l := newLoop(shape, []int{x.offset}, strides)
	n, step := l.rowLen(), l.inner(0)
	more := true
	l.each(0, l.rows(), func(offs []int) {
		for j := 0; j < n && more; j++ {
			more = visit(offs[0] + j*step)
		}
	})
}

// overlap says how two tensors' memory relates, as PyTorch's
// MemOverlapStatus does.
type overlap int

const (
	overlapNone    overlap = iota
	overlapFull            // the same elements in the same layout
	overlapPartial         // some elements in common, in another layout
	overlapTooHard         // a layout PyTorch does not analyse
)

// overlapOf compares a and b as PyTorch's get_overlap_status does: only
// tensors whose elements fill their span exactly once are compared.
func overlapOf(a, b *Tensor) overlap {
	if a == b {
		return overlapFull
	}
	if a.Numel() == 0 || b.Numel() == 0 {
		return overlapNone
	}
	if !a.isNonOverlappingAndDense() || !b.isNonOverlappingAndDense() {
		return overlapTooHard
	}
	if a.storage != b.storage {
		return overlapNone
	}
	alo, ahi := a.span()
	blo, bhi := b.span()
	switch {
	case alo == blo && ahi == bhi:
		if slices.Equal(a.strides, b.strides) {
			return overlapFull
		}
		return overlapPartial
	case alo < bhi && blo < ahi:
		return overlapPartial
	}
	return overlapNone
}

// checkNoInternalOverlap refuses a write to a tensor in which two
// positions are the same storage slot: an expanded tensor, or windows of
// Unfold that overlap. PyTorch refuses the first kind (a stride of 0) and
// writes the second element by element, so that its result depends on the
// order of the writes; tensornb refuses both, with PyTorch's message.
func checkNoInternalOverlap(op string, x *Tensor) {
	if !x.isNonOverlappingAndDense() && x.overlapsItself() {
		fail(op, "unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.")
	}
}

// checkNoPartialOverlap refuses a write to out that reads in, when in
// reads slots that out writes, in another layout: the result would depend
// on the order of the writes. PyTorch finds this only between tensors
// whose elements fill their span exactly once, and otherwise writes in an
// order that decides the result; tensornb refuses every such write, with
// PyTorch's message.
func checkNoPartialOverlap(op string, out, in *Tensor) {
	status := overlapOf(out, in)
	if status == overlapPartial || status == overlapTooHard && readsWritten(out, in) {
		fail(op, "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation.")
	}
}

// overlapsItself reports whether two positions of x are one storage slot.
func (x *Tensor) overlapsItself() bool {
	type dim struct{ size, stride int }
	var ds []dim
	for d, size := range x.shape {
		if size > 1 {
			if x.strides[d] == 0 {
				return true
			}
			ds = append(ds, dim{size, max(x.strides[d], -x.strides[d])})
		}
	}
	// Enough for most layouts: in the order of increasing strides, each
	// stride steps past everything the smaller ones reach.
	slices.SortFunc(ds, func(a, b dim) int { return a.stride - b.stride })
	reach, apart := 0, true
	for _, d := range ds {
		apart = apart && d.stride > reach
		reach += d.stride * (d.size - 1)
	}
	if apart {
		return false
	}
	// Otherwise mark every slot, once.
	lo, hi := x.span()
	if x.Numel() > hi-lo {
		return true
	}
	seen := newSlotSet(lo, hi)
	twice := false
	x.visit(func(off int) { twice = seen.add(off) || twice })
	return twice
}

// readsWritten reports whether in reads a slot that out writes, and the
// two are not the same layout of the same slots.
func readsWritten(out, in *Tensor) bool {
	if out.storage != in.storage || out.Numel() == 0 || in.Numel() == 0 {
		return false
	}
	if in.offset == out.offset && slices.Equal(in.shape, out.shape) && slices.Equal(in.strides, out.strides) {
		return false
	}
	olo, ohi := out.span()
	ilo, ihi := in.span()
	lo, hi := max(olo, ilo), min(ohi, ihi)
	if lo >= hi {
		return false
	}
	written := newSlotSet(lo, hi)
	out.unrepeated().visit(func(off int) {
		if off >= lo && off < hi {
			written.add(off)
		}
	})
	read := false
	in.unrepeated().visit(func(off int) { read = read || off >= lo && off < hi && written.has(off) })
	return read
}

// A slotSet holds storage slots from lo to hi-1, a bit each.
type slotSet struct {
	lo    int
	words []uint64
}

func newSlotSet(lo, hi int) *slotSet {
	return &slotSet{lo: lo, words: make([]uint64, (hi-lo+63)/64)}
}

// add puts slot in the set and reports whether it was there already.
func (s *slotSet) add(slot int) bool {
	i := slot - s.lo
	had := s.has(slot)
	s.words[i/64] |= 1 << (i % 64)
	return had
}

func (s *slotSet) has(slot int) bool {
	i := slot - s.lo
	return s.words[i/64]&(1<<(i%64)) != 0
}
