package display_test

import (
	"testing"
	"time"

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

// BenchmarkLineageLongLines draws the lineage of TestHostileLongLines's
// largest case: 15,000 derivations, 10,000 of them of 1000-D tensors.
func BenchmarkLineageLongLines(b *testing.B) {
	l := longLinesLineage(5000)
	for b.Loop() {
		l.Bundle()
	}
}

// BenchmarkHostile draws each picture of every hostile tensor (see
// hostileTensors) and reports the worst: the mean time of the slowest
// tensor (worst-ms) and the largest form drawn (worst-bytes). The slowest
// tensor is logged.
func BenchmarkHostile(b *testing.B) {
	xs := make([]*tensor.Tensor, len(hostileTensors))
	twins := make([]*tensor.Tensor, len(hostileTensors))
	for i, h := range hostileTensors {
		xs[i], twins[i] = h.make(), h.make()
	}
	for _, p := range hostilePictures {
		b.Run(p.name, func(b *testing.B) {
			total := make([]time.Duration, len(xs))
			worstBytes := 0
			for b.Loop() {
				for i, x := range xs {
					start := time.Now()
					bundle, _ := p.draw(nil, x, func() *tensor.Tensor { return twins[i] })
					total[i] += time.Since(start)
					for _, form := range bundle {
						worstBytes = max(worstBytes, len(form))
					}
				}
			}
			worst := 0
			for i := range total {
				if total[i] > total[worst] {
					worst = i
				}
			}
			b.ReportMetric(total[worst].Seconds()*1000/float64(b.N), "worst-ms")
			b.ReportMetric(float64(worstBytes), "worst-bytes")
			b.Logf("slowest: %s", hostileTensors[worst].name)
		})
	}
}

// BenchmarkLineageBundle draws the article's lineage in every form, the
// SVG laid out in Go among them, and reports the size of the SVG.
func BenchmarkLineageBundle(b *testing.B) {
	l := articleLineage()
	b.ReportAllocs()
	var size int
	for b.Loop() {
		size = len(l.Bundle()[display.MIMESVG])
	}
	b.ReportMetric(float64(size), "svg-bytes")
}
