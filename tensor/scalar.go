package tensor

import "math"

// numberTensor returns v, a Go number or bool, as a 0-d tensor that holds
// it exactly (Int64 for integers, Float64 for floats, Bool for bools), and
// the dtype PyTorch gives a Python number of its kind in type promotion:
// Int64, the default Float32, or Bool.
func numberTensor(op string, v any) (*Tensor, DType) {
	var i int64
	switch n := v.(type) {
	case bool:
		x := newTensor(Bool, nil)
		typed[bool](x.storage)[0] = n
		return x, Bool
	case float32:
		return floatTensor(float64(n)), Float32
	case float64:
		return floatTensor(n), Float32
	case int:
		i = int64(n)
	case int8:
		i = int64(n)
	case int16:
		i = int64(n)
	case int32:
		i = int64(n)
	case int64:
		i = n
	case uint:
		i = unsignedToInt64(op, uint64(n))
	case uint8:
		i = int64(n)
	case uint16:
		i = int64(n)
	case uint32:
		i = int64(n)
	case uint64:
		i = unsignedToInt64(op, n)
	default:
		failType(op, "%s(): expected a *Tensor, a number or a bool, got %T", op, v)
	}
	x := newTensor(Int64, nil)
	typed[int64](x.storage)[0] = i
	return x, Int64
}

func floatTensor(f float64) *Tensor {
	x := newTensor(Float64, nil)
	typed[float64](x.storage)[0] = f
	return x
}

func unsignedToInt64(op string, n uint64) int64 {
	if n > math.MaxInt64 {
		fail(op, "value %d cannot be converted to type int64 without overflow", n)
	}
	return int64(n)
}

// checkedScalar returns v, a Go number or bool, as a 0-dimensional tensor
// of dtype dt, for op to write (fill_, full, x[i] = v, linspace's ends).
// As PyTorch's conversions of a Scalar do, it refuses a value outside dt's
// range: NaN or an infinity into an integer type, 300 into uint8, 1e300
// into float32, 70000 into float16. An infinity or NaN stays itself in a
// floating-point dtype, any value is true or false in Bool, and negative
// integers down to -255 wrap into uint8 (-1 is 255).
func (dt DType) checkedScalar(op string, v any) *Tensor {
	x, from := numberTensor(op, v)
	if dt != Bool && from != Bool && overflows(dt, x, from) {
		fail(op, "value cannot be converted to type %s without overflow", cTypeName(dt))
	}
	return x.To(dt)
}

// overflows reports whether the number in x, made from a Go value of
// dtype from, is outside the range of dt.
func overflows(dt DType, x *Tensor, from DType) bool {
	lo, hi := dt.limits()
	if from.IsFloatingPoint() {
		f := x.storage.load(0)
		switch {
		case dt.IsFloatingPoint() && (math.IsInf(f, 0) || math.IsNaN(f)):
			return false
		case math.IsNaN(f):
			return true
		}
		return f < lo || f > hi
	}
	i := typed[int64](x.storage)[0]
	switch dt {
	case Int64:
		return false
	case Int32:
		return i < math.MinInt32 || i > math.MaxInt32
	case Uint8:
		return i > math.MaxUint8 || i < -math.MaxUint8
	}
	return float64(i) < lo || float64(i) > hi
}

// limits returns the lowest and the highest finite value of dt.
func (dt DType) limits() (lo, hi float64) {
	switch dt {
	case Float32:
		return -math.MaxFloat32, math.MaxFloat32
	case Float64:
		return -math.MaxFloat64, math.MaxFloat64
	case Float16:
		return -65504, 65504
	case BFloat16:
		return -3.3895313892515355e38, 3.3895313892515355e38
	case Int64:
		return math.MinInt64, math.MaxInt64
	case Int32:
		return math.MinInt32, math.MaxInt32
	case Uint8:
		return 0, math.MaxUint8
	}
	return 0, 1
}

// cTypeName is the C++ name PyTorch's conversion errors give dt.
func cTypeName(dt DType) string {
	switch dt {
	case Float32:
		return "float"
	case Float64:
		return "double"
	case Int64:
		return "int64_t"
	case Int32:
		return "int"
	case Uint8:
		return "uint8_t"
	case Float16:
		return "at::Half"
	case BFloat16:
		return "at::BFloat16"
	}
	return "bool"
}
