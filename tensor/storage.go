package tensor

import (
	"fmt"
	"math"
	"math/bits"
	"runtime/debug"
	"sync"
	"unsafe"

	"github.com/tensornb/tensornb/internal/storagecount"
)

// memoryLimit is physicalMemory, read once.
var memoryLimit = sync.OnceValue(physicalMemory)

// fallbackMemory is the limit where the memory cannot be read: 1 TiB.
const fallbackMemory = 1 << 40

// A Storage is the flat, typed buffer behind one or more tensors. Views of a
// tensor share its *Storage; the pointer is the storage's identity, so two
// tensors alias the same allocation exactly when their Storage pointers are
// equal.
type Storage struct {
	dtype DType
	// data is a []float32, []float64, []int64, []int32, []uint8, []bool, or
	// for Float16 and BFloat16 a []uint16 holding the bit patterns.
	data any
	n    int
	// version counts the in-place writes to the storage, which autograd
	// checks values it saved against.
	version int
}

// checkAllocation refuses, for op, to allocate n items of size bytes
// each when they could not fit in memory. Go cannot recover from running
// out of memory, so a request that cannot fit is refused before it is
// made, with PyTorch's allocator's words. The memory is the machine's (or
// its container's), or the Go memory limit (GOMEMLIMIT,
// debug.SetMemoryLimit) when that is lower.
func checkAllocation(op string, n, size int) {
	hi, bytes := bits.Mul64(uint64(n), uint64(size))
	if hi == 0 && bytes <= smallAllocation {
		return // the common case, decided without asking the runtime
	}
	goLimit := debug.SetMemoryLimit(-1) // -1 reads the limit
	if hi == 0 && n <= maxElements && bytes <= memoryLimit() && bytes <= uint64(goLimit) {
		return
	}
	asked := fmt.Sprintf("%d bytes", bytes)
	if hi != 0 {
		asked = fmt.Sprintf("%d × %d bytes", n, size)
	}
	if goLimit < int64(memoryLimit()) {
		fail(op, "DefaultCPUAllocator: can't allocate memory: you tried to allocate %s, and the Go memory limit (GOMEMLIMIT) is %d bytes", asked, goLimit)
	}
	fail(op, "DefaultCPUAllocator: can't allocate memory: you tried to allocate %s, and this machine has %d bytes of memory", asked, memoryLimit())
}

// smallAllocation is a size that any memory this package runs in holds:
// requests up to it are not checked further.
const smallAllocation = 64 << 20

// newStorage returns a storage of n zeroed slots.
func newStorage(dt DType, n int) *Storage { return allocate(dt, n, true) }

// newUnfilledStorage returns a storage of n slots that are not cleared:
// for a result whose every slot is written before it is read.
func newUnfilledStorage(dt DType, n int) *Storage { return allocate(dt, n, false) }

// allocate returns a storage of n slots, zeroed or not.
func allocate(dt DType, n int, zeroed bool) *Storage {
	checkAllocation("storage", n, dt.ItemSize())
	storagecount.Add() // for package check, which tells copies from views
	s := &Storage{dtype: dt, n: n}
	switch dt {
	case Float32:
		s.data = slots[float32](n, zeroed)
	case Float64:
		s.data = slots[float64](n, zeroed)
	case Int64:
		s.data = slots[int64](n, zeroed)
	case Int32:
		s.data = slots[int32](n, zeroed)
	case Uint8:
		s.data = slots[uint8](n, zeroed)
	case Bool:
		s.data = slots[bool](n, zeroed)
	case Float16, BFloat16:
		s.data = slots[uint16](n, zeroed)
	default:
		dt.check("storage")
	}
	return s
}

// A nil *Storage reads as an empty float32 storage, as a nil slice reads
// as an empty one.

// DType returns the element type of the storage.
func (s *Storage) DType() DType {
	if s == nil {
		return Float32
	}
	return s.dtype
}

// Len returns the number of elements in the storage.
func (s *Storage) Len() int {
	if s == nil {
		return 0
	}
	return s.n
}

// NBytes returns the size of the storage in bytes.
func (s *Storage) NBytes() int { return s.Len() * s.DType().ItemSize() }

// DataPtr returns the address of the storage's first slot, the storage base
// (PyTorch's untyped_storage().data_ptr()). It is 0 for an empty storage.
func (s *Storage) DataPtr() uintptr {
	if s.Len() == 0 {
		return 0
	}
	return uintptr(unsafe.Pointer(&s.bytes()[0]))
}

// At returns the value in slot i, converted to float64.
func (s *Storage) At(i int) float64 {
	if i < 0 || i >= s.Len() {
		failIndex("storage", "index %d is out of bounds for storage of size %d", i, s.Len())
	}
	return s.load(i)
}

// load reads slot i as a float64 without a bounds message.
func (s *Storage) load(i int) float64 {
	switch d := s.data.(type) {
	case []float32:
		return float64(d[i])
	case []float64:
		return d[i]
	case []int64:
		return float64(d[i])
	case []int32:
		return float64(d[i])
	case []uint8:
		return float64(d[i])
	case []bool:
		if d[i] {
			return 1
		}
		return 0
	case []uint16:
		if s.dtype == Float16 {
			return float64(halfToFloat32(d[i]))
		}
		return float64(bfloat16ToFloat32(d[i]))
	}
	panic("tensor: unknown storage type")
}

// store writes v to slot i, converting it as PyTorch on x86 converts a
// float to the storage's type (see floatToInt64).
func (s *Storage) store(i int, v float64) {
	switch d := s.data.(type) {
	case []float32:
		d[i] = float32(v)
	case []float64:
		d[i] = v
	case []int64:
		d[i] = floatToInt64(v)
	case []int32:
		d[i] = floatToInt32(v)
	case []uint8:
		d[i] = uint8(floatToInt64(v))
	case []bool:
		d[i] = v != 0
	case []uint16:
		if s.dtype == Float16 {
			d[i] = float32ToHalf(float32(v))
		} else {
			d[i] = float32ToBFloat16(float32(v))
		}
	}
}

// floatToInt64 and floatToInt32 truncate toward zero, as PyTorch's C
// casts do. For NaN and values outside the type's range C leaves the
// result undefined; PyTorch's x86 builds give the lowest value of the
// type, and so do these, whatever the platform. Uint8 takes the low bits
// of the 64-bit conversion, as x86 code does (-2147483649 becomes 255).
func floatToInt64(v float64) int64 {
	if v != v || v >= 1<<63 || v < -1<<63 {
		return math.MinInt64
	}
	return int64(v)
}

func floatToInt32(v float64) int32 {
	if v != v || v >= 1<<31 || v < -1<<31 {
		return math.MinInt32
	}
	return int32(v)
}

// bytes returns the storage's memory as bytes.
func (s *Storage) bytes() []byte {
	size := s.dtype.ItemSize()
	if s.n == 0 {
		return nil
	}
	var p unsafe.Pointer
	switch d := s.data.(type) {
	case []float32:
		p = unsafe.Pointer(&d[0])
	case []float64:
		p = unsafe.Pointer(&d[0])
	case []int64:
		p = unsafe.Pointer(&d[0])
	case []int32:
		p = unsafe.Pointer(&d[0])
	case []uint8:
		p = unsafe.Pointer(&d[0])
	case []bool:
		p = unsafe.Pointer(&d[0])
	case []uint16:
		p = unsafe.Pointer(&d[0])
	}
	return unsafe.Slice((*byte)(p), s.n*size)
}

// words returns the storage's memory as a slice of unsigned words of the
// element size, for operations that move elements without reading them.
func words[W uint8 | uint16 | uint32 | uint64](s *Storage) []W {
	b := s.bytes()
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*W)(unsafe.Pointer(&b[0])), s.n)
}

// typed returns the storage's slice as []T; T must match the storage type.
func typed[T any](s *Storage) []T { return s.data.([]T) }
