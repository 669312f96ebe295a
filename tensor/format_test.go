package tensor_test

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/tensor"
)

// reprCase is one tensor and PyTorch's repr of it, from testdata/repr.json
// (written by testdata/gen_repr.py).
type reprCase struct {
	Name   string            `json:"name"`
	DType  string            `json:"dtype"`
	Shape  []int             `json:"shape"`
	Values []json.RawMessage `json:"values"`
	Repr   string            `json:"repr"`
}

var reprDTypes = []tensor.DType{
	tensor.Float32, tensor.Float64, tensor.Int64, tensor.Int32,
	tensor.Uint8, tensor.Bool, tensor.Float16, tensor.BFloat16,
}

// build returns the case's tensor. Floats are parsed at the precision of
// their storage, float32 for the 16-bit types, so every value is exact.
func (c *reprCase) build(t *testing.T) *tensor.Tensor {
	var dt tensor.DType
	found := false
	for _, d := range reprDTypes {
		if d.String() == c.DType {
			dt, found = d, true
		}
	}
	if !found {
		t.Fatalf("unknown dtype %q", c.DType)
	}
	n := len(c.Values)
	switch {
	case dt == tensor.Bool:
		vals := make([]bool, n)
		for i, raw := range c.Values {
			mustUnmarshal(t, raw, &vals[i])
		}
		return newShaped(tensor.Bool, vals, c.Shape)
	case !dt.IsFloatingPoint():
		vals := make([]int64, n)
		for i, raw := range c.Values {
			mustUnmarshal(t, raw, &vals[i])
		}
		return newShaped(tensor.Int64, vals, c.Shape).To(dt)
	case dt == tensor.Float64:
		vals := make([]float64, n)
		for i, raw := range c.Values {
			vals[i] = parseFloat(t, raw, 64)
		}
		return newShaped(tensor.Float64, vals, c.Shape)
	default:
		vals := make([]float32, n)
		for i, raw := range c.Values {
			vals[i] = float32(parseFloat(t, raw, 32))
		}
		return newShaped(tensor.Float32, vals, c.Shape).To(dt)
	}
}

func mustUnmarshal(t *testing.T, raw json.RawMessage, v any) {
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatal(err)
	}
}

// parseFloat reads a JSON number, or one of the strings "nan", "inf" and
// "-inf", rounding it to the given bit size.
func parseFloat(t *testing.T, raw json.RawMessage, bitSize int) float64 {
	s := string(raw)
	if unquoted, err := strconv.Unquote(s); err == nil {
		s = unquoted
	}
	v, err := strconv.ParseFloat(s, bitSize)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// firstDiff describes the first line where got and want differ.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(g), len(w)) {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl || i >= len(g) || i >= len(w) {
			return fmt.Sprintf("first difference at line %d:\n got: %q\nwant: %q", i+1, gl, wl)
		}
	}
	return "no difference"
}

func TestStringMatchesPyTorchRepr(t *testing.T) {
	data, err := os.ReadFile("testdata/repr.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []reprCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no cases in testdata/repr.json")
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			x := c.build(t)
			checkRepr(t, "contiguous", x, c.Repr)
			if x.Dim() >= 2 {
				// The same elements through transposed strides print the same.
				strided := x.Transpose(0, 1).Contiguous().Transpose(0, 1)
				checkRepr(t, "strided", strided, c.Repr)
			}
		})
	}
}

func checkRepr(t *testing.T, layout string, x *tensor.Tensor, want string) {
	t.Helper()
	if got := x.String(); got != want {
		t.Errorf("%s String() differs from PyTorch; %s\n--- got:\n%s\n--- want:\n%s",
			layout, firstDiff(got, want), got, want)
	}
}

func ExampleTensor_String() {
	fmt.Println(tensor.New([]float32{0.5, -1, 2.25, 10}, 2, 2))
	fmt.Println(tensor.New([]int32{7, -80, 900}))
	// Output:
	// tensor([[ 0.5000, -1.0000],
	//         [ 2.2500, 10.0000]])
	// tensor([  7, -80, 900], dtype=torch.int32)
}

// sizes returns n sizes of size.
func sizes(size, n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = size
	}
	return s
}

// element matches one printed element, with "..." counted apart.
var printedElement = regexp.MustCompile(`-?[0-9][0-9.e+-]*|nan|inf`)

// A summary of high rank, which PyTorch prints with three items at each
// end of every long dimension (6ⁿ elements), prints at most 2000 elements:
// outer dimensions show their first item and "...". Tensors whose PyTorch
// summary is that small are printed as PyTorch prints them (see
// TestStringMatchesPyTorchRepr).
func TestStringOfHighRankIsBounded(t *testing.T) {
	for _, c := range []struct {
		name  string
		make  func() *tensor.Tensor
		shown int // elements printed
	}{
		{"18-D of 2^18", func() *tensor.Tensor { return tensor.Arange(1 << 18).View(sizes(2, 18)...) }, 1024},
		{"8-D expanded 10^8", func() *tensor.Tensor { return tensor.Scalar(1).Expand(sizes(10, 8)...) }, 1296},
		{"5-D expanded 7^5", func() *tensor.Tensor { return tensor.Scalar(1).Expand(sizes(7, 5)...) }, 1296},
		{"62-D expanded 2^62", func() *tensor.Tensor { return tensor.Scalar(float32(1)).Expand(sizes(2, 62)...) }, 1024},
		{"4-D expanded 7^4, as PyTorch", func() *tensor.Tensor { return tensor.Scalar(1).Expand(sizes(7, 4)...) }, 1296},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := c.make().String() // a hang ends at go test's -timeout
			if len(s) > 200_000 {
				t.Errorf("String is %d bytes", len(s))
			}
			if n := len(printedElement.FindAllString(s, -1)); n != c.shown {
				t.Errorf("String prints %d elements, want %d", n, c.shown)
			}
		})
	}
}

// newShaped is tensor.New(vals, shape...) of dtype dt, except that an
// empty shape makes a 0-d tensor, as torch.tensor(3.) does: New makes a
// 1-D tensor when it is given no shape, whether as nil or as an empty
// slice (the interpreter passes the latter).
func newShaped[T any](dt tensor.DType, vals []T, shape []int) *tensor.Tensor {
	if len(shape) == 0 {
		return dt.Scalar(vals[0])
	}
	return tensor.New(vals, shape...)
}
