package tensor

import "slices"

// In place: Fill sets every element of x to v, a Go number or bool, and
// returns x. As in PyTorch, the write goes through x to its storage, so
// views of the same slots see it, and an expanded tensor may be filled.
func (x *Tensor) Fill(v any) *Tensor {
	x.must("Fill")
	one := x.DType().checkedScalar("fill_", v)
	x.writeInPlace("FillBackward2", nil, nil, zeroRule, func() { x.fill(one) })
	return x
}

// zeroRule is the backward function of a write that replaces x's values
// with a number: x's old value gets a zero gradient.
func zeroRule(g *Tensor, _ []*Tensor) []*Tensor {
	return []*Tensor{newTensor(g.DType(), g.shape)}
}

// fill writes the value of the 0-d tensor one, of x's dtype, to every
// element of x.
func (x *Tensor) fill(one *Tensor) {
	x.unrepeated().visit(func(off int) { copyElementAt(x.storage, off, one.storage, one.offset) })
}

// unrepeated is x with size 1 along every dimension of stride 0 (which an
// expanded tensor repeats one slot along): it visits the same storage
// slots as x, each once, where x can visit one 2⁶² times.
func (x *Tensor) unrepeated() *Tensor {
	shape := x.Shape()
	for d, st := range x.strides {
		if st == 0 && shape[d] > 1 {
			shape[d] = 1
		}
	}
	return &Tensor{storage: x.storage, shape: shape, strides: x.strides, offset: x.offset}
}

// copyElementAt copies one element between storages of the same dtype.
func copyElementAt(dst *Storage, di int, src *Storage, si int) {
	switch d := dst.data.(type) {
	case []float32:
		d[di] = src.data.([]float32)[si]
	case []float64:
		d[di] = src.data.([]float64)[si]
	case []int64:
		d[di] = src.data.([]int64)[si]
	case []int32:
		d[di] = src.data.([]int32)[si]
	case []uint8:
		d[di] = src.data.([]uint8)[si]
	case []bool:
		d[di] = src.data.([]bool)[si]
	case []uint16:
		d[di] = src.data.([]uint16)[si]
	}
}

// In place: CopyFrom copies src's elements into x, broadcasting src to x's
// shape and converting them to x's dtype, and returns x, like PyTorch's
// copy_.
//
// A write whose result would depend on the order of the element writes
// is refused, with PyTorch's error: to a tensor in which several positions
// share one storage slot (an expanded tensor, overlapping Unfold windows),
// or from a src that reads slots x writes at other positions
// (x.Index("::2").CopyFrom(x.Index(":3"))). PyTorch refuses only the cases
// it finds cheaply and writes the others element by element, in an order
// that decides the result; NumPy buffers src first. Clone src to copy it
// as it was. The in-place arithmetic methods (AddInPlace, …) follow the
// same rule.
func (x *Tensor) CopyFrom(src *Tensor) *Tensor {
	x.must("CopyFrom")
	mustArg("CopyFrom", src)
	checkNoInternalOverlap("copy_", x)
	checkNoPartialOverlap("copy_", x, src)
	checkOutputShape("copy_", x, src)
	from := src
	if src.MayShareMemory(x) {
		from = src.Clone()
	}
	x.writeInPlace("CopyBackwards", []*Tensor{src}, nil, func(g *Tensor, _ []*Tensor) []*Tensor {
		return []*Tensor{newTensor(g.DType(), g.shape), g}
	}, func() { assign(x, from.Expand(x.shape...)) })
	return x
}

// In place: AddInPlace adds other to x elementwise, in place, and returns
// x, like PyTorch's add_. other broadcasts to x's shape, and the result
// must be storable in x's dtype. A write whose result would depend on the
// order of the element writes is refused, as CopyFrom says.
func (x *Tensor) AddInPlace(other any) *Tensor {
	x.must("AddInPlace")
	return x.inPlace(opAdd, other)
}

// In place: SubInPlace subtracts other from x in place and returns x, like
// sub_.
func (x *Tensor) SubInPlace(other any) *Tensor {
	x.must("SubInPlace")
	return x.inPlace(opSub, other)
}

// In place: MulInPlace multiplies x by other in place and returns x, like
// mul_.
func (x *Tensor) MulInPlace(other any) *Tensor {
	x.must("MulInPlace")
	return x.inPlace(opMul, other)
}

// In place: DivInPlace divides x by other in place and returns x, like
// div_.
func (x *Tensor) DivInPlace(other any) *Tensor {
	x.must("DivInPlace")
	return x.inPlace(opDiv, other)
}

func (x *Tensor) inPlace(op binaryOp, other any) *Tensor {
	name := op.String() + "_"
	o := operandOf(name, other)
	checkBoolOp(op, x.DType(), o.t.DType())
	result := resultType(operandOf(name, x), o)
	if op == opDiv && !result.IsFloatingPoint() {
		result = Float32
	}
	if !canCast(result, x.DType()) {
		fail(name, "result type %s can't be cast to the desired output type %s", typeName(result), typeName(x.DType()))
	}
	checkNoInternalOverlap(name, x)
	checkNoPartialOverlap(name, x, o.t)
	checkOutputShape(name, x, o.t)
	operand, _ := other.(*Tensor)
	var saved []*Tensor
	var rule backwardFunc
	switch op {
	case opAdd:
		rule = addRule
	case opSub:
		rule = subRule
	case opMul, opDiv:
		// As the out-of-place rules, with x's old value, which the write
		// overwrites, kept in a copy when the operand needs a gradient.
		var old *Tensor
		if operand != nil && operand.requiresGrad() && IsGradEnabled() {
			old = x.Detach().Clone()
		}
		saved = []*Tensor{old, operand}
		rule = mulRule(other)
		if op == opDiv {
			rule = divRule(other)
		}
	}
	x.writeInPlace(opNodeNames[op], []*Tensor{operand}, saved, rule, func() { assign(x, binary(op, x, other)) })
	return x
}

// opNodeNames are the names of the nodes of arithmetic.
var opNodeNames = map[binaryOp]string{opAdd: "AddBackward0", opSub: "SubBackward0", opMul: "MulBackward0", opDiv: "DivBackward0"}

// checkOutputShape refuses an in-place operation whose operand would
// broadcast x to a larger shape.
func checkOutputShape(op string, x, operand *Tensor) {
	if shape := broadcastPair(op, x.shape, operand.shape); !slices.Equal(shape, x.shape) {
		fail(op, "output with shape %s doesn't match the broadcast shape %s", listString(x.shape), listString(shape))
	}
}

// assign copies src, of x's shape, into x, converting the dtype if needed.
func assign(x, src *Tensor) {
	if src.DType() == x.DType() {
		copyElements(x, src)
	} else {
		convertElements(x, src)
	}
}
