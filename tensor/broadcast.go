package tensor

// BroadcastShapes returns the shape that tensors of the given shapes
// broadcast to, like torch.broadcast_shapes: shapes are aligned on the
// right, and in each dimension the sizes must be equal or 1.
//
//	tensor.BroadcastShapes(tensor.Shape{8, 1, 6, 1}, tensor.Shape{7, 1, 5}) // (8, 7, 6, 5)
func BroadcastShapes(shapes ...Shape) Shape {
	out, ok := broadcast(shapes...)
	if !ok {
		fail("broadcast_shapes", "Shape mismatch: objects cannot be broadcast to a single shape")
	}
	return out
}

// broadcast computes the common shape of shapes, or reports that there is
// none.
func broadcast(shapes ...Shape) (Shape, bool) {
	rank := 0
	for _, s := range shapes {
		rank = max(rank, len(s))
	}
	out := make(Shape, rank)
	for i := range out {
		out[i] = 1
	}
	for _, s := range shapes {
		for j, size := range s {
			i := rank - len(s) + j
			switch {
			case size < 0:
				return nil, false
			case out[i] == 1:
				out[i] = size
			case size != 1 && size != out[i]:
				return nil, false
			}
		}
	}
	return out, true
}

// broadcastPair is broadcast for the two operands of an elementwise
// operation, with PyTorch's error naming the dimension that disagrees.
func broadcastPair(op string, a, b []int) []int {
	if out, ok := broadcast(a, b); ok {
		return out
	}
	rank := max(len(a), len(b))
	for i := rank - 1; i >= 0; i-- {
		sa, sb := 1, 1
		if j := i - (rank - len(a)); j >= 0 {
			sa = a[j]
		}
		if j := i - (rank - len(b)); j >= 0 {
			sb = b[j]
		}
		if sa != sb && sa != 1 && sb != 1 {
			fail(op, "The size of tensor a (%d) must match the size of tensor b (%d) at non-singleton dimension %d", sa, sb, i)
		}
	}
	fail(op, "cannot broadcast shapes %s and %s", listString(a), listString(b))
	return nil
}
