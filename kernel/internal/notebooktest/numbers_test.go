package notebooktest

// articleNumbers lists, per notebook, the numbers its article prints (with
// PyTorch or NumPy) and the cell that must show them when run. The values
// are the articles'; the notebooks compute them with package tensor.
var articleNumbers = map[string][]number{
	"01-flat-buffer-and-a-promise.ipynb": {
		{"interleaved2.Decode(packed, 0)", []string{"K of head 0 is tensor([20., 21.])", "K of head 0 is tensor([30., 31.])"}},
		{"var x = tensor.Float32.Arange(24).View(2, 3, 4)", []string{"shape   (2, 3, 4)", "strides (12, 4, 1)", "offset  0", "x[1,2,3] = 23, and the formula gives slot 23 (Address agrees: 23)"}},
		{"var m64", []string{"element strides (3, 1)", "(24, 8)"}},
		{"var y = x.Transpose(1, 2)", []string{"y: (2, 4, 3) (12, 1, 4)", "y is contiguous? false", "y shares x's storage? true"}},
		{"var crop", []string{"same first-element address? false", "same storage?               true", "crop: offset 5 strides (4, 1)"}},
		{"y.View(-1)", []string{"view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead."}},
		{"var flat = y.Reshape(-1)", []string{"shares y's storage? false"}},
		{"var expanded = col.Expand(3, 4)", []string{"Expand(3, 4) strides (1, 0) | shares col's storage? true", "Repeat(1, 4) strides (4, 1) | shares col's storage? false", "same values? true"}},
		{"expanded.Set(99, 0, 1)", []string{"tensor([99., 99., 99., 99.])"}},
		{"expanded.AddInPlace(1)", []string{"unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation."}},
		{"var qk =", []string{"tensor([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11.])"}},
		{"qRef, kRef := splitOracle", []string{
			"Q head 0 tensor([0., 1., 2.])  Q head 1 tensor([6., 7., 8.])",
			"K head 0 tensor([3., 4., 5.])  K head 1 tensor([ 9., 10., 11.])",
			"matches the oracle? true",
			"halves split: shape (1, 2, 2, 3) | same shape as the view split? true",
			"Q head 0 tensor([0., 1., 2.])  K head 0 tensor([6., 7., 8.])",
			"matches the oracle? false",
		}},
		{"var interleaved = tensor.InterleavedByHead", []string{"-> check: <nil>", "part K differs from the oracle's"}},
		{"var patches =", []string{"(2, 3, 8, 8) -> (2, 12, 4, 4)", "equals PixelUnshuffle?              true", "PixelShuffle gives img back?        true", "contiguous after the permute?       false", "final reshape shares img's storage? false"}},
	},
	"02-strides-and-storage.ipynb": {
		{`fmt.Println("a:", a.Shape()`, []string{"a: (3, 4) strides (4, 1)", "b: (4, 3) strides (1, 4)", "same storage? true", "b[2, 1] = 6 and a[1, 2] = 6"}},
		{"elem := b.StorageOffset()", []string{"element offset 6 = 24 bytes"}},
		{`var s = a.Index(":, 1::2")`, []string{"s: strides (4, 2) offset 1", "s.DataPtr() - a.DataPtr() = 4 bytes", "same storage base? true"}},
		{"type view2D struct", []string{"6 7\n60 60\n"}},
		{"b.View(-1)", []string{"view size is not compatible with input tensor's size and stride"}},
		{`s.View(-1).Strides()`, []string{
			"s.View(-1) strides (2,)",
			"tensor([ 0.,  4.,  8.,  1.,  5.,  9.,  2.,  6., 10.,  3.,  7., 11.]) | a copy? true",
			"c = b.Contiguous(): strides (3, 1) contiguous true | shares a's storage? false",
		}},
		{"b2.Set(60, 2, 1)", []string{"a2[1, 2] = 60  c2[2, 1] = 6"}},
		{"x.Reshape(2, 3).T().Sum()", []string{"x.Grad() = tensor([1., 1., 1., 1., 1., 1.])", "v.Grad() = tensor([[3., 3.]])"}},
		{"savedThenModified().Backward()", []string{"one of the variables needed for gradient computation has been modified by an inplace operation"}},
		{"leaf.T().MulInPlace(2)", []string{"a view of a leaf Variable that requires grad is being used in an in-place operation."}},
		{`q1 := a.Index("1:, ::2")`, []string{"1: (2, 2) (4, 2) 4 tensor([[ 4.,  6.],\n        [ 8., 10.]])", "2: a.Contiguous() is a itself? true", "3: (3, 4) (4, 1) same storage? true"}},
	},
	"03-shapes-and-broadcasting.ipynb": {
		{"var x = tensor.Arange(24).Reshape(2, 3, 4)", []string{"shape   (2, 3, 4)", "strides (12, 4, 1)", "dtype   int64", "device  cpu"}},
		{"x.Address(idx...)", []string{"by the formula: 23", "x.Address     : 23"}},
		{"var y = x.Transpose(0, 1)", []string{"y shape       (3, 2, 4)", "y strides     (4, 12, 1)", "contiguous?   false", "same storage? true", "y[2,1,3] == x[1,2,3]: tensor(True)"}},
		{"y.View(-1)", []string{"view size is not compatible with input tensor's size and stride"}},
		{"var flat = y.Reshape(-1)", []string{"flat shares x's storage?    false"}},
		{"var a = tensor.New([]int64{0, 10, 20}, 3, 1)", []string{"(3, 1) + (1, 4) -> (3, 4)"}},
		{"var aWide = a.Expand(3, 4)", []string{"strides (1, 0)"}},
		{"tensor.BroadcastShapes(tensor.Shape{8, 1, 6, 1}, tensor.Shape{7, 1, 5})", []string{"(8, 7, 6, 5)"}},
		{"var acts =", []string{"(32, 10, 512) + (512,) -> (32, 10, 512)"}},
		{"mean := acts.MeanKeepDim(-1)", []string{"mean      (32, 10, 1)"}},
		{"var target =", []string{"pred - target (32, 32)"}},
	},
	"04-one-dimensional.ipynb": {
		{"var a = tensor.Int32.Arange(12)", []string{"a.strides: (4,)", "b.shape, b.strides: (3, 4) (16, 4)", "b shares memory with a: true"}},
		{"var c = b.T()", []string{"c.shape, c.strides: (4, 3) (4, 16)", "c shares memory with a: true"}},
		{"bs := b.ByteStrides()", []string{"b[2, 1] = 9", "byte offset: 36"}},
		{"c.Reshape(12)", []string{"c.Reshape(12) shares memory with a: false", "c.Ravel()     shares memory with a: false"}},
		{"c.View(-1)", []string{"view size is not compatible with input tensor's size and stride"}},
		{"b.Ravel()", []string{"b.Ravel()       shares memory with a: true", "c.Ravel()       shares memory with a: false", "c.FlattenCopy() shares memory with a: false"}},
		{"var e = tensor.Int32.Arange(6).Reshape(2, 3)", []string{"big.strides: (0, 12, 4) bytes"}},
	},
}
