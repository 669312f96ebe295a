package display_test

import (
	"fmt"
	"strings"

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

// A Named tensor's storage strip says whose storage it is.
func ExampleNamed_Strip() {
	y := tensor.Arange(6).View(2, 3).Index(":, 1:")
	fmt.Println(display.Named{Name: "y", Tensor: y}.Strip().Bundle()[display.MIMEPlain])
	// Output:
	// storage of y: 6 × int64 (48 bytes); y's 4 elements start at offset 1
	// slot  0 1     2 3 4 5
	// value 0 1     2 3 4 5
	// read    ^ off ^   ^ ^
}

// A Named tensor's explorer writes its layouts with the name: y.T, y[:,
// 1::2]. Here, the line that heads each layout in the text form.
func ExampleNamed_Explorer() {
	y := tensor.Arange(6).View(2, 3)
	text := display.Named{Name: "y", Tensor: y}.Explorer().Bundle()[display.MIMEPlain]
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, ", reads ") {
			fmt.Println(line)
		}
	}
	// Output:
	// contiguous: y (2,3):(3,1), offset 0, contiguous, reads A
	// transpose: y.T (3,2):(1,3), offset 0, not contiguous, reads A
	// stepped slice: y[:, 1::2] (2,1):(3,2), offset 1, not contiguous, reads A
	// expand: y[0].expand(2, 3) (2,3):(0,1), offset 0, not contiguous, reads A
	// contiguous copy: y.T.contiguous() (3,2):(2,1), offset 0, contiguous, reads B
}
