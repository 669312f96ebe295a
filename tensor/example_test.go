package tensor_test

// These examples reproduce the numbers of the four articles the notebooks
// are built from (in ../shared/seeds/): "A Tensor Is a Flat Buffer and a
// Promise", "Tensor, strides, and storage: why a transpose can be free",
// "Tensors, shapes and broadcasting" and "A tensor is one-dimensional".

import (
	"errors"
	"fmt"

	"github.com/tensornb/tensornb/tensor"
)

// The address of an element is the storage offset plus the sum of each
// index times its stride.
func Example() {
	x := tensor.Float32.Arange(24).Reshape(2, 3, 4)
	fmt.Println("shape  ", x.Shape())
	fmt.Println("strides", x.Strides())
	fmt.Println("offset ", x.StorageOffset())

	i, j, k := 1, 2, 3
	addr := x.StorageOffset() + i*x.Stride(0) + j*x.Stride(1) + k*x.Stride(2)
	fmt.Println("x[1,2,3] =", x.At(i, j, k), "at address", addr, "=", x.Address(i, j, k))
	// Output:
	// shape   (2, 3, 4)
	// strides (12, 4, 1)
	// offset  0
	// x[1,2,3] = 23 at address 23 = 23
}

// A transpose swaps two sizes and their strides; no element moves.
func ExampleTensor_Transpose() {
	x := tensor.Float32.Arange(24).Reshape(2, 3, 4)
	y := x.Transpose(1, 2)
	fmt.Println(x.Strides(), y.Strides(), y.IsContiguous(), y.SharesStorage(x))
	// Output:
	// (12, 4, 1) (12, 1, 4) false true
}

// View refuses a shape the strides cannot express, with PyTorch's words.
func ExampleTensor_View_refuses() {
	y := tensor.Float32.Arange(24).Reshape(2, 3, 4).Transpose(1, 2)
	fmt.Println(tensor.Try(func() { y.View(-1) }))
	// Output:
	// view: view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.
}

// Reshape returns a view when it can and a copy when it must; CanView and
// SharesStorage tell which.
func ExampleTensor_Reshape() {
	a := tensor.Float32.Arange(12).Reshape(3, 4)
	b := a.T()
	fmt.Println(b.CanView(-1))
	flat := b.Reshape(-1)
	fmt.Println(flat, flat.SharesStorage(b))
	// Output:
	// false
	// tensor([ 0.,  4.,  8.,  1.,  5.,  9.,  2.,  6., 10.,  3.,  7., 11.]) false
}

// A slice starts partway into the storage: the first element's address
// differs from the storage base, though the allocation is shared.
func ExampleTensor_SharesStorage() {
	base := tensor.Arange(12).Reshape(3, 4)
	crop := base.Index("1:, 1:")
	fmt.Println("first-element addresses equal?", base.DataPtr() == crop.DataPtr())
	fmt.Println("same underlying storage?      ", crop.SharesStorage(base))
	fmt.Println("crop's storage offset:", crop.StorageOffset(), "| crop's strides:", crop.Strides())
	// Output:
	// first-element addresses equal? false
	// same underlying storage?       true
	// crop's storage offset: 5 | crop's strides: (4, 1)
}

// A stepped slice is not contiguous, yet it can still be flattened by a
// view of stride 2.
func ExampleTensor_Slice() {
	a := tensor.Float32.Arange(12).Reshape(3, 4)
	s := a.Slice(1, 1, tensor.End, 2) // a[:, 1::2]
	fmt.Println(s.Strides(), s.StorageOffset(), s.DataPtr()-a.DataPtr(), s.IsContiguous())
	fmt.Println(s.View(-1).Strides())
	// Output:
	// (4, 2) 1 4 false
	// (2,)
}

// Index takes Python's index syntax; basic indexing returns views.
func ExampleTensor_Index() {
	a := tensor.Float32.Arange(12).Reshape(3, 4)
	s := a.Index("1:, ::2")
	fmt.Println(s.Shape(), s.Strides(), s.StorageOffset())
	fmt.Println(s)
	fmt.Println(a.Index("..., 0, None").Shape())
	// Output:
	// (2, 2) (4, 2) 4
	// tensor([[ 4.,  6.],
	//         [ 8., 10.]])
	// (3, 1)
}

// Expand reads one element in many places through a stride of 0; Repeat
// copies.
func ExampleTensor_Expand() {
	a := tensor.Float32.Arange(3).View(3, 1)
	e := a.Expand(3, 4)
	r := a.Repeat(1, 4)
	fmt.Println(e.Strides(), e.SharesStorage(a))
	fmt.Println(r.Strides(), r.SharesStorage(a))
	// Output:
	// (1, 0) true
	// (4, 1) false
}

// One write through an expanded view changes every position that reads the
// same slot; a whole-tensor in-place write is refused.
func ExampleTensor_Set() {
	e := tensor.Float32.Arange(3).View(3, 1).Expand(3, 4)
	e.Set(99, 0, 1)
	fmt.Println(e.Select(0, 0))
	fmt.Println(tensor.Try(func() { e.AddInPlace(1) }))
	// Output:
	// tensor([99., 99., 99., 99.])
	// add_: unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.
}

// Writes through a transpose reach the original; a contiguous copy has its
// own storage.
func ExampleTensor_Contiguous() {
	a := tensor.Float32.Arange(12).Reshape(3, 4)
	b := a.T()
	c := b.Contiguous()
	b.Set(60, 2, 1)
	fmt.Println(a.At(1, 2), c.At(2, 1))
	fmt.Println(c.Strides(), c.IsContiguous(), c.SharesStorage(a), a.Contiguous() == a)
	// Output:
	// 60 6
	// (3, 1) true false true
}

func ExampleBroadcastShapes() {
	fmt.Println(tensor.BroadcastShapes(tensor.Shape{8, 1, 6, 1}, tensor.Shape{7, 1, 5}))
	fmt.Println(tensor.Try(func() { tensor.BroadcastShapes(tensor.Shape{2, 3}, tensor.Shape{4}) }))
	// Output:
	// (8, 7, 6, 5)
	// broadcast_shapes: Shape mismatch: objects cannot be broadcast to a single shape
}

// A prediction of shape [32, 1] minus a target of shape [32] broadcasts to
// [32, 32]: a valid-looking, wrong loss.
func ExampleTensor_Sub() {
	pred := tensor.Zeros(32, 1)
	target := tensor.Zeros(32)
	fmt.Println(pred.Sub(target).Shape())
	// Output:
	// (32, 32)
}

// NumPy reports strides in bytes.
func ExampleTensor_ByteStrides() {
	a := tensor.Int32.Arange(12)
	b := a.Reshape(3, 4)
	fmt.Println(a.ByteStrides(), b.Shape(), b.ByteStrides(), b.SharesMemory(a))
	c := b.T()
	fmt.Println(c.Shape(), c.ByteStrides(), c.SharesMemory(a))
	fmt.Println(b.At(2, 1), 2*b.ByteStrides()[0]+1*b.ByteStrides()[1])
	fmt.Println(c.Reshape(12).SharesMemory(a), c.Ravel().SharesMemory(a))
	// Output:
	// (4,) (3, 4) (16, 4) true
	// (4, 3) (4, 16) true
	// 9 36
	// false false
}

// Broadcasting is a stride of zero.
func ExampleTensor_BroadcastTo() {
	e := tensor.Int32.Arange(6).Reshape(2, 3)
	fmt.Println(e.BroadcastTo(4, 2, 3).ByteStrides())
	// Output:
	// (0, 12, 4)
}

// Patchify by reshape, permute and reshape equals PixelUnshuffle; the
// permute leaves the tensor non-contiguous, so the last reshape copies.
func ExampleTensor_PixelUnshuffle() {
	tensor.ManualSeed(0)
	n, c, h, w, p := 2, 3, 8, 8, 2
	img := tensor.Randn(n, c, h, w)
	permuted := img.Reshape(n, c, h/p, p, w/p, p).Permute(0, 1, 3, 5, 2, 4)
	out := permuted.Reshape(n, c*p*p, h/p, w/p)
	fmt.Println(img.Shape(), "->", out.Shape())
	fmt.Println("matches PixelUnshuffle?", out.Equal(img.PixelUnshuffle(p)))
	fmt.Println("PixelShuffle undoes it?", out.PixelShuffle(p).Equal(img))
	fmt.Println("after the permute, contiguous?", permuted.IsContiguous())
	fmt.Println("final reshape shares img's storage?", out.SharesStorage(img))
	// Output:
	// (2, 3, 8, 8) -> (2, 12, 4, 4)
	// matches PixelUnshuffle? true
	// PixelShuffle undoes it? true
	// after the permute, contiguous? false
	// final reshape shares img's storage? false
}

// The packing contract: a feature axis packed interleaved by head,
// [h0_q, h0_k, h1_q, h1_k], decodes with a view; splitting it in halves as
// if it were [all Q | all K] returns the same shape and different values.
func Example_packingContract() {
	b, s, heads, dHead := 1, 2, 2, 3
	d := heads * 2 * dHead
	x := tensor.Float32.Arange(float64(b*s*d)).Reshape(b, s, d)

	// The oracle: feature = h·(2·dHead) + role·dHead + i, copied by loops.
	q, k := tensor.Zeros(b, heads, s, dHead), tensor.Zeros(b, heads, s, dHead)
	for t := range s {
		for h := range heads {
			for i := range dHead {
				q.Set(x.At(0, t, h*2*dHead+i), 0, h, t, i)
				k.Set(x.At(0, t, h*2*dHead+dHead+i), 0, h, t, i)
			}
		}
	}

	packed := x.View(b, s, heads, 2, dHead)
	qView := packed.Select(3, 0).Transpose(1, 2)
	kView := packed.Select(3, 1).Transpose(1, 2)
	fmt.Println("K head 0:", kView.Index("0, 0, 0"), "matches the oracle?", qView.Equal(q) && kView.Equal(k))

	halves := x.Chunk(2, -1)
	qWrong := halves[0].Reshape(b, s, heads, dHead).Transpose(1, 2)
	fmt.Println("wrong split's shape:", qWrong.Shape(), "matches the oracle?", qWrong.Equal(q))
	// Output:
	// K head 0: tensor([3., 4., 5.]) matches the oracle? true
	// wrong split's shape: (1, 2, 2, 3) matches the oracle? false
}

// Rearrange writes the split of a packed feature axis as a pattern: the
// result is a view, its roles first. Merging it back is a view too, but
// repacking the axis blocked by role moves elements, so it copies.
func ExampleRearrange() {
	x := tensor.Float32.Arange(2*12).Reshape(1, 2, 12)
	qk := tensor.Rearrange(x, "b s (h r d) -> r b h s d", tensor.Sizes{"h": 2, "r": 2})
	fmt.Println(qk.Shape(), qk.SharesStorage(x))
	fmt.Println("K of head 0, token 0:", qk.Index("1, 0, 0, 0"))
	back := tensor.Rearrange(qk, "r b h s d -> b s (h r d)")
	fmt.Println("merged back:", back.Equal(x), "a view?", back.SharesStorage(x))
	blocked := tensor.Rearrange(x, "b s (h r d) -> b s (r h d)", tensor.Sizes{"h": 2, "r": 2})
	fmt.Println("blocked:", blocked.Index("0, 0"), "a view?", blocked.SharesStorage(x))
	// Output:
	// (2, 1, 2, 2, 3) true
	// K of head 0, token 0: tensor([3., 4., 5.])
	// merged back: true a view? true
	// blocked: tensor([ 0.,  1.,  2.,  6.,  7.,  8.,  3.,  4.,  5.,  9., 10., 11.]) a view? false
}

// A Contract writes the packing promise down: what each position means,
// a decode, and the oracle to check any decode against.
func ExampleContract() {
	x := tensor.Float32.Arange(2*12).Reshape(1, 2, 12)
	interleaved := tensor.InterleavedByHead(2, 3)
	fmt.Println(interleaved, "position 9 is", interleaved.Meaning(9))

	parts := interleaved.Decode(x, -1)
	fmt.Println("K:", parts["K"].Shape(), parts["K"].Index("0, 0, 0"))
	fmt.Println("check:", interleaved.Check(x, -1, parts))

	// The same tensor decoded as if blocked by role: same shapes, wrong values.
	wrong := tensor.BlockedByRole(2, 3).Decode(x, -1)
	fmt.Println("wrong K:", wrong["K"].Shape(), wrong["K"].Index("0, 0, 0"))
	fmt.Println("check:", interleaved.Check(x, -1, wrong) != nil)
	// Output:
	// interleaved by head (h r d) position 9 is map[d:0 h:1 r:1]
	// K: (1, 2, 2, 3) tensor([3., 4., 5.])
	// check: <nil>
	// wrong K: (1, 2, 2, 3) tensor([6., 7., 8.])
	// check: true
}

// Views stay in the autograd graph: the gradient of a transpose is
// transposed back, and the gradient of an expand is summed over the
// stretched rows.
func ExampleTensor_Backward() {
	x := tensor.Float32.Arange(6).SetRequiresGrad(true)
	loss := x.Reshape(2, 3).T().Sum()
	fmt.Println(loss)
	loss.Backward()
	fmt.Println(x.Grad())

	v := tensor.New([]float32{1, 2}, 1, 2).SetRequiresGrad(true)
	v.Expand(3, 2).Sum().Backward()
	fmt.Println(v.Grad())
	// Output:
	// tensor(15., grad_fn=<SumBackward0>)
	// tensor([1., 1., 1., 1., 1., 1.])
	// tensor([[3., 3.]])
}

// Version counters: a value saved for the backward pass and then changed
// in place is refused, and so is any in-place write to a leaf that
// requires grad, or to a view of one.
func ExampleTensor_Version() {
	x := tensor.New([]float32{1, 2, 3}).SetRequiresGrad(true)
	y := x.Mul(2)
	z := y.Mul(y) // saves y, at version 0
	y.AddInPlace(1)
	fmt.Println("y is at version", y.Version())
	fmt.Println(tensor.Try(func() { z.Sum().Backward() }))
	fmt.Println(tensor.Try(func() { x.AddInPlace(1) }))
	fmt.Println(tensor.Try(func() { x.Index("1:").Fill(0) }))
	// Output:
	// y is at version 1
	// backward: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [3]], which is output 0 of AddBackward0, is at version 1; expected version 0 instead. Hint: an operation saved this tensor for the backward pass and it was changed in place afterwards; Clone it before the in-place write, or compute what needs it again.
	// inplace: a leaf Variable that requires grad is being used in an in-place operation.
	// inplace: a view of a leaf Variable that requires grad is being used in an in-place operation.
}

// NoGrad turns recording off, as an optimizer step does to change its
// leaves in place.
func ExampleNoGrad() {
	w := tensor.New([]float32{1, 2}).SetRequiresGrad(true)
	w.Mul(w).Sum().Backward() // d/dw Σw² = 2w
	tensor.NoGrad(func() {
		w.SubInPlace(w.Grad().Mul(0.25))
	})
	fmt.Println(w, w.Grad())
	// Output:
	// tensor([0.5000, 1.0000], requires_grad=True) tensor([2., 4.])
}

// Try turns the *tensor.Error a misuse panics with into an error.
func ExampleTry() {
	x := tensor.Arange(6)
	err := tensor.Try(func() { x.View(4, -1) })
	fmt.Println(err)
	var e *tensor.Error
	if errors.As(err, &e) {
		fmt.Println(e.Class)
	}
	// Output:
	// view: shape '[4, -1]' is invalid for input of size 6
	// RuntimeError
}
