package tensor

import (
	"container/heap"
	"fmt"
	"slices"
)

// Backward computes the gradient of x, which must hold one element (a
// loss), with respect to every leaf it was computed from that requires
// grad, and adds it into their Grad, like PyTorch's x.backward().
//
//	x := tensor.Float32.Arange(6).SetRequiresGrad(true)
//	x.Reshape(2, 3).T().Sum().Backward()
//	x.Grad() // tensor([1., 1., 1., 1., 1., 1.])
//
// Values saved for the backward pass are freed as it goes, so a second
// Backward through an operation that saved any fails, as in PyTorch.
func (x *Tensor) Backward() {
	x.must("Backward")
	x.backward(nil)
}

// BackwardWith is Backward for a result of any shape: grad is the
// gradient of some loss with respect to x (PyTorch's x.backward(grad)),
// of x's shape.
func (x *Tensor) BackwardWith(grad *Tensor) {
	x.must("BackwardWith")
	mustArg("BackwardWith", grad)
	x.backward(grad)
}

func (x *Tensor) backward(grad *Tensor) {
	root := x.edgeTo().node
	if root == nil {
		fail("backward", "element 0 of tensors does not require grad and does not have a grad_fn")
	}
	switch {
	case grad == nil && x.Numel() != 1:
		fail("backward", "grad can be implicitly created only for scalar outputs")
	case grad == nil:
		grad = x.DType().Ones(x.shape...)
	case !slices.Equal(grad.shape, x.shape):
		fail("backward", "Mismatch in shape: grad_output[0] has a shape of torch.Size(%s) and output[0] has a shape of torch.Size(%s).", listString(grad.shape), listString(x.shape))
	default:
		grad = grad.To(x.DType())
	}
	NoGrad(func() { run(root, grad) })
}

// run passes grad back from root to the leaves: each node runs once all
// the nodes that feed it have, with the sum of the gradients they gave it;
// among ready nodes the one made last runs first, as in PyTorch.
func run(root *node, grad *Tensor) {
	waiting := map[*node]int{} // how many reachable nodes still owe each node a gradient
	seen := map[*node]bool{root: true}
	stack := []*node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, e := range n.next {
			if e.node == nil {
				continue
			}
			waiting[e.node]++
			if !seen[e.node] {
				seen[e.node] = true
				stack = append(stack, e.node)
			}
		}
	}

	grads := map[*node]*Tensor{root: grad}
	ready := &nodeQueue{root}
	for ready.Len() > 0 {
		n := heap.Pop(ready).(*node)
		g := grads[n]
		delete(grads, n)
		switch {
		case g == nil:
			// No gradient reached n; its inputs get none from it.
		case n.leaf != nil:
			accumulateGrad(n.leaf, g)
		default:
			for _, t := range n.retained {
				accumulateGrad(t, g)
			}
			for i, gi := range n.apply(g) {
				e := n.next[i]
				if e.node == nil || gi == nil {
					continue
				}
				gi = fitGrad(n, gi, e)
				if sum := grads[e.node]; sum != nil {
					gi = sum.Add(gi)
				}
				grads[e.node] = gi
			}
		}
		for _, e := range n.next {
			if e.node == nil {
				continue
			}
			waiting[e.node]--
			if waiting[e.node] == 0 {
				heap.Push(ready, e.node)
			}
		}
	}
}

// apply checks the node's saved values and runs its backward function,
// then frees the saved values.
func (n *node) apply(g *Tensor) []*Tensor {
	if n.released {
		fail("backward", "Trying to backward through the graph a second time (or directly access saved tensors after they have already been freed). Saved intermediate values of the graph are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if you need to access saved tensors after calling backward.")
	}
	values := make([]*Tensor, len(n.saved))
	for i, s := range n.saved {
		if s.t != nil && s.t.storage.version != s.version {
			fail("backward", "%s", modifiedMessage(s))
		}
		values[i] = s.t
	}
	grads := n.backward(g, values)
	if len(grads) != len(n.next) {
		panic(fmt.Sprintf("tensor: internal error: %s returned %d gradients for %d inputs", n.name, len(grads), len(n.next)))
	}
	if len(n.saved) > 0 {
		n.saved, n.released = nil, true
	}
	return grads
}

// modifiedMessage is PyTorch's complaint about a saved value written to
// after it was saved, with a hint of our own.
func modifiedMessage(s savedTensor) string {
	t := s.t
	made, name := "", s.output
	if name == "" {
		name = t.GradFn()
	}
	if name != "" {
		made = ", which is output 0 of " + name + ","
	}
	return fmt.Sprintf("one of the variables needed for gradient computation has been modified by an inplace operation: [%s %s]%s is at version %d; expected version %d instead. Hint: an operation saved this tensor for the backward pass and it was changed in place afterwards; Clone it before the in-place write, or compute what needs it again.",
		t.DType().legacyName(), listString(t.shape), made, t.storage.version, s.version)
}

// fitGrad gives the gradient gi from node n to input e that input's dtype
// and shape, summing over the dimensions the input was broadcast along.
func fitGrad(n *node, gi *Tensor, e edge) *Tensor {
	if gi.DType() != e.dtype {
		gi = gi.To(e.dtype)
	}
	if slices.Equal(gi.shape, e.shape) {
		return gi
	}
	if _, ok := broadcast(e.shape, gi.shape); !ok || len(e.shape) > len(gi.shape) {
		panic(fmt.Sprintf("tensor: internal error: %s returned a gradient of shape %v for an input of shape %v", n.name, gi.Shape(), Shape(e.shape)))
	}
	return sumTo(gi, e.shape)
}

// accumulateGrad adds g into t's Grad. A first gradient is copied into a
// tensor laid out as t is when t is dense (PyTorch's layout contract for
// gradients) and contiguous otherwise; later ones are added into it in
// place, so a Grad read earlier sees them.
func accumulateGrad(t, g *Tensor) {
	if t.ag.grad == nil {
		strides := contiguousStrides(t.shape)
		if t.isNonOverlappingAndDense() {
			strides = t.Strides()
		}
		c := newUnfilled(t.DType(), t.shape, strides)
		assign(c, g)
		t.ag.grad = c
		return
	}
	assign(t.ag.grad, t.ag.grad.Add(g))
	t.ag.grad.storage.version++
}

// nodeQueue orders ready nodes, the one made last first.
type nodeQueue []*node

func (q nodeQueue) Len() int           { return len(q) }
func (q nodeQueue) Less(i, j int) bool { return q[i].seq > q[j].seq }
func (q nodeQueue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *nodeQueue) Push(v any)        { *q = append(*q, v.(*node)) }
func (q *nodeQueue) Pop() any {
	old := *q
	n := old[len(old)-1]
	*q = old[:len(old)-1]
	return n
}
