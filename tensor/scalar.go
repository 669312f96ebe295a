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
		panic(newError(op, "TypeError", "%s(): expected a *Tensor, a number or a bool, got %T", op, v))
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
