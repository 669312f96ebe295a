// Package tensor is a strided tensor library whose layout rules are
// PyTorch's: a Tensor is a flat, typed Storage plus a shape, strides (in
// elements) and a storage offset, and the element at index (i₀, i₁, …)
// lives in storage slot offset + Σ iₖ·strides[k].
//
// Operations that only change that arithmetic — View, Transpose, Permute,
// Slice, Select, Expand, Unfold, Diagonal, basic Index and the like —
// return views over the same Storage and never copy. Operations that must
// move data — Contiguous on a non-contiguous tensor, Clone, Repeat,
// IndexSelect, arithmetic — return tensors over a new Storage. Reshape and
// Flatten return a view when the strides allow and a copy otherwise, as in
// PyTorch; CanView and SharesStorage tell which. Rearrange does the same
// for an einops pattern such as "b s (h r d) -> r b h s d".
//
// Strides say where each element lives, not what it means. A Contract
// states the meaning of the positions of one packed axis (interleaved by
// head, blocked by role, fused QKV, PixelUnshuffle's channels): it decodes
// the axis into named parts as views, packs parts back, and checks any
// decode against a slow loop-based oracle.
//
// Shapes, strides, offsets, values, printed forms and error messages match
// PyTorch 1.13 (and NumPy for the NumPy-flavoured calls ByteStrides, Ravel,
// FlattenCopy, SharesMemory and MayShareMemory); testdata/gen_fixtures.py
// records the references that the tests replay.
//
// Autograd follows PyTorch's: SetRequiresGrad marks a leaf, operations on
// it record their grad_fn (GradFn), and Backward fills each leaf's Grad.
// Views take part like any operation, so the gradient of a transpose is
// transposed back and that of an expand summed; in-place writes bump a
// version counter that Backward checks the values it saved against. Detach
// and NoGrad step outside the graph.
//
// The API is not generic: one Tensor type serves every DType, as in PyTorch
// and NumPy, so that the package can also be driven from an interpreter.
//
// Misuse panics with a *Error carrying PyTorch's message, as gonum's mat
// package panics with its errors; Try turns such a panic into an error.
// No input, however bad, makes the package fail with a Go runtime panic,
// run out of memory or hang: a result or list of views that could not fit
// in memory is refused before it is allocated, with PyTorch's allocator's
// message, and a slot that an expanded tensor repeats is read once where
// a reduction, Fill or a dot product would read it 2⁶² times.
//
// Where PyTorch's own result is not defined by its rules, the package
// refuses rather than pick one: an in-place write whose result depends on
// the order of the element writes (to overlapping Unfold windows, or from
// an input that reads what the write changes) fails with PyTorch's overlap
// error (see CopyFrom). T is PyTorch's t(), for at most two dimensions;
// ReverseDims is NumPy's .T.
package tensor
