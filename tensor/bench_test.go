package tensor_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/tensornb/tensornb/tensor"
)

// The benchmarks time the same workloads as scripts/bench_reference.py runs
// in NumPy and PyTorch; scripts/bench runs both and prints them side by
// side. Their inputs are made before the timed loop. b.SetBytes is the size
// of the input, so the MB/s column reads as input bytes processed a second.

// side is the side of the square Float32 matrix that most benchmarks use:
// 4096×4096×4 bytes is 64 MiB, far larger than any cache.
const side = 4096

// square returns the side×side Float32 matrix, made once and shared by the
// benchmarks, which only read it.
var square = sync.OnceValue(func() *tensor.Tensor { return tensor.Rand(side, side) })

// nbytes is the number of bytes x's elements occupy.
func nbytes(x *tensor.Tensor) int64 { return int64(x.Numel() * x.ElementSize()) }

// BenchmarkContiguousTranspose times x.T().Contiguous() on the 4096×4096
// Float32 matrix: a transposing copy, which reads the source along columns.
func BenchmarkContiguousTranspose(b *testing.B) {
	x := square()
	b.SetBytes(nbytes(x))
	b.ReportAllocs()
	for b.Loop() {
		x.T().Contiguous()
	}
}

// BenchmarkCopyContiguous times x.Clone() of the contiguous 4096×4096
// Float32 matrix: a plain copy of the same 64 MiB, the floor for
// BenchmarkContiguousTranspose.
func BenchmarkCopyContiguous(b *testing.B) {
	x := square()
	b.SetBytes(nbytes(x))
	b.ReportAllocs()
	for b.Loop() {
		x.Clone()
	}
}

// BenchmarkBroadcastAdd times adding a (4096,) Float32 vector to every row
// of the 4096×4096 Float32 matrix.
func BenchmarkBroadcastAdd(b *testing.B) {
	x, bias := square(), tensor.Rand(side)
	b.SetBytes(nbytes(x))
	b.ReportAllocs()
	for b.Loop() {
		x.Add(bias)
	}
}

// BenchmarkSumDim0 times x.Sum(0), the column sums of the 4096×4096 Float32
// matrix.
func BenchmarkSumDim0(b *testing.B) {
	x := square()
	b.SetBytes(nbytes(x))
	b.ReportAllocs()
	for b.Loop() {
		x.Sum(0)
	}
}

// BenchmarkPixelUnshuffle times PixelUnshuffle(2) on an 8×3×256×256 Float32
// batch, which becomes 8×12×128×128.
func BenchmarkPixelUnshuffle(b *testing.B) {
	x := tensor.Rand(8, 3, 256, 256)
	b.SetBytes(nbytes(x))
	b.ReportAllocs()
	for b.Loop() {
		x.PixelUnshuffle(2)
	}
}

// BenchmarkPixelUnshuffleInto times PixelUnshuffle's copy alone: the same
// 8×3×256×256 batch, split and permuted as PixelUnshuffle(2) does, copied
// into a tensor made once. Against BenchmarkPixelUnshuffle it shows what
// making and zeroing a new 6 MiB result costs.
func BenchmarkPixelUnshuffleInto(b *testing.B) {
	x := tensor.Rand(8, 3, 256, 256).View(8, 3, 128, 2, 128, 2).Permute(0, 1, 3, 5, 2, 4)
	out := tensor.Empty(x.Shape()...)
	b.SetBytes(nbytes(x))
	b.ReportAllocs()
	for b.Loop() {
		out.CopyFrom(x)
	}
}

// BenchmarkMatmul256 and BenchmarkMatmul1024 time the product of two
// square Float32 matrices of that side.
func BenchmarkMatmul256(b *testing.B)  { benchMatmul(b, 256, tensor.Float32) }
func BenchmarkMatmul1024(b *testing.B) { benchMatmul(b, 1024, tensor.Float32) }

// BenchmarkMatmul256Float64 and BenchmarkMatmul1024Float64 time the same
// products in Float64.
func BenchmarkMatmul256Float64(b *testing.B)  { benchMatmul(b, 256, tensor.Float64) }
func BenchmarkMatmul1024Float64(b *testing.B) { benchMatmul(b, 1024, tensor.Float64) }

// kernelOnce prints, once, which matrix product kernel the benchmarks
// run, for scripts/bench to report.
var kernelOnce sync.Once

func benchMatmul(b *testing.B, n int, dt tensor.DType) {
	kernelOnce.Do(func() {
		name, note := tensor.MatmulKernel()
		if note != "" {
			name += " (" + note + ")"
		}
		fmt.Println("matmul kernel:", name)
	})
	tensor.ManualSeed(1)
	x, y := tensor.Rand(n, n).To(dt), tensor.Rand(n, n).To(dt)
	b.SetBytes(nbytes(x))
	b.ReportAllocs()
	for b.Loop() {
		x.Matmul(y)
	}
}

// BenchmarkContiguousPermute4D times Contiguous of a (8, 3, 256, 256)
// Float32 tensor permuted to channels-last (0, 2, 3, 1).
func BenchmarkContiguousPermute4D(b *testing.B) {
	x := tensor.Rand(8, 3, 256, 256).Permute(0, 2, 3, 1)
	b.SetBytes(nbytes(x))
	b.ReportAllocs()
	for b.Loop() {
		x.Contiguous()
	}
}
