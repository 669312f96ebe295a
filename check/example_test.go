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
