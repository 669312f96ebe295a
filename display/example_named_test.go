package display_test

import (
	"fmt"

	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/tensor"
)

// A Named tensor's pictures are titled with its name.
func ExampleNamed_OffsetGrid() {
	y := tensor.Arange(8).View(2, 2, 2).Transpose(1, 2)
	fmt.Println(display.Named{Name: "y", Tensor: y}.OffsetGrid().Bundle()[display.MIMEPlain])
	// Output:
	// y: shape (2, 2, 2), strides (4, 1, 2): address = 0 + 4·i + 1·j + 2·k
	// y[0, :, :]
	//     k=0 k=1
	// j=0 0   2
	// j=1 1   3
	//
	// y[1, :, :]
	//     k=0 k=1
	// j=0 4   6
	// j=1 5   7
}
