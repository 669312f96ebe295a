package display_test

// These examples print the text/plain form of each picture, the form a
// console or a test sees. In a notebook, display.Show(picture) sends the
// same picture in its richer forms (HTML, SVG, PNG) as well.

import (
	"fmt"
	"strings"

	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/tensor"
)

// A transpose moves no element: Layout shows the swapped strides on the
// card, the grid of value@slot in the new order, and the storage strip
// still read from slot 0 to slot 5.
func ExampleLayout() {
	x := tensor.Arange(6).View(2, 3)
	fmt.Println(display.Layout(x.T()).Bundle()[display.MIMEPlain])
	// Output:
	// dtype      int64 (8 bytes an element)
	// shape      (3, 2)
	// strides    (1, 3) elements = (8, 24) bytes
	// offset     0 elements = 0 bytes from the storage base
	// contiguous no
	// view       yes
	// storage    6 × int64 (48 bytes)
	// layout     (3,2):(1,3)
	// address    0 + 1·i + 3·j
	//
	// shape (3, 2), strides (1, 3): address = 0 + 1·i + 3·j
	//     j=0 j=1
	// i=0 0@0 3@3
	// i=1 1@1 4@4
	// i=2 2@2 5@5
	//
	// storage: 6 × int64 (48 bytes); the tensor's 6 elements start at offset 0
	// slot  0     1 2 3 4 5
	// value 0     1 2 3 4 5
	// read  ^ off ^ ^ ^ ^ ^
}

// Expanding a row to two rows gives its first dimension stride 0: both
// rows read the same three slots.
func ExampleBroadcast() {
	row := tensor.New([]int64{10, 20, 30})
	fmt.Println(display.Broadcast(row.Expand(2, 3)).Bundle()[display.MIMEPlain])
	// Output:
	// shape (2, 3), strides (0, 1): each position and the slot it reads
	// slot 0 (10) ← x[0, 0] x[1, 0]
	// slot 1 (20) ← x[0, 1] x[1, 1]
	// slot 2 (30) ← x[0, 2] x[1, 2]
}

// A Lineage records each step where it is computed and tells views from
// copies by their storage: the transpose and the row of it are views of
// x's storage S1, while flattening the transpose has to copy into S2.
func ExampleLineage() {
	l := display.NewLineage()
	x := l.Add("x", tensor.Float32.Arange(6).View(2, 3))
	y := l.Derive("y", x.T(), "t()", "x")
	l.Derive("z", y.Reshape(-1), "reshape(-1)", "y")
	l.Derive("w", y.Select(0, 0), "select(0, 0)", "y")
	fmt.Println(l.Bundle()[display.MIMEPlain])
	// Output:
	// x                    in S1       (2, 3):(3, 1)
	// y = t()(x)           view of S1  (3, 2):(1, 3)
	// z = reshape(-1)(y)   copy in S2  (6,):(1,)
	// w = select(0, 0)(y)  view of S1  (2,):(3,)
	//
	// storage S1: 6 × float32 (24 bytes) behind x, y, w
	// storage S2: 6 × float32 (24 bytes) behind z
}

// The same eight numbers read as two heads of query and key vectors under
// two packing contracts: interleaved by head, or blocked by role.
func ExamplePacking() {
	packed := tensor.Arange(8)
	fmt.Println(display.Packing(packed, tensor.InterleavedByHead(2, 2), tensor.BlockedByRole(2, 2)).Bundle()[display.MIMEPlain])
	// Output:
	// position                    0    1    2    3    4    5    6    7
	// value                       0    1    2    3    4    5    6    7
	// interleaved by head (h r d) h0·Q h0·Q h0·K h0·K h1·Q h1·Q h1·K h1·K
	// blocked by role (r h d)     Q·h0 Q·h0 Q·h1 Q·h1 K·h0 K·h0 K·h1 K·h1
}

// DecodeFlow charts how a contract decodes its axis; every step is a view.
func ExampleDecodeFlow() {
	fmt.Println(display.DecodeFlow(tensor.InterleavedByHead(2, 2)).Bundle()[display.MIMEPlain])
	// Output:
	// interleaved by head (h r d): 8 positions, position = 4·h + 2·r + d
	//   split  unflatten     (…, h, r, d) = (…, 2, 2, 2)  view
	//   Q      select r = 0  (…, h, d) = (…, 2, 2)        view
	//   K      select r = 1  (…, h, d) = (…, 2, 2)        view
}

// Views draws a matrix, its transpose and a contiguous copy of the
// transpose: the first two share storage S1, the copy has S2 to itself,
// with the values in the transpose's order.
func ExampleViews() {
	a := tensor.Arange(6).View(2, 3)
	text := display.Views(
		display.Named{Name: "a", Tensor: a},
		display.Named{Name: "a.T", Tensor: a.T()},
		display.Named{Name: "copy", Tensor: a.T().Contiguous()},
	).Bundle()[display.MIMEPlain]
	// An Output block cannot hold the spaces that end some lines.
	for _, line := range strings.Split(text, "\n") {
		fmt.Println(strings.TrimRight(line, " "))
	}
	// Output:
	// storage S1: 6 × int64 (48 bytes)
	// slot  0 1 2 3 4 5
	// value 0 1 2 3 4 5
	// a     ■ ■ ■ ■ ■ ■
	// a.T   ■ ■ ■ ■ ■ ■
	//
	// storage S2: 6 × int64 (48 bytes)
	// slot  0 1 2 3 4 5
	// value 0 3 1 4 2 5
	// copy  ■ ■ ■ ■ ■ ■
	//
	// a and a.T: views of one storage (S1) that read some of the same slots
	// a and copy: separate storages (S1, S2)
	// a.T and copy: separate storages (S1, S2): equal values, one is a copy of the other
}
