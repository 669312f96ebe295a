package tensor

import "math"

// A DType names the element type of a tensor, as torch.dtype does.
type DType int

// The element types a tensor can hold. Float16 and BFloat16 are stored as
// 16-bit patterns and converted to and from float32 on every read and write.
const (
	Float32 DType = iota
	Float64
	Int64
	Int32
	Uint8
	Bool
	Float16
	BFloat16
)

var dtypeInfo = [...]struct {
	name     string // PyTorch's name, as in torch.float32
	numpy    string // NumPy's name
	legacy   string // PyTorch's legacy tensor type, as in error messages
	size     int    // bytes per element
	floating bool
}{
	Float32:  {"float32", "float32", "FloatTensor", 4, true},
	Float64:  {"float64", "float64", "DoubleTensor", 8, true},
	Int64:    {"int64", "int64", "LongTensor", 8, false},
	Int32:    {"int32", "int32", "IntTensor", 4, false},
	Uint8:    {"uint8", "uint8", "ByteTensor", 1, false},
	Bool:     {"bool", "bool", "BoolTensor", 1, false},
	Float16:  {"float16", "float16", "HalfTensor", 2, true},
	BFloat16: {"bfloat16", "bfloat16", "BFloat16Tensor", 2, true},
}

func (dt DType) valid() bool { return dt >= 0 && int(dt) < len(dtypeInfo) }

// String returns PyTorch's name for the type, such as "float32".
func (dt DType) String() string {
	if !dt.valid() {
		return "DType(invalid)"
	}
	return dtypeInfo[dt].name
}

// ItemSize returns the size of one element in bytes.
func (dt DType) ItemSize() int {
	dt.check("itemsize")
	return dtypeInfo[dt].size
}

// IsFloatingPoint reports whether the type is a floating-point type.
func (dt DType) IsFloatingPoint() bool {
	dt.check("is_floating_point")
	return dtypeInfo[dt].floating
}

func (dt DType) check(op string) {
	if !dt.valid() {
		failType(op, "invalid dtype %d", int(dt))
	}
}

// legacyName is the tensor type name PyTorch uses in some error texts,
// e.g. "torch.FloatTensor".
func (dt DType) legacyName() string { return "torch." + dtypeInfo[dt].legacy }

// round returns the value v becomes when stored in this dtype: rounded to
// the nearest value of a floating-point dtype, converted as PyTorch
// converts a float to an integer dtype (see floatToInt64).
func (dt DType) round(v float64) float64 {
	switch dt {
	case Float32:
		return float64(float32(v))
	case Float16:
		return float64(halfToFloat32(float32ToHalf(float32(v))))
	case BFloat16:
		return float64(bfloat16ToFloat32(float32ToBFloat16(float32(v))))
	case Int64:
		return float64(floatToInt64(v))
	case Int32:
		return float64(floatToInt32(v))
	case Uint8:
		return float64(uint8(floatToInt32(v)))
	case Bool:
		if v != 0 {
			return 1
		}
		return 0
	}
	return v
}

// float32ToHalf converts to IEEE 754 binary16, rounding to nearest even.
func float32ToHalf(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int((b >> 23) & 0xff)
	man := b & 0x7fffff
	switch {
	case exp == 0xff: // Inf or NaN
		if man != 0 {
			return sign | 0x7e00
		}
		return sign | 0x7c00
	case exp > 142: // too large: |f| >= 65520 rounds to Inf
		return sign | 0x7c00
	case exp >= 113: // normal half
		h := uint32(exp-112)<<10 | man>>13
		rest := man & 0x1fff
		if rest > 0x1000 || (rest == 0x1000 && h&1 == 1) {
			h++ // may carry into the exponent, which is still correct
		}
		return sign | uint16(h)
	case exp >= 102: // subnormal half
		man |= 0x800000
		shift := uint(126 - exp)
		h := man >> shift
		rest := man & (1<<shift - 1)
		half := uint32(1) << (shift - 1)
		if rest > half || (rest == half && h&1 == 1) {
			h++
		}
		return sign | uint16(h)
	default: // underflows to zero
		return sign
	}
}

// halfToFloat32 converts an IEEE 754 binary16 pattern to float32 exactly.
func halfToFloat32(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	man := uint32(h & 0x3ff)
	switch {
	case exp == 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | man<<13)
	case exp != 0:
		return math.Float32frombits(sign | (exp+112)<<23 | man<<13)
	case man == 0:
		return math.Float32frombits(sign)
	default: // subnormal: normalise
		e := uint32(113)
		for man&0x400 == 0 {
			man <<= 1
			e--
		}
		return math.Float32frombits(sign | e<<23 | (man&0x3ff)<<13)
	}
}

// float32ToBFloat16 keeps the top 16 bits of a float32, rounding to nearest even.
func float32ToBFloat16(f float32) uint16 {
	b := math.Float32bits(f)
	if b&0x7fffffff > 0x7f800000 { // NaN: keep it quiet
		return uint16(b>>16) | 0x40
	}
	b += 0x7fff + (b>>16)&1
	return uint16(b >> 16)
}

func bfloat16ToFloat32(h uint16) float32 { return math.Float32frombits(uint32(h) << 16) }
