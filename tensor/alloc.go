package tensor

import "unsafe"

// Go clears every slice it makes. For a result that an op writes in full,
// such as a copy or an elementwise sum, the clearing is wasted work: on the
// copy benchmarks it took as long as the copy itself, and it is the gap to
// NumPy, whose allocator hands back recycled memory as it is. slots skips
// it by asking the runtime's allocator for memory that need not be
// cleared. runtime.mallocgc is one of the runtime functions whose
// signature the Go project keeps for packages that reach it this way
// (go.dev/issue/67401); the element types here hold no pointers, so the
// memory is allocated as such (no type: nothing for the collector to
// scan).

//go:linkname mallocgc runtime.mallocgc
func mallocgc(size uintptr, typ unsafe.Pointer, needzero bool) unsafe.Pointer

// slots returns n elements of the pointer-free type T. Unless zeroed, the
// memory is not cleared first and holds whatever it last held: the caller
// must write every element before the slice is read.
func slots[T any](n int, zeroed bool) []T {
	if zeroed || n == 0 {
		return make([]T, n)
	}
	var t T
	size := uintptr(n) * unsafe.Sizeof(t)
	p := mallocgc(size, nil, false)
	if poisonUnfilled {
		b := unsafe.Slice((*byte)(p), size)
		for i := range b {
			b[i] = poisonByte
		}
	}
	return unsafe.Slice((*T)(p), n)
}

// poisonUnfilled, set by the package's tests, fills memory slots would
// leave uncleared with poisonByte, so that a slot an op forgets to write
// reads as a value no op computes (a NaN, 0xA5A5… integers, a Bool that is
// neither) rather than as a zero that may pass for a result.
var poisonUnfilled = false

const poisonByte = 0xA5
