package interp_test

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/tensor"
)

// playPreset is a line of a playground's text form that lists a preset:
// its layout and the Go line that makes it.
var playPreset = regexp.MustCompile(`(?m)^  (.+): (shape .*, offset \d+, storage of \d+ slots), (PyTorch|NumPy)'s rules → (.*) → Go: (.*)$`)

// The Go lines display.Playground writes for its presets, pasted into
// cells of the instant engine, make the layouts the playground shows, or
// fail as the playground says (a negative stride). So do the lines for a
// storage made shorter or longer than x's, whose forms display's tests
// check against package tensor.
func TestPlaygroundLinesRunInTheKernel(t *testing.T) {
	s, out := newSession(t)
	run(t, s, "import (\"fmt\"; \"github.com/tensornb/tensornb/tensor\")\nx := tensor.Float32.Arange(12).View(3, 4)")
	var cases [][2]string // a Go line and the layout it must make, or the error it must raise
	for _, r := range []display.Renderer{display.Playground(tensor.Float32.Arange(12).View(3, 4)), display.Playground(nil)} {
		text := r.Bundle()[display.MIMEPlain]
		presets := playPreset.FindAllStringSubmatch(text, -1)
		if len(presets) != 9 {
			t.Fatalf("the text form lists %d presets, want 9:\n%s", len(presets), text)
		}
		for _, p := range presets {
			want := p[2]
			if p[3] == "NumPy" && strings.Contains(want, "-") {
				want = "RuntimeError: as_strided: Negative strides are not supported at the moment"
			}
			cases = append(cases, [2]string{p[5], want})
		}
	}
	cases = append(cases,
		[2]string{"x.AsStrided([]int{8}, []int{1}, 0).Clone().AsStrided([]int{2, 2}, []int{4, 1}, 2)", "shape (2, 2), strides (4, 1), offset 2, storage of 8 slots"},
		[2]string{"tensor.Cat([]*tensor.Tensor{x.AsStrided([]int{12}, []int{1}, 0), x.DType().Zeros(4)}, 0).AsStrided([]int{4, 4}, []int{4, 1}, 0)", "shape (4, 4), strides (4, 1), offset 0, storage of 16 slots"},
		[2]string{"x.AsStrided([]int{3, 4}, []int{4, 1}, 1)", "RuntimeError: setStorage: sizes [3, 4], strides [4, 1], storage offset 1, and itemsize 4 requiring a storage size of 52 are out of bounds for storage of size 48"},
	)
	// The playground itself, from an interpreted cell.
	before := len(out.results)
	run(t, s, "import \"github.com/tensornb/tensornb/display\"\ndisplay.Named{Name: \"x\", Tensor: x.T()}.Playground()")
	if got := out.results[before:]; len(got) != 1 || !strings.HasPrefix(got[0], "Stride playground of x (float32, shape (4, 3))") {
		t.Errorf("a cell that ends with a playground shows %q", got)
	}
	for _, c := range cases {
		before := len(out.results)
		err := s.Run(context.Background(), "y := "+c[0]+"\nfmt.Sprintf(\"shape %v, strides %v, offset %d, storage of %d slots\", y.Shape(), y.Strides(), y.StorageOffset(), y.Storage().Len())")
		if strings.HasPrefix(c[1], "RuntimeError") {
			if err == nil || !strings.Contains(err.Error(), strings.TrimPrefix(c[1], "RuntimeError: ")) {
				t.Errorf("%s: error %v, want %s", c[0], err, c[1])
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c[0], err)
			continue
		}
		if got := out.results[before:]; len(got) != 1 || got[0] != strconv.Quote(c[1]) {
			t.Errorf("%s makes %q, want %q", c[0], got, c[1])
		}
	}
}
