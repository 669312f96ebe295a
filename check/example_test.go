package check_test

import (
	"fmt"

	"github.com/tensornb/tensornb/check"
	"github.com/tensornb/tensornb/tensor"
)

// A test cell of a view exercise: the first answer is a view and passes
// quietly; the second has the right values in a copy, and the check
// shows both layouts, then fails. Outside a notebook the picture is
// printed as text.
func ExampleView() {
	x := tensor.Arange(6).View(2, 3)
	check.View(x.T(), x, x.Transpose(0, 1))

	err := tensor.Try(func() { check.View(x.T().Contiguous(), x, x.Transpose(0, 1)) })
	fmt.Println(err)
	// Output:
	// expected and yours side by side; ≠ marks what differs
	//             expected       yours
	// dtype       int64          int64
	// shape       (3, 2)         (3, 2)
	// strides     (1, 3)         (2, 1)         ≠
	// offset      0              0
	// contiguous  no             yes            ≠
	// storage     S1: 6 × int64  S2: 6 × int64  ≠
	//
	// expected: shape (3, 2), strides (1, 3): address = 0 + 1·i + 3·j
	//     j=0 j=1
	// i=0 0   3
	// i=1 1   4
	// i=2 2   5
	//
	// yours: shape (3, 2), strides (2, 1): address = 0 + 2·i + 1·j
	//     j=0 j=1
	// i=0 0   3
	// i=1 1   4
	// i=2 2   5
	//
	// storage S1: 6 × int64 (48 bytes)
	// slot     0 1 2 3 4 5
	// value    0 1 2 3 4 5
	// expected ■ ■ ■ ■ ■ ■
	//
	// storage S2: 6 × int64 (48 bytes)
	// slot  0 1 2 3 4 5
	// value 0 3 1 4 2 5
	// yours ■ ■ ■ ■ ■ ■
	//
	// expected and yours: separate storages (S1, S2): equal values, one is a copy of the other
	// check.View: right values, but a copy: your result lives in a new storage of 6 slots; a view of the input was asked for (View, Transpose, Permute, Slice, Select, Index, Expand and AsStrided make views; Contiguous and Clone copy, and so does Reshape when the strides cannot express the new shape)
}

// NoCopy tells views from copies by the storages a piece of code
// allocates.
func ExampleNoCopy() {
	x := tensor.Arange(12).View(3, 4)
	var y *tensor.Tensor
	check.NoCopy(func() { y = x.T().Unsqueeze(0) })
	fmt.Println(y.Shape(), y.SharesStorage(x))

	fmt.Println(tensor.Try(func() { check.NoCopy(func() { y = x.T().Reshape(12) }) }))
	// Output:
	// (1, 4, 3) true
	// check.NoCopy: your code allocated 1 new storage where only views were asked for (View, Transpose, Permute, Slice, Select, Index, Expand and AsStrided make views; Contiguous and Clone copy, and so does Reshape when the strides cannot express the new shape)
}

// That is the check for anything else, with the teacher's message.
func ExampleThat() {
	parts := tensor.Arange(10).Split(4, 0)
	fmt.Println(tensor.Try(func() {
		check.That(len(parts) == 2, "Split(4, 0) of 10 elements should give 2 parts, not %d", len(parts))
	}))
	// Output:
	// check.That: Split(4, 0) of 10 elements should give 2 parts, not 3
}

// A hidden test of the diagonal puzzle: the answer must agree with a
// reference on many generated layouts. The teacher's answer passes; one
// that takes the rows of its input for contiguous passes the 4×4 example
// but not a matrix cut out of a wider one, which the failure shows with
// the line that makes it.
func ExampleAgree() {
	reference := func(x *tensor.Tensor) *tensor.Tensor { return x.Diagonal(0, 0, 1) }
	inputs := check.Inputs{Shapes: check.Squares(0, 6), View: true}

	right := func(x *tensor.Tensor) *tensor.Tensor {
		return x.AsStrided([]int{x.Size(0)}, []int{x.Stride(0) + x.Stride(1)}, x.StorageOffset())
	}
	check.Agree(right, reference, inputs)

	rowsTogether := func(x *tensor.Tensor) *tensor.Tensor {
		return x.AsStrided([]int{x.Size(0)}, []int{x.Size(1) + 1}, x.StorageOffset())
	}
	err := tensor.Try(func() { check.Agree(rowsTogether, reference, inputs) })
	fmt.Println(err)
	// Output:
	// dtype      float32 (4 bytes an element)
	// shape      (2, 2)
	// strides    (3, 1) elements = (12, 4) bytes
	// offset     1 elements = 4 bytes from the storage base
	// contiguous no
	// view       yes
	// storage    6 × float32 (24 bytes)
	// layout     (2,2):(3,1)
	// address    1 + 3·i + 1·j
	//
	// shape (2, 2), strides (3, 1): address = 1 + 3·i + 1·j
	//     j=0  j=1
	// i=0 1.@1 2.@2
	// i=1 4.@4 5.@5
	//
	// storage: 6 × float32 (24 bytes); the tensor's 4 elements start at offset 1
	// slot  0  1     2  3  4  5
	// value 0. 1.    2. 3. 4. 5.
	// read     ^ off ^     ^  ^
	// expected and yours side by side; ≠ marks what differs
	//             expected         yours
	// dtype       float32          float32
	// shape       (2,)             (2,)
	// strides     (4,)             (3,)             ≠
	// offset      1                1
	// contiguous  no               no
	// storage     S1: 6 × float32  S1: 6 × float32
	//
	// expected: shape (2,), strides (4,): address = 1 + 4·i
	//  i=0 i=1
	//  1.  5.≠
	//
	// yours: shape (2,), strides (3,): address = 1 + 3·i
	//  i=0 i=1
	//  1.  4.≠
	//
	// storage S1: 6 × float32 (24 bytes)
	// slot     0  1  2  3  4  5
	// value    0. 1. 2. 3. 4. 5.
	// expected    ■           ■
	// yours       ■        ■
	// ≠                    ≠  ≠
	//
	// expected and yours: views of one storage (S1) that read some of the same slots
	// check.Agree: on the input x := tensor.Float32.Arange(6).View(2, 3).Index(":, 1:3"): wrong values: 1 of 2 elements differs, at [1]: yours is 4., 5. was expected
}
