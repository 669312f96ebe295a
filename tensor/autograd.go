package tensor

import (
	"slices"
	"sync/atomic"
)

// Autograd, as in PyTorch: a tensor that requires grad records, in each
// result computed from it, a node (its grad_fn, such as "MulBackward0")
// that knows how to turn the gradient of the result into gradients of the
// inputs. Backward walks those nodes from a result back to the leaves and
// adds each leaf's gradient into its Grad.
//
// Views take part like any other operation: the gradient of a transpose
// is transposed back, the gradient of an expand is summed over the
// stretched dimensions, the gradient of a slice is the slice's gradient
// placed into zeros. In-place writes are recorded too, and every write
// bumps the storage's version counter, so that Backward can refuse to use
// a value that was changed after an operation saved it.

// autograd is a tensor's part in the graph; nil for a tensor that has
// never taken part.
type autograd struct {
	requiresGrad bool    // a leaf that requires grad (a result with a node always does)
	grad         *Tensor // the accumulated gradient of a leaf, or of a result that retains it
	node         *node   // grad_fn: what made this result; nil for a leaf
	accumulate   *node   // a leaf's AccumulateGrad node, made when first used
	retainGrad   bool
	// baseNode is, for a view, the node its base had when the view's own
	// node was made. When an in-place write changes the base's history
	// (through this view or another), the view's node is remade from the
	// base's new one, as PyTorch does.
	baseNode *node
	// noGradView marks a view made under NoGrad, whose node is never
	// remade: it stays outside the graph.
	noGradView bool
	// multiOutput marks the views that Split, Chunk and Unbind return
	// (output i is i+1) and views of them (-1), which, as in PyTorch,
	// cannot be written in place while they take part in the graph.
	multiOutput int
}

// A node is one step of the graph: a backward function from the gradient
// of its output to the gradients of its inputs, and an edge to each
// input's node.
type node struct {
	name     string
	seq      uint64 // creation order; Backward runs later nodes first, as PyTorch does
	next     []edge
	backward backwardFunc
	saved    []savedTensor
	released bool    // the saved values were freed by a backward pass
	leaf     *Tensor // for AccumulateGrad: the leaf whose Grad it fills
	retained []*Tensor
}

// backwardFunc returns the gradient of each input of a node, nil for an
// input that gets none, given the gradient g of its output and the values
// it saved. A gradient may have the shape of the output where the input
// was broadcast: Backward sums it to the input's shape.
type backwardFunc func(g *Tensor, saved []*Tensor) []*Tensor

// An edge leads to the node of an input, nil if the input needs no
// gradient, and remembers the input's shape and dtype.
type edge struct {
	node  *node
	shape []int
	dtype DType
}

// A savedTensor is a value a node keeps for its backward function, with
// the version of its storage when it was saved. For the node's own output,
// output names the node, which the output had as its grad_fn then.
type savedTensor struct {
	t       *Tensor
	version int
	output  string
}

var (
	// gradOff counts the NoGrad calls in progress.
	gradOff atomic.Int32
	// nodeSeq numbers nodes in the order they are made.
	nodeSeq atomic.Uint64
)

// NoGrad calls f with gradient recording off, like PyTorch's
// torch.no_grad(): results computed in f record no grad_fn, and a leaf
// that requires grad may be changed in place (as an optimizer step does).
// Recording is off for every goroutine while f runs.
func NoGrad(f func()) {
	gradOff.Add(1)
	defer gradOff.Add(-1)
	f()
}

// IsGradEnabled reports whether operations record their gradients: true
// except inside NoGrad and during Backward.
func IsGradEnabled() bool { return gradOff.Load() == 0 }

// SetRequiresGrad sets whether autograd should record operations on x and
// give it a Grad, and returns x, like PyTorch's requires_grad_. Only
// floating-point tensors can require grad, and only a leaf (a tensor no
// recorded operation made) can stop requiring it.
//
//	x := tensor.Float32.Arange(6).SetRequiresGrad(true)
func (x *Tensor) SetRequiresGrad(requires bool) *Tensor {
	x.must("SetRequiresGrad")
	x.refreshView()
	if requires && !x.DType().IsFloatingPoint() {
		fail("requires_grad_", "only Tensors of floating point dtype can require gradients")
	}
	if x.ag != nil && x.ag.node != nil {
		if !requires {
			fail("requires_grad_", "you can only change requires_grad flags of leaf variables. If you want to use a computed variable in a subgraph that doesn't require differentiation use varNoGrad := v.Detach().")
		}
		return x
	}
	if x.ag == nil {
		if !requires {
			return x
		}
		x.ag = &autograd{}
	}
	x.ag.requiresGrad = requires
	return x
}

// RequiresGrad reports whether autograd records operations on x: x is a
// leaf that requires grad, or the result of a recorded operation.
func (x *Tensor) RequiresGrad() bool {
	x.must("RequiresGrad")
	return x.requiresGrad()
}

func (x *Tensor) requiresGrad() bool {
	x.refreshView()
	return x.ag != nil && (x.ag.requiresGrad || x.ag.node != nil)
}

// IsLeaf reports whether x is a leaf of the graph: a tensor that no
// recorded operation made. Gradients are kept only for leaves (and for
// results that RetainGrad).
func (x *Tensor) IsLeaf() bool {
	x.must("IsLeaf")
	x.refreshView()
	return x.ag == nil || x.ag.node == nil
}

// GradFn returns the name of the node that made x, as PyTorch prints its
// grad_fn ("MulBackward0", "TransposeBackward0"), or "" for a leaf.
func (x *Tensor) GradFn() string {
	x.must("GradFn")
	x.refreshView()
	if x.ag == nil || x.ag.node == nil {
		return ""
	}
	return x.ag.node.name
}

// Grad returns the gradient Backward accumulated into x, or nil if there
// is none: x is not a leaf that requires grad (and does not RetainGrad),
// or no backward pass has reached it yet.
func (x *Tensor) Grad() *Tensor {
	x.must("Grad")
	if x.ag == nil {
		return nil
	}
	return x.ag.grad
}

// SetGrad replaces x's gradient, as assigning x.grad does in PyTorch;
// SetGrad(nil) clears it before another backward pass. g must have x's
// shape and dtype.
func (x *Tensor) SetGrad(g *Tensor) {
	x.must("SetGrad")
	if g != nil {
		mustArg("SetGrad", g)
		if g == x {
			fail("grad", "can't assign Variable as its own grad")
		}
		if !slices.Equal(g.shape, x.shape) {
			fail("grad", "assigned grad has data of a different size")
		}
		if g.DType() != x.DType() {
			fail("grad", "assigned grad has data of a different type")
		}
	}
	if x.ag == nil {
		x.ag = &autograd{}
	}
	x.ag.grad = g
}

// RetainGrad asks Backward to keep the gradient of x, a result that is not
// a leaf, in its Grad, like PyTorch's retain_grad; it returns x.
func (x *Tensor) RetainGrad() *Tensor {
	x.must("RetainGrad")
	x.refreshView()
	if x.ag == nil || (x.ag.node == nil && !x.ag.requiresGrad) {
		fail("retain_grad", "can't retain_grad on Tensor that has requires_grad=False")
	}
	if x.ag.node != nil && !x.ag.retainGrad {
		x.ag.retainGrad = true
		x.ag.node.retained = append(x.ag.node.retained, x)
	}
	return x
}

// View: Detach returns a tensor over the same storage that takes no part in
// the graph, like PyTorch's detach: a leaf that does not require grad. It
// shares x's storage and its version counter, so a write through it is seen
// by x and by Backward's version checks. It is not a view in IsView's
// sense: its Base is nil.
func (x *Tensor) Detach() *Tensor {
	x.must("Detach")
	return &Tensor{storage: x.storage, shape: x.Shape(), strides: x.Strides(), offset: x.offset}
}

// Version returns the version counter of x's storage (PyTorch's
// x._version): the number of in-place writes to it so far, through x or
// any view of the same storage.
func (x *Tensor) Version() int {
	x.must("Version")
	return x.storage.version
}

// edgeTo returns the edge from a node to its input x.
func (x *Tensor) edgeTo() edge {
	e := edge{shape: x.Shape(), dtype: x.DType()}
	if !x.requiresGrad() {
		return e
	}
	if x.ag.node != nil {
		e.node = x.ag.node
		return e
	}
	if x.ag.accumulate == nil {
		x.ag.accumulate = &node{name: "AccumulateGrad", seq: nodeSeq.Add(1), leaf: x}
	}
	e.node = x.ag.accumulate
	return e
}

// record makes out the result of the operation name on inputs (nil for a
// Go number operand) when grad mode is on and an input requires grad: out
// gets a node whose backward function is backward, keeping saved (nil
// for a Go number, to mark that a value was saved) with their versions.
// It returns out. An operation that returns one of its inputs itself
// records nothing.
func record(out *Tensor, name string, inputs []*Tensor, saved []*Tensor, backward backwardFunc) *Tensor {
	if !IsGradEnabled() {
		if out.base != nil && !slices.Contains(inputs, out) {
			out.ag = &autograd{noGradView: true}
		}
		return out
	}
	needed := false
	for _, in := range inputs {
		if in == out {
			return out
		}
		needed = needed || (in != nil && in.requiresGrad())
	}
	if !needed {
		return out
	}
	n := &node{name: name, seq: nodeSeq.Add(1), backward: backward}
	for _, in := range inputs {
		if in == nil {
			n.next = append(n.next, edge{})
			continue
		}
		n.next = append(n.next, in.edgeTo())
	}
	n.saved = saveAll(saved)
	for i := range n.saved {
		if n.saved[i].t == out {
			n.saved[i].output = name
		}
	}
	out.ag = &autograd{node: n}
	if out.base != nil && out.base.ag != nil {
		out.ag.baseNode = out.base.ag.node
	}
	if x := inputs[0]; out.base != nil && x != nil && x.ag != nil && x.ag.multiOutput != 0 {
		out.ag.multiOutput = -1
	}
	return out
}

// saveAll snapshots the versions of the tensors a node keeps.
func saveAll(ts []*Tensor) []savedTensor {
	saved := make([]savedTensor, len(ts))
	for i, t := range ts {
		saved[i].t = t
		if t != nil {
			saved[i].version = t.storage.version
		}
	}
	return saved
}

// inputs lists the tensor operands of an operation: x, and other if it is
// a tensor (nil for a Go number).
func inputs(x *Tensor, other any) []*Tensor {
	o, _ := other.(*Tensor)
	return []*Tensor{x, o}
}

// renamed gives the nodes of results made by another operation the name
// of the operation that returned them (Stack's result is StackBackward0,
// as in PyTorch), and returns the results.
func renamed(name string, ts []*Tensor) []*Tensor {
	for _, t := range ts {
		if t.ag != nil && t.ag.node != nil {
			t.ag.node.name = name
		}
	}
	return ts
}

// multipleViews renames the nodes of the views an operation returns
// together, as renamed does, and marks them as such.
func multipleViews(name string, ts []*Tensor) []*Tensor {
	for i, t := range renamed(name, ts) {
		if t.ag != nil && t.ag.node != nil {
			t.ag.multiOutput = i + 1
		}
	}
	return ts
}

// refreshView remakes the node of a view whose base's history changed
// since the view's node was made (an in-place write through the base or
// another view of it): the view becomes an AsStridedBackward0 of its base,
// as in PyTorch.
func (x *Tensor) refreshView() {
	b := x.base
	if b == nil || b.ag == nil || (x.ag != nil && x.ag.noGradView) {
		return
	}
	b.refreshView()
	var have *node
	if x.ag != nil {
		have = x.ag.baseNode
	}
	if b.ag.node == have {
		return
	}
	retain := x.ag != nil && x.ag.retainGrad
	n := &node{name: "AsStridedBackward0", seq: nodeSeq.Add(1), next: []edge{b.edgeTo()}, backward: geometryRule(b, x)}
	x.ag = &autograd{node: n, baseNode: b.ag.node}
	if retain {
		x.ag.retainGrad = true
		n.retained = append(n.retained, x)
	}
}

// isLeafNode reports whether no recorded operation made x.
func (x *Tensor) isLeafNode() bool { return x.ag == nil || x.ag.node == nil }

// setNode makes n the node of x, as an in-place write does.
func (x *Tensor) setNode(n *node) {
	if x.ag == nil {
		x.ag = &autograd{}
	}
	x.ag.node = n
	if x.ag.retainGrad {
		n.retained = append(n.retained, x)
	}
}

// writeInPlace performs write, an in-place operation named name on x with
// the tensor operands others (nil for a Go number), under autograd's
// rules. It refuses, with PyTorch's words, to write to a leaf that
// requires grad or to a view of a leaf; it bumps the storage's version;
// and when x requires grad or an operand does, it records the write:
// backward gives the gradients of x's old value and of the operands from
// that of x's new value, using saved.
//
// A write through a view records in the view's base a CopySlices node:
// the base's gradient passes back unchanged outside the view, and through
// the operation's backward function inside it.
func (x *Tensor) writeInPlace(name string, others, saved []*Tensor, backward backwardFunc, write func()) {
	recorded := IsGradEnabled() && x.checkInPlace(others)
	var op *node
	var history edge // the edge to what x, or its base, held before the write
	if recorded {
		op = &node{name: name, seq: nodeSeq.Add(1), backward: backward, saved: saveAll(saved)}
		op.next = []edge{x.edgeTo()}
		for _, o := range others {
			if o == nil {
				op.next = append(op.next, edge{})
			} else {
				op.next = append(op.next, o.edgeTo())
			}
		}
		if x.base != nil {
			history = x.base.edgeTo()
		}
	}
	write()
	x.storage.version++
	if !recorded {
		return
	}
	if x.base == nil {
		x.setNode(op)
		return
	}
	x.base.setNode(copySlices(x.base, x, op, history))
	x.refreshView()
}

// checkInPlace refuses an in-place write that PyTorch refuses while grad
// mode is on, and reports whether the write takes part in the graph.
func (x *Tensor) checkInPlace(others []*Tensor) bool {
	involved := x.requiresGrad()
	for _, o := range others {
		involved = involved || (o != nil && o.requiresGrad())
	}
	if x.base != nil && x.ag != nil {
		switch {
		case x.ag.noGradView && (involved || x.base.requiresGrad()):
			fail("inplace", "A view was created in no_grad mode and is being modified inplace with grad mode enabled. Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both the view and the inplace either both inside the no_grad block (if you don't want the inplace to be tracked) or both outside (if you want the inplace to be tracked).")
		case x.ag.multiOutput != 0 && involved:
			output := max(x.ag.multiOutput-1, 0)
			fail("inplace", "Output %d of %s is a view and is being modified inplace. This view is the output of a function that returns multiple views. Such functions do not allow the output views to be modified inplace. You should replace the inplace operation by an out-of-place one.", output, x.GradFn())
		}
	}
	if x.requiresGrad() {
		if x.base != nil && x.base.isLeafNode() {
			fail("inplace", "a view of a leaf Variable that requires grad is being used in an in-place operation.")
		}
		if x.isLeafNode() {
			fail("inplace", "a leaf Variable that requires grad is being used in an in-place operation.")
		}
	}
	return involved
}

// copySlices is the node of base b after op wrote through its view v:
// b's gradient g passes to b's old value (history) outside v; inside v,
// op's backward function turns v's part of g into the gradients of v's
// old value (which is part of b's old value) and of op's operands.
func copySlices(b, v *Tensor, op *node, history edge) *node {
	slots := b.storage.n
	bShape, bStrides, bOffset := b.Shape(), b.Strides(), b.offset
	vShape, vStrides, vOffset := v.Shape(), v.Strides(), v.offset
	n := &node{name: "CopySlices", seq: nodeSeq.Add(1), saved: op.saved, next: append([]edge{history}, op.next[1:]...)}
	n.backward = func(g *Tensor, saved []*Tensor) []*Tensor {
		s := newStorage(g.DType(), slots)
		gb := &Tensor{storage: s, shape: bShape, strides: bStrides, offset: bOffset}
		gv := &Tensor{storage: s, shape: vShape, strides: vStrides, offset: vOffset}
		assign(gb, g)
		grads := op.backward(gv.Clone(), saved)
		if grads[0] != nil {
			assign(gv, grads[0].To(gv.DType()).Expand(vShape...))
		} else {
			gv.fill(gv.DType().Scalar(0))
		}
		return append([]*Tensor{gb}, grads[1:]...)
	}
	return n
}
