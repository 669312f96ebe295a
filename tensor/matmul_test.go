package tensor_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tensornb/tensornb/tensor"
)

// Matmul reads its operands where they lie, whatever their layout: for
// random batched, broadcast, transposed, sliced and expanded operands of
// every dtype it multiplies, each element of the result equals a triple
// loop over At (for Float32 and Float64, within the rounding error of a
// sum in that dtype), and the blocks' and tiles' edges (sizes around 4,
// 6, 8, 12, 16, 32 and 256) are crossed. Float32 and Float64 products
// are checked with every kernel this CPU runs.
func TestMatmulMatchesLoops(t *testing.T) {
	kernels := tensor.RunnableMatmulKernels()
	t.Logf("kernels: %v", kernels)
	r := rand.New(rand.NewPCG(1, 2))
	layout := func(x *tensor.Tensor) *tensor.Tensor { // the same values, another layout
		switch r.IntN(3) {
		case 0:
			return x.MT().Contiguous().MT()
		case 1:
			return tensor.Stack([]*tensor.Tensor{x, x}, -1).Select(-1, 0) // every other slot
		}
		return x
	}
	sizes := []int{1, 2, 5, 7, 13, 17, 33, 63, 65, 129, 257, 300}
	for c := range 72 {
		dt := []tensor.DType{tensor.Float32, tensor.Float64, tensor.Int64, tensor.Int32, tensor.Uint8, tensor.Float32}[c%6]
		n, k, m := sizes[r.IntN(len(sizes))], sizes[r.IntN(len(sizes))], sizes[r.IntN(9)]
		xb, yb := []int{}, []int{}
		if c%3 == 1 {
			xb, yb = []int{2, 1}, []int{3}
		}
		x := tensor.Float64.Randn(append(xb, n, k)...).Mul(3).To(dt)
		y := tensor.Float64.Randn(append(yb, k, m)...).Mul(3).To(dt)
		if c%7 == 3 { // a row repeated: stride 0
			x = x.Narrow(-2, 0, 1).Expand(append(xb, n, k)...)
		}
		x, y = layout(x), layout(y)
		got := map[string]*tensor.Tensor{"": x.Matmul(y)}
		if dt == tensor.Float32 || dt == tensor.Float64 {
			for _, name := range kernels {
				tensor.WithMatmulKernel(name, func() { got[name] = x.Matmul(y) })
			}
		}
		batch := tensor.BroadcastShapes(xb, yb)
		xe, ye := x.Expand(append(append([]int{}, batch...), n, k)...), y.Expand(append(append([]int{}, batch...), k, m)...)
		count := tensor.Shape(batch).Numel()
		xf, yf := xe.Reshape(count, n, k), ye.Reshape(count, k, m)
		// Sums round at each of k steps, and want once: the classic bound
		// is (k+1)·u·Σ|x·y|, u = 2⁻²⁴ for float32 and 2⁻⁵³ for float64.
		u := map[tensor.DType]float64{tensor.Float32: 0x1p-24, tensor.Float64: 0x1p-53}[dt]
		gf := map[string]*tensor.Tensor{}
		for name, g := range got {
			if want := append(append([]int{}, batch...), n, m); !equalInts(g.Shape(), want) {
				t.Fatalf("case %d, kernel %q: shape %v, want %v", c, name, g.Shape(), want)
			}
			gf[name] = g.Reshape(count, n, m)
		}
		for b := range count {
			for i := range n {
				for j := range m {
					want, size := 0.0, 0.0
					for p := range k {
						want += xf.At(b, i, p) * yf.At(b, p, j)
						size += math.Abs(xf.At(b, i, p) * yf.At(b, p, j))
					}
					want = tensor.Float64.Scalar(want).To(dt).Item()
					for name, g := range gf {
						if g := g.At(b, i, j); g != want && !(math.Abs(g-want) <= float64(k+2)*u*size) {
							t.Fatalf("case %d, kernel %q (%v, %v@%v): [%d, %d, %d] = %v, want %v", c, name, dt, x.Shape(), y.Shape(), b, i, j, g, want)
						}
					}
				}
			}
		}
	}
}

// A product whose Y is too deep and wide to pack at once is computed a
// block of Y's columns at a time, the last block narrower than a
// kernel's tile, into the right columns of the result, with every
// kernel, for Y in rows and transposed.
func TestMatmulColumnBlocks(t *testing.T) {
	for _, dt := range []tensor.DType{tensor.Float32, tensor.Float64} {
		n, k, m := 14, 9001, 75 // 9001 deep: a block of Y is one panel wide
		x := tensor.Float64.Randn(n, k).To(dt)
		for _, y := range []*tensor.Tensor{tensor.Float64.Randn(k, m).To(dt), tensor.Float64.Randn(m, k).To(dt).MT()} {
			got := map[string]*tensor.Tensor{}
			for _, name := range tensor.RunnableMatmulKernels() {
				tensor.WithMatmulKernel(name, func() { got[name] = x.Matmul(y) })
			}
			u := map[tensor.DType]float64{tensor.Float32: 0x1p-24, tensor.Float64: 0x1p-53}[dt]
			for i := range n {
				for j := range m {
					want, size := 0.0, 0.0
					for p := range k {
						v := x.At(i, p) * y.At(p, j)
						want, size = want+v, size+math.Abs(v)
					}
					for name, g := range got {
						if g := g.At(i, j); !(math.Abs(g-want) <= float64(k+2)*u*size) {
							t.Fatalf("%v, kernel %q, y strides %v: [%d, %d] = %v, want %v", dt, name, y.Strides(), i, j, g, want)
						}
					}
				}
			}
		}
	}
}

// A dot of vectors expanded far past memory is computed from the values
// they hold, at once: PyTorch computes it too, by a loop.
func TestDotOfExpandedVectors(t *testing.T) {
	ones := tensor.Scalar(float32(1)).Expand(1 << 33)
	if got := ones.Matmul(ones).Item(); got != 1<<33 {
		t.Errorf("ones·ones over 2^33 = %v", got)
	}
	v := tensor.Arange(5).Mul(2).To(tensor.Float32)
	threes := tensor.Scalar(float32(3)).Expand(5)
	if got, want := v.Matmul(threes).Item(), 3*(0+2+4+6+8.0); got != want {
		t.Errorf("v·threes = %v, want %v", got, want)
	}
	if got := tensor.Int64.Full(1<<62, 1).Expand(4).Matmul(tensor.Int64.Full(2, 1).Expand(4)).Item(); got != 0 {
		t.Errorf("int64 dot past 2^63 = %v, want the wrapped 0", got)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
