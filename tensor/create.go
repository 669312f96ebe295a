package tensor

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync"
)

// New returns a tensor holding a copy of data, like torch.tensor. data is a
// []float32, []float64, []int64, []int32, []int (stored as Int64), []uint8
// or []bool, and its Go type sets the dtype. Without a shape the tensor is
// 1-D; with one, its element count must equal len(data).
//
//	a := tensor.New([]int64{0, 10, 20}, 3, 1)
func New(data any, shape ...int) *Tensor {
	var x *Tensor
	switch d := data.(type) {
	case []float32:
		x = newFrom(Float32, d, shape)
	case []float64:
		x = newFrom(Float64, d, shape)
	case []int64:
		x = newFrom(Int64, d, shape)
	case []int32:
		x = newFrom(Int32, d, shape)
	case []uint8:
		x = newFrom(Uint8, d, shape)
	case []bool:
		x = newFrom(Bool, d, shape)
	case []int:
		wide := make([]int64, len(d))
		for i, v := range d {
			wide[i] = int64(v)
		}
		x = newFrom(Int64, wide, shape)
	default:
		failType("tensor", "cannot make a tensor from %T; use []float32, []float64, []int64, []int32, []int, []uint8 or []bool", data)
	}
	return x
}

func newFrom[T any](dt DType, data []T, shape []int) *Tensor {
	if len(shape) == 0 { // nil from a Go call, empty from the interpreter's
		shape = []int{len(data)}
	}
	checkShape("tensor", shape)
	if n := Shape(shape).Numel(); n != len(data) {
		fail("tensor", "shape '%s' is invalid for input of size %d", listString(shape), len(data))
	}
	x := newTensor(dt, shape)
	copy(typed[T](x.storage), data)
	return x
}

// Scalar returns a 0-dimensional tensor holding v, a Go number or bool,
// like torch.tensor(v): an integer gives Int64, a float gives Float32 and a
// bool gives Bool.
func Scalar(v any) *Tensor {
	x, dt := numberTensor("tensor", v)
	return x.To(dt)
}

// Arange returns the Int64 tensor [start, end) with the given step, like
// torch.arange with integer arguments: Arange(end), Arange(start, end) or
// Arange(start, end, step).
func Arange(limits ...int) *Tensor {
	start, end, step := arangeBounds(limits)
	// Count in unsigned arithmetic, which cannot overflow for any bounds.
	span, stride := uint64(end)-uint64(start), uint64(step)
	if step < 0 {
		span, stride = uint64(start)-uint64(end), -uint64(step)
	}
	count := span / stride
	if span%stride != 0 {
		count++
	}
	if count > maxElements {
		fail("arange", "invalid size, possible overflow?")
	}
	x := newTensor(Int64, []int{int(count)})
	values := typed[int64](x.storage)
	for i := range values {
		values[i] = int64(start) + int64(i)*int64(step)
	}
	return x
}

// Arange returns a 1-D tensor of this dtype holding start, start+step, …
// up to but excluding end: Arange(end), Arange(start, end) or
// Arange(start, end, step), as torch.arange(..., dtype=dt).
//
//	x := tensor.Float32.Arange(24).View(2, 3, 4)
func (dt DType) Arange(limits ...float64) *Tensor {
	dt.check("arange")
	if dt == Bool {
		fail("arange", "\"arange_cpu\" not implemented for 'Bool'")
	}
	if slices.ContainsFunc(limits, func(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }) {
		fail("arange", "unsupported range: %v", limits)
	}
	start, end, step := arangeBounds(limits)
	count := math.Ceil((end - start) / step)
	if !(count <= maxElements) {
		fail("arange", "invalid size, possible overflow?")
	}
	x := newTensor(dt, []int{int(count)})
	for i := range int(count) {
		x.storage.store(i, start+float64(i)*step)
	}
	return x
}

// arangeBounds reads Arange's (end), (start, end) or (start, end, step)
// and checks them as PyTorch does.
func arangeBounds[T int | float64](limits []T) (start, end, step T) {
	step = 1
	switch len(limits) {
	case 1:
		end = limits[0]
	case 2:
		start, end = limits[0], limits[1]
	case 3:
		start, end, step = limits[0], limits[1], limits[2]
	default:
		failType("arange", "arange takes 1 to 3 arguments (end; start, end; or start, end, step), got %d", len(limits))
	}
	if step == 0 {
		fail("arange", "step must be nonzero")
	}
	if (step > 0 && start > end) || (step < 0 && start < end) {
		fail("arange", "upper bound and larger bound inconsistent with step sign")
	}
	return start, end, step
}

// Zeros returns a Float32 tensor of zeros, like torch.zeros.
func Zeros(shape ...int) *Tensor { return Float32.Zeros(shape...) }

// Ones returns a Float32 tensor of ones, like torch.ones.
func Ones(shape ...int) *Tensor { return Float32.Ones(shape...) }

// Full returns a tensor filled with v, like torch.full: an integer v gives
// an Int64 tensor, a float a Float32 one and a bool a Bool one.
func Full(v any, shape ...int) *Tensor {
	_, dt := numberTensor("full", v)
	return dt.Full(v, shape...)
}

// Empty returns a Float32 tensor of the given shape. Unlike torch.empty its
// elements are zero, since Go memory always is.
func Empty(shape ...int) *Tensor { return Float32.Empty(shape...) }

// Linspace returns steps evenly spaced Float32 values from start to end
// inclusive, like torch.linspace.
func Linspace(start, end float64, steps int) *Tensor { return Float32.Linspace(start, end, steps) }

// Rand returns a Float32 tensor of values drawn uniformly from [0, 1) by the
// global generator, like torch.rand.
func Rand(shape ...int) *Tensor { return Float32.Rand(shape...) }

// Randn returns a Float32 tensor of values drawn from the standard normal
// distribution by the global generator, like torch.randn.
func Randn(shape ...int) *Tensor { return Float32.Randn(shape...) }

// Zeros returns a tensor of zeros of this dtype.
func (dt DType) Zeros(shape ...int) *Tensor {
	dt.check("zeros")
	return newTensor(dt, shape)
}

// Empty returns a tensor of this dtype whose elements are zero.
func (dt DType) Empty(shape ...int) *Tensor {
	dt.check("empty")
	return newTensor(dt, shape)
}

// Ones returns a tensor of ones of this dtype.
func (dt DType) Ones(shape ...int) *Tensor { return dt.Full(1, shape...) }

// Full returns a tensor of this dtype filled with v, a Go number or bool.
func (dt DType) Full(v any, shape ...int) *Tensor {
	dt.check("full")
	x := newTensor(dt, shape)
	x.fill(dt.checkedScalar("full", v))
	return x
}

// Scalar returns a 0-dimensional tensor of this dtype holding v, a Go
// number or bool, converted as PyTorch converts it.
func (dt DType) Scalar(v any) *Tensor {
	dt.check("tensor")
	x, _ := numberTensor("tensor", v)
	return x.To(dt)
}

// Linspace returns steps evenly spaced values of this dtype from start to
// end inclusive, like torch.linspace(start, end, steps, dtype=dt).
//
// The values are computed as PyTorch's CPU kernel computes them, in the
// dtype's own precision: the first half counting up from start and the
// second half counting down from end, in runs of two vectors that each
// count from their first element. PyTorch's result can differ in the last
// bit on CPUs whose vector width differs from the AVX2 one modelled here.
func (dt DType) Linspace(start, end float64, steps int) *Tensor {
	dt.check("linspace")
	if steps < 0 {
		fail("linspace", "number of steps must be non-negative")
	}
	if dt == Bool {
		fail("linspace", "\"linspace_cpu\" not implemented for 'Bool'")
	}
	dt.checkedScalar("linspace", start)
	dt.checkedScalar("linspace", end)
	checkShape("linspace", []int{steps})
	x := newTensor(dt, []int{steps})
	if steps == 0 {
		return x
	}
	if steps == 1 {
		x.storage.store(0, start)
		return x
	}
	calc := linspaceCalc{dt: dt, start: dt.round(start), end: dt.round(end), steps: steps}
	if dt.IsFloatingPoint() {
		calc.step = dt.round(dt.round(calc.end-calc.start) / float64(steps-1))
	} else {
		calc.step = (calc.end - calc.start) / float64(steps-1)
	}
	// Full runs of two vectors of 32 bytes go through the vector path; the
	// rest, element by element.
	lanes := 32 / dt.ItemSize()
	vectorized := steps / (2 * lanes) * 2 * lanes
	for i := 0; i < vectorized; i += lanes {
		base := calc.at(i)
		for k := range lanes {
			x.storage.store(i+k, calc.add(base, k))
		}
	}
	for i := vectorized; i < steps; i++ {
		x.storage.store(i, calc.at(i))
	}
	return x
}

// linspaceCalc holds Linspace's operands, already rounded to the dtype.
type linspaceCalc struct {
	dt               DType
	start, end, step float64
	steps            int
}

// at is element i computed on its own: start + step·i below the halfway
// point, end - step·(steps-1-i) from it, with the multiply-add fused as the
// compiler fuses it for float and double, and rounded at each step for the
// 16-bit types, whose arithmetic is done by function calls.
func (c linspaceCalc) at(i int) float64 {
	k, from, step := float64(i), c.start, c.step
	if i >= c.steps/2 {
		k, from, step = float64(c.steps-1-i), c.end, -c.step
	}
	return c.madd(step, k, from)
}

// add is element base + step·k of a vector that starts at base, which the
// vector code computes with a separate multiply and add, each rounded to a
// floating-point dtype; an integer dtype's step stays a float64.
func (c linspaceCalc) add(base float64, k int) float64 {
	product := float64(k) * c.step
	if c.dt.IsFloatingPoint() {
		product = c.dt.round(product)
	}
	return c.dt.round(base + product)
}

// madd is a·b + sum as the element-by-element code computes it.
func (c linspaceCalc) madd(a, b, sum float64) float64 {
	switch c.dt {
	case Float16, BFloat16:
		return c.dt.round(sum + c.dt.round(a*c.dt.round(b)))
	}
	return c.dt.round(math.FMA(a, b, sum))
}

// generator is the global random number generator behind Rand and Randn.
var generator = struct {
	sync.Mutex
	rng *rand.Rand
}{rng: newRNG(defaultSeed)}

// defaultSeed is PyTorch's default seed for its CPU generator.
const defaultSeed = 67280421310721

func newRNG(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)) }

// ManualSeed reseeds the global generator, like torch.manual_seed: the same
// seed gives the same Rand and Randn values on every run and machine. The
// values differ from PyTorch's, whose generator is different.
func ManualSeed(seed uint64) {
	generator.Lock()
	generator.rng = newRNG(seed)
	generator.Unlock()
}

// Rand returns a tensor of this floating-point dtype with values drawn
// uniformly from [0, 1).
func (dt DType) Rand(shape ...int) *Tensor {
	return dt.random("rand", shape, func(r *rand.Rand) float64 { return r.Float64() })
}

// Randn returns a tensor of this floating-point dtype with values drawn from
// the standard normal distribution.
func (dt DType) Randn(shape ...int) *Tensor {
	return dt.random("randn", shape, func(r *rand.Rand) float64 { return r.NormFloat64() })
}

func (dt DType) random(op string, shape []int, draw func(*rand.Rand) float64) *Tensor {
	dt.check(op)
	if !dt.IsFloatingPoint() {
		fail(op, "%s is only defined for floating-point dtypes, got %s", op, dt)
	}
	x := newTensor(dt, shape)
	generator.Lock()
	defer generator.Unlock()
	for i := range x.storage.n {
		x.storage.store(i, draw(generator.rng))
		// A uniform draw just below 1 can round up to 1 in a narrow dtype;
		// draw again so that Rand stays within [0, 1).
		for op == "rand" && x.storage.load(i) >= 1 {
			x.storage.store(i, draw(generator.rng))
		}
	}
	return x
}
