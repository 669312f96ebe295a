// Package tensor is a strided tensor library whose layout rules are
// PyTorch's: a Tensor is a flat, typed Storage plus a shape, strides (in
// elements) and a storage offset, and the element at index (i₀, i₁, …)
// lives in storage slot offset + Σ iₖ·strides[k].
//
// The go doc command lists the package's names alphabetically; the
// sections below group them by what they are for, from the layout of one
// tensor to autograd, packing contracts and errors.
//
// # Layout
//
// A [Tensor] reads its elements from a [Storage], one flat buffer of a
// single [DType], through its [Shape], its [Strides] and a storage offset.
// [Tensor.DType], [Tensor.Shape], [Tensor.Size], [Tensor.Dim],
// [Tensor.Numel], [Tensor.Strides], [Tensor.Stride] and
// [Tensor.StorageOffset] report them, and [Tensor.Address] evaluates the
// address formula for one index. [Tensor.IsContiguous] tells whether the
// elements lie in row-major order with no gaps. [Tensor.ByteStrides],
// [Tensor.ElementSize] and [Tensor.DataPtr] give the same facts in bytes,
// and [Tensor.Device] is always "cpu".
//
// Several tensors can read one storage, and four questions tell how they
// relate: [Tensor.SharesStorage] (the same allocation),
// [Tensor.SharesMemory] (some slot read by both, worked out exactly),
// [Tensor.MayShareMemory] (overlapping bounds only) and [Tensor.IsView]
// with [Tensor.Base] (the view PyTorch records). [Tensor.Storage] returns
// the buffer itself, which [Storage.Len], [Storage.NBytes], [Storage.At],
// [Storage.DType] and [Storage.DataPtr] describe.
//
// # Creating
//
// [New] copies a Go slice into a new tensor and [Scalar] wraps one Go value
// in a 0-dimensional one. [Zeros], [Ones], [Full], [Empty], [Arange],
// [Linspace], [Rand] and [Randn] make new tensors in the dtype PyTorch
// would choose (Float32 for most, Int64 for [Arange], the Go value's kind
// for [Full]); [ManualSeed] makes the random ones repeatable. To choose the
// element type, call the method of the same name on a [DType] instead, such
// as [DType.Zeros], [DType.Arange] or [DType.Rand]:
//
//	x := tensor.Float64.Zeros(2, 3)
//
// The dtypes are [Float32], [Float64], [Int64], [Int32], [Uint8], [Bool],
// [Float16] and [BFloat16]; [DType.ItemSize] and [DType.IsFloatingPoint]
// describe them.
//
// # Views
//
// Operations that only change the address arithmetic — View, Transpose,
// Permute, Slice, Select, Expand, Unfold, Diagonal, basic Index and the
// like — return views over the same Storage and never copy, so a write
// through a view is seen by every tensor that reads the same slots.
//
// To make the difference visible in go doc, the doc comment of each method
// that returns tensors begins with a label: "View:" when the result always
// reads x's storage, "Copy:" when it always gets a storage of its own,
// "View or copy:" when it depends on x (the comment says on what), and "In
// place:" for the methods that write into x's own storage.
//
// The views, by what they change:
//
//   - the shape of the same elements: [Tensor.View], [Tensor.Unflatten],
//     [Tensor.Squeeze], [Tensor.Unsqueeze]
//   - the order of the dimensions: [Tensor.Transpose], [Tensor.Permute],
//     [Tensor.MoveDim], [Tensor.T], [Tensor.MT], [Tensor.ReverseDims]
//   - which elements are kept: [Tensor.Slice] (with [End] for an open
//     stop), [Tensor.Narrow], [Tensor.Select], [Tensor.Index] without a
//     list, [Tensor.Diagonal], [Tensor.Unfold]
//   - repeats by stride 0: [Tensor.Expand], [Tensor.ExpandAs],
//     [Tensor.BroadcastTo]
//   - several views at once: [Tensor.Split], [Tensor.SplitSizes],
//     [Tensor.Chunk], [Tensor.TensorSplit], [Tensor.TensorSplitAt],
//     [Tensor.Unbind]
//   - any geometry at all: [Tensor.AsStrided]
//
// [Tensor.Detach] also returns a tensor over x's storage, but one outside
// autograd's graph.
//
// # Copies
//
// Operations that must move data — Contiguous on a non-contiguous tensor,
// Clone, Repeat, IndexSelect, arithmetic — return tensors over a new
// Storage. Reshape and Flatten return a view when the strides allow and a
// copy otherwise, as in PyTorch; CanView and SharesStorage tell which
// (and package check's NoCopy whether a piece of code copied).
// Rearrange does the same for an einops pattern such as
// "b s (h r d) -> r b h s d". The calls that copy, or may:
//
//   - a view when possible, a copy otherwise: [Tensor.Reshape] (ask
//     [Tensor.CanView] first), [Tensor.Flatten], [Tensor.Ravel],
//     [Rearrange], [Tensor.Contiguous], [Tensor.To] (x itself when the
//     dtype already matches), [Tensor.Index] (a copy when the index holds
//     a list)
//   - always a copy: [Tensor.Clone], [Tensor.FlattenCopy],
//     [Tensor.Repeat], [Tensor.Tile], [Cat], [Stack],
//     [Tensor.PixelShuffle], [Tensor.PixelUnshuffle]
//   - elements picked by an index tensor or a mask: [Tensor.IndexSelect],
//     [Tensor.Gather], [Tensor.MaskedSelect]
//
// # Reading and writing elements
//
// [Tensor.At] and [Tensor.Item] read one element as a float64;
// [Tensor.Float64s] and [Tensor.Int64s] read them all in row-major order.
// Writes go through a tensor to the slots it reads, so every view of those
// slots sees them: [Tensor.Set] writes one element, [Tensor.Fill] all of
// them, [Tensor.CopyFrom] copies another tensor in, and
// [Tensor.AddInPlace], [Tensor.SubInPlace], [Tensor.MulInPlace] and
// [Tensor.DivInPlace] are PyTorch's add_, sub_, mul_ and div_. Each write
// bumps the storage's [Tensor.Version].
//
// Where PyTorch's own result is not defined by its rules, the package
// refuses rather than pick one: an in-place write whose result depends on
// the order of the element writes (to overlapping Unfold windows, or from
// an input that reads what the write changes) fails with PyTorch's overlap
// error (see [Tensor.CopyFrom]).
//
// # Arithmetic
//
// [Tensor.Add], [Tensor.Sub], [Tensor.Mul], [Tensor.Div] and [Tensor.Neg]
// compute elementwise into a new tensor; the other operand is a tensor, a
// Go number or a bool, the two shapes broadcast as [BroadcastShapes] says,
// and the result's dtype is promoted by PyTorch's rules. [Tensor.Eq],
// [Tensor.Ne], [Tensor.Lt], [Tensor.Le], [Tensor.Gt] and [Tensor.Ge]
// compare in the same way and give Bool tensors. [Tensor.Matmul] multiplies
// matrices, vectors and batches of matrices; Float32 and Float64 products
// are packed and blocked for the caches, as a BLAS does, and run the
// fastest tile kernel the CPU has (AVX-512 or AVX2 on amd64, NEON on
// arm64, Go elsewhere), which the environment variable
// TENSORNB_MATMUL_KERNEL can force to a slower one. [Tensor.Equal],
// [Tensor.AllClose] and [Tensor.AllCloseTol] compare whole tensors and
// answer with a Go bool.
//
// # Reductions
//
// [Tensor.Sum], [Tensor.Mean], [Tensor.Max] and [Tensor.Min] reduce over
// the dimensions they are given, or over every element when given none;
// [Tensor.Argmax] and [Tensor.Argmin] return where the extreme element
// lies. Each has a KeepDim form ([Tensor.SumKeepDim],
// [Tensor.MeanKeepDim], [Tensor.MaxKeepDim], [Tensor.MinKeepDim],
// [Tensor.ArgmaxKeepDim], [Tensor.ArgminKeepDim]) whose reduced dimensions
// stay with size 1, so that the result broadcasts back against its input.
//
// # Autograd
//
// Autograd follows PyTorch's: SetRequiresGrad marks a leaf, operations on
// it record their grad_fn (GradFn), and Backward fills each leaf's Grad.
// Views take part like any operation, so the gradient of a transpose is
// transposed back and that of an expand summed; in-place writes bump a
// version counter that Backward checks the values it saved against. Detach
// and NoGrad step outside the graph.
//
// The calls, in the order a training step meets them:
// [Tensor.SetRequiresGrad], [Tensor.RequiresGrad], [Tensor.IsLeaf],
// [Tensor.GradFn], [Tensor.RetainGrad], [Tensor.Backward] (or
// [Tensor.BackwardWith] for a result of more than one element),
// [Tensor.Grad] and [Tensor.SetGrad]; [Tensor.Version] is the counter,
// [Tensor.Detach] and [NoGrad] leave the graph, and [IsGradEnabled] tells
// whether recording is on.
//
// # Contracts
//
// Strides say where each element lives, not what it means. A Contract
// states the meaning of the positions of one packed axis (interleaved by
// head, blocked by role, fused QKV, PixelUnshuffle's channels): it decodes
// the axis into named parts as views, packs parts back, and checks any
// decode against a slow loop-based oracle.
//
// A [Contract] comes from [NewContract], which reads an einops-style group
// and its [Sizes], or from one of the packings that are common enough to
// have a name: [InterleavedByHead], [BlockedByRole], [FusedQKV] and
// [PixelUnshuffleChannels]. [Contract.Decode] splits the axis into views,
// [Contract.Encode] packs parts into a new tensor, [Contract.Oracle]
// decodes element by element, and [Contract.Check] compares a decode with
// the oracle's. [Contract.Meaning] and [Contract.Position] translate
// between a flat position and its coordinates, [Contract.Len] is the length
// of the axis, and [Contract.Validate] checks a contract written by hand.
// The display package, github.com/tensornb/tensornb/display, draws them.
//
// # Matching PyTorch and NumPy
//
// Shapes, strides, offsets, values, printed forms and error messages match
// PyTorch 1.13 (and NumPy for the NumPy-flavoured calls ByteStrides, Ravel,
// FlattenCopy, SharesMemory and MayShareMemory); testdata/gen_fixtures.py
// records the references that the tests replay. [Tensor.String] prints
// what PyTorch's repr would, [Shape] and [Strides] print as Python tuples,
// and [DType.String] gives PyTorch's name for a dtype.
//
// Where the two libraries give one name different meanings, the package
// keeps them apart: T is PyTorch's t(), for at most two dimensions;
// ReverseDims is NumPy's .T. [Tensor.T], [Tensor.MT] and
// [Tensor.ReverseDims] are the three transposes.
//
// The API is not generic: one Tensor type serves every DType, as in PyTorch
// and NumPy, so that the package can also be driven from an interpreter.
//
// # Errors
//
// Misuse panics with a *Error carrying PyTorch's message, as gonum's mat
// package panics with its errors; Try turns such a panic into an error.
// No input, however bad, makes the package fail with a Go runtime panic,
// run out of memory or hang: a result or list of views that could not fit
// in memory is refused before it is allocated, with PyTorch's allocator's
// message, and a slot that an expanded tensor repeats is read once where
// a reduction, Fill or a dot product would read it 2⁶² times.
//
// An [Error] names the operation that refused, the Python exception class
// PyTorch would raise ([RuntimeError], [IndexError], [ValueError] or
// [TypeError]), and PyTorch's message; [Try] runs a function and
// returns the [*Error] it panicked with, if any. The writes refused
// because their order would decide the result are described under
// Reading and writing elements above.
package tensor
