package tensor

import (
	"math"
	"slices"
	"strings"
)

// An elementwise operation between two tensors.
type binaryOp int

const (
	opAdd binaryOp = iota
	opSub
	opMul
	opDiv
	opEq
	opNe
	opLt
	opLe
	opGt
	opGe
)

var binaryOpNames = [...]string{"add", "sub", "mul", "div", "eq", "ne", "lt", "le", "gt", "ge"}

// String returns PyTorch's name for the operation, used in messages.
func (op binaryOp) String() string { return binaryOpNames[op] }

// comparison reports whether the operation gives a Bool result.
func (op binaryOp) comparison() bool { return op >= opEq }

// Copy: Add returns x + other, elementwise with broadcasting. other is a
// *Tensor or a Go number or bool; dtypes promote as in PyTorch (an int
// tensor plus 1.5 is Float32, an Int32 tensor plus 1 stays Int32).
func (x *Tensor) Add(other any) *Tensor {
	x.must("Add")
	return record(binary(opAdd, x, other), "AddBackward0", inputs(x, other), nil, addRule)
}

// Copy: Sub returns x - other, elementwise with broadcasting.
func (x *Tensor) Sub(other any) *Tensor {
	x.must("Sub")
	return record(binary(opSub, x, other), "SubBackward0", inputs(x, other), nil, subRule)
}

// Copy: Mul returns x * other, elementwise with broadcasting.
func (x *Tensor) Mul(other any) *Tensor {
	x.must("Mul")
	return record(binary(opMul, x, other), "MulBackward0", inputs(x, other), saved(x, other), mulRule(other))
}

// Copy: Div returns x / other, elementwise with broadcasting. Like
// PyTorch's true division, integer inputs give a Float32 result.
func (x *Tensor) Div(other any) *Tensor {
	x.must("Div")
	return record(binary(opDiv, x, other), "DivBackward0", inputs(x, other), saved(x, other), divRule(other))
}

// Copy: Eq returns the Bool tensor x == other, elementwise with
// broadcasting.
func (x *Tensor) Eq(other any) *Tensor {
	x.must("Eq")
	return binary(opEq, x, other)
}

// Copy: Ne returns the Bool tensor x != other.
func (x *Tensor) Ne(other any) *Tensor {
	x.must("Ne")
	return binary(opNe, x, other)
}

// Copy: Lt returns the Bool tensor x < other.
func (x *Tensor) Lt(other any) *Tensor {
	x.must("Lt")
	return binary(opLt, x, other)
}

// Copy: Le returns the Bool tensor x <= other.
func (x *Tensor) Le(other any) *Tensor {
	x.must("Le")
	return binary(opLe, x, other)
}

// Copy: Gt returns the Bool tensor x > other.
func (x *Tensor) Gt(other any) *Tensor {
	x.must("Gt")
	return binary(opGt, x, other)
}

// Copy: Ge returns the Bool tensor x >= other.
func (x *Tensor) Ge(other any) *Tensor {
	x.must("Ge")
	return binary(opGe, x, other)
}

// Copy: Neg returns -x.
func (x *Tensor) Neg() *Tensor {
	x.must("Neg")
	if x.DType() == Bool {
		fail("neg", "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")
	}
	// Multiplying by -1 is negation in every dtype, including the wrap of
	// unsigned and minimum integers. The result is laid out like x alone,
	// as a unary operation's is.
	out := elementwise(opMul, operandOf("neg", x), operandOf("neg", -1), x)
	return record(out, "NegBackward0", []*Tensor{x}, nil, func(g *Tensor, _ []*Tensor) []*Tensor { return []*Tensor{g.Neg()} })
}

// The backward functions of arithmetic give gradients of the result's
// shape; Backward sums them over the dimensions an operand was broadcast
// along, and converts them to its dtype.

func addRule(g *Tensor, _ []*Tensor) []*Tensor { return []*Tensor{g, g} }

func subRule(g *Tensor, _ []*Tensor) []*Tensor { return []*Tensor{g, g.Neg()} }

// saved lists the values a product or quotient keeps for its backward
// pass: x and other, nil standing for a Go number.
func saved(x *Tensor, other any) []*Tensor { return inputs(x, other) }

// mulRule: d(x·y) = dx·y + x·dy. The saved values are x and y, y nil when
// it is the Go number other.
func mulRule(other any) backwardFunc {
	return func(g *Tensor, saved []*Tensor) []*Tensor {
		x, y := saved[0], operandValue(saved[1], other)
		if x == nil { // an in-place product whose operand needs no gradient
			return []*Tensor{g.Mul(y), nil}
		}
		return []*Tensor{g.Mul(y), g.Mul(x)}
	}
}

// divRule: d(x/y) = dx/y − x·dy/y².
func divRule(other any) backwardFunc {
	return func(g *Tensor, saved []*Tensor) []*Tensor {
		x, y := saved[0], operandValue(saved[1], other)
		if x == nil {
			return []*Tensor{g.Div(y), nil}
		}
		return []*Tensor{g.Div(y), g.Neg().Mul(x).Div(y).Div(y)}
	}
}

// operandValue returns a saved tensor operand, or the Go number it stands
// for.
func operandValue(saved *Tensor, other any) any {
	if saved != nil {
		return saved
	}
	return other
}

// An operand is a tensor taking part in an elementwise operation, with its
// priority in type promotion: Go numbers rank below 0-d tensors, which rank
// below tensors with dimensions.
type operand struct {
	t       *Tensor
	wrapped bool  // a Go number, made into a 0-d tensor
	promote DType // the dtype the operand promotes as
}

func operandOf(op string, v any) operand {
	if t, ok := v.(*Tensor); ok {
		mustArg(op, t)
		return operand{t: t, promote: t.DType()}
	}
	t, promote := numberTensor(op, v)
	return operand{t: t, wrapped: true, promote: promote}
}

// resultType is PyTorch's result_type: the dtype an operation on these
// operands computes in.
func resultType(ops ...operand) DType {
	const none = DType(-1)
	var dim, zero, wrapped DType = none, none, none
	for _, o := range ops {
		switch {
		case o.wrapped:
			wrapped = promoteOrSet(wrapped, o.promote)
		case o.t.Dim() == 0:
			zero = promoteOrSet(zero, o.promote)
		default:
			dim = promoteOrSet(dim, o.promote)
		}
	}
	return combineCategories(dim, combineCategories(zero, wrapped))
}

func promoteOrSet(acc, dt DType) DType {
	if acc < 0 {
		return dt
	}
	return promoteTypes(acc, dt)
}

// combineCategories lets a lower-priority group change the result only when
// it is of a higher category (bool < integer < floating point).
func combineCategories(higher, lower DType) DType {
	switch {
	case higher < 0:
		return lower
	case lower < 0, higher.IsFloatingPoint():
		return higher
	case higher == Bool || lower.IsFloatingPoint():
		return promoteTypes(higher, lower)
	}
	return higher
}

// promoteTypes is PyTorch's promote_types for the dtypes tensornb has.
func promoteTypes(a, b DType) DType {
	if a == b {
		return a
	}
	rank := func(dt DType) int {
		switch dt {
		case Bool:
			return 0
		case Uint8:
			return 1
		case Int32:
			return 2
		case Int64:
			return 3
		case Float16, BFloat16:
			return 4
		case Float32:
			return 5
		}
		return 6 // Float64
	}
	if rank(a) == 4 && rank(b) == 4 { // float16 with bfloat16
		return Float32
	}
	if rank(a) > rank(b) {
		return a
	}
	return b
}

// typeName is the name PyTorch's C++ core uses for a dtype in messages.
func typeName(dt DType) string {
	switch dt {
	case Float32:
		return "Float"
	case Float64:
		return "Double"
	case Int64:
		return "Long"
	case Int32:
		return "Int"
	case Uint8:
		return "Byte"
	case Float16:
		return "Half"
	case BFloat16:
		return "BFloat16"
	}
	return strings.ToUpper(dt.String()[:1]) + dt.String()[1:]
}

// canCast reports whether a result of dtype from may be stored in a tensor
// of dtype to, by PyTorch's rule: never float to integer, nor non-bool to
// bool.
func canCast(from, to DType) bool {
	if from.IsFloatingPoint() && !to.IsFloatingPoint() {
		return false
	}
	return from == Bool || to != Bool
}

// binary computes x op other into a new tensor.
func binary(op binaryOp, x *Tensor, other any) *Tensor {
	a, b := operandOf(op.String(), x), operandOf(op.String(), other)
	return elementwise(op, a, b, a.t, b.t)
}

// elementwise computes a op b into a new tensor laid out in the memory order
// of the layout tensors.
func elementwise(op binaryOp, a, b operand, layout ...*Tensor) *Tensor {
	common := resultType(a, b)
	checkBoolOp(op, a.t.DType(), b.t.DType())
	shape := broadcastPair(op.String(), a.t.shape, b.t.shape)

	// Compute in a type the kernels have: 16-bit floats in Float32 and bools
	// in Uint8 (whose sums and products, stored back, are bool's or and and).
	compute := common
	switch {
	case op == opDiv && !common.IsFloatingPoint():
		common, compute = Float32, Float32
	case common == Float16 || common == BFloat16:
		compute = Float32
	case common == Bool:
		compute = Uint8
	}
	outType := compute
	if op.comparison() {
		outType = Bool
	}
	out := newUnfilled(outType, shape, elementwiseStrides(shape, layout...))
	// As in PyTorch, operands are first cast to the common dtype (a Go
	// number added to a Float16 tensor is rounded to Float16), then widened
	// exactly to the compute type.
	ta := a.t.To(common).To(compute).Expand(shape...)
	tb := b.t.To(common).To(compute).Expand(shape...)
	switch compute {
	case Float32:
		binaryKernel[float32](op, out, ta, tb)
	case Float64:
		binaryKernel[float64](op, out, ta, tb)
	case Int64:
		binaryKernel[int64](op, out, ta, tb)
	case Int32:
		binaryKernel[int32](op, out, ta, tb)
	case Uint8:
		binaryKernel[uint8](op, out, ta, tb)
	}
	if op.comparison() {
		return out
	}
	return out.To(common)
}

func checkBoolOp(op binaryOp, a, b DType) {
	if op != opSub {
		return
	}
	if a == Bool && b == Bool {
		fail("sub", "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.")
	}
	if a == Bool || b == Bool {
		fail("sub", "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")
	}
}

type number interface {
	float32 | float64 | int64 | int32 | uint8
}

// binaryKernel computes out = a op b for tensors of one shape; out is
// contiguous and of dtype T, or Bool for comparisons.
func binaryKernel[T number](op binaryOp, out, a, b *Tensor) {
	x, y := typed[T](a.storage), typed[T](b.storage)
	order := memoryOrder(out.strides)
	l := newLoop(permuted(order, out.shape), []int{out.offset, a.offset, b.offset},
		permuted(order, out.strides), permuted(order, a.strides), permuted(order, b.strides))
	sa, sb := l.inner(1), l.inner(2)
	if op.comparison() {
		o := typed[bool](out.storage)
		l.eachRow(func(offs []int, n int) { compareRow(op, o[offs[0]:offs[0]+n], x, offs[1], sa, y, offs[2], sb) })
		return
	}
	o := typed[T](out.storage)
	l.eachRow(func(offs []int, n int) { arithRow(op, o[offs[0]:offs[0]+n], x, offs[1], sa, y, offs[2], sb) })
}

// arithRow computes one row: o[i] = x[xo+i·sx] op y[yo+i·sy]. The common
// cases, both inputs stepping by one or one of them fixed, get loops the
// compiler can keep tight.
func arithRow[T number](op binaryOp, o, x []T, xo, sx int, y []T, yo, sy int) {
	n := len(o)
	switch {
	case sx == 1 && sy == 1:
		xs, ys := x[xo:xo+n], y[yo:yo+n]
		switch op {
		case opAdd:
			for i := range o {
				o[i] = xs[i] + ys[i]
			}
		case opSub:
			for i := range o {
				o[i] = xs[i] - ys[i]
			}
		case opMul:
			for i := range o {
				o[i] = xs[i] * ys[i]
			}
		case opDiv:
			for i := range o {
				o[i] = xs[i] / ys[i]
			}
		}
	case sx == 1 && sy == 0:
		xs, v := x[xo:xo+n], y[yo]
		switch op {
		case opAdd:
			for i := range o {
				o[i] = xs[i] + v
			}
		case opSub:
			for i := range o {
				o[i] = xs[i] - v
			}
		case opMul:
			for i := range o {
				o[i] = xs[i] * v
			}
		case opDiv:
			for i := range o {
				o[i] = xs[i] / v
			}
		}
	default:
		for i := range o {
			p, q := x[xo+i*sx], y[yo+i*sy]
			switch op {
			case opAdd:
				o[i] = p + q
			case opSub:
				o[i] = p - q
			case opMul:
				o[i] = p * q
			case opDiv:
				o[i] = p / q
			}
		}
	}
}

// compareRow computes one row of a comparison.
func compareRow[T number](op binaryOp, o []bool, x []T, xo, sx int, y []T, yo, sy int) {
	for i := range o {
		p, q := x[xo+i*sx], y[yo+i*sy]
		switch op {
		case opEq:
			o[i] = p == q
		case opNe:
			o[i] = p != q
		case opLt:
			o[i] = p < q
		case opLe:
			o[i] = p <= q
		case opGt:
			o[i] = p > q
		case opGe:
			o[i] = p >= q
		}
	}
}

// Equal reports whether x and y have the same shape and the same elements,
// like torch.equal. NaN equals nothing, not even itself.
func (x *Tensor) Equal(y *Tensor) bool {
	x.must("Equal")
	mustArg("Equal", y)
	if !slices.Equal(x.shape, y.shape) {
		return false
	}
	return x.Eq(y).all()
}

// AllClose reports whether x and y are elementwise equal within a tolerance,
// like torch.allclose with its defaults: |x - y| <= atol + rtol·|y| with
// rtol 1e-5 and atol 1e-8. The shapes must broadcast.
func (x *Tensor) AllClose(y *Tensor) bool {
	x.must("AllClose")
	return x.AllCloseTol(y, 1e-5, 1e-8)
}

// AllCloseTol is AllClose with the given relative and absolute tolerances.
func (x *Tensor) AllCloseTol(y *Tensor, rtol, atol float64) bool {
	x.must("AllCloseTol")
	mustArg("AllCloseTol", y)
	shape := broadcastPair("allclose", x.shape, y.shape)
	a, b := x.Expand(shape...).Float64s(), y.Expand(shape...).Float64s()
	for i := range a {
		if a[i] == b[i] {
			continue
		}
		if math.IsInf(a[i], 0) || math.IsInf(b[i], 0) || !(math.Abs(a[i]-b[i]) <= atol+rtol*math.Abs(b[i])) {
			return false
		}
	}
	return true
}

// all reports whether every element of a Bool tensor is true.
func (x *Tensor) all() bool {
	ok := true
	d := typed[bool](x.storage)
	x.visit(func(off int) { ok = ok && d[off] })
	return ok
}
