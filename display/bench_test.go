package display_test

import (
	"testing"

	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/tensor"
)

// benchLayout times drawing x's card, grid and strip in every form, and
// reports the size of the HTML.
func benchLayout(b *testing.B, x *tensor.Tensor) {
	b.ReportAllocs()
	var size int
	for b.Loop() {
		size = len(display.Layout(x).Bundle()[display.MIMEHTML])
	}
	b.ReportMetric(float64(size), "html-bytes")
}

// BenchmarkLayout16x16View draws a 16×16 view: every other row and column
// of the transpose of a 32×32 matrix.
func BenchmarkLayout16x16View(b *testing.B) {
	benchLayout(b, tensor.Float32.Arange(32*32).View(32, 32).T().Index("::2, ::2"))
}

// BenchmarkLayout1000x1000 draws a 1000×1000 tensor, summarized.
func BenchmarkLayout1000x1000(b *testing.B) {
	benchLayout(b, tensor.Float32.Arange(1000*1000).View(1000, 1000))
}
