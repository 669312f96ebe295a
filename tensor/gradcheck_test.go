package tensor_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/tensor"
)

// A gradStep is one operation of a random chain, with its name for
// messages.
type gradStep struct {
	name string
	f    func(*tensor.Tensor) *tensor.Tensor
}

// constant returns a fixed Float64 tensor of the given shape with values
// in [lo, hi), drawn from rng.
func constant(rng *rand.Rand, lo, hi float64, shape ...int) *tensor.Tensor {
	n := tensor.Shape(shape).Numel()
	v := make([]float64, n)
	for i := range v {
		v[i] = lo + (hi-lo)*rng.Float64()
	}
	if len(shape) == 0 {
		return tensor.Float64.Scalar(v[0])
	}
	return tensor.New(v, shape...)
}

// candidateSteps proposes operations for a tensor of the given shape; the
// chain keeps the ones that succeed on it.
func candidateSteps(rng *rand.Rand, shape tensor.Shape) []gradStep {
	nd := len(shape)
	d := func() int { return rng.IntN(max(nd, 1)) }
	size := func(dim int) int {
		if nd == 0 {
			return 1
		}
		return shape[dim]
	}
	var steps []gradStep
	add := func(name string, f func(*tensor.Tensor) *tensor.Tensor) {
		steps = append(steps, gradStep{name, f})
	}
	a, b := d(), d()
	add(fmt.Sprintf("Transpose(%d, %d)", a, b), func(x *tensor.Tensor) *tensor.Tensor { return x.Transpose(a, b) })
	perm := rng.Perm(nd)
	add(fmt.Sprintf("Permute(%v)", perm), func(x *tensor.Tensor) *tensor.Tensor { return x.Permute(perm...) })
	add("T", func(x *tensor.Tensor) *tensor.Tensor { return x.T() })
	add("Reshape(-1)", func(x *tensor.Tensor) *tensor.Tensor { return x.Reshape(-1) })
	if n := shape.Numel(); n%2 == 0 && n > 0 {
		add("Reshape(2, -1)", func(x *tensor.Tensor) *tensor.Tensor { return x.Reshape(2, -1) })
	}
	u := rng.IntN(nd + 1)
	add(fmt.Sprintf("Unsqueeze(%d)", u), func(x *tensor.Tensor) *tensor.Tensor { return x.Unsqueeze(u) })
	add("Squeeze()", func(x *tensor.Tensor) *tensor.Tensor { return x.Squeeze() })
	start, step := rng.IntN(size(a)), 1+rng.IntN(2)
	add(fmt.Sprintf("Slice(%d, %d, End, %d)", a, start, step), func(x *tensor.Tensor) *tensor.Tensor { return x.Slice(a, start, tensor.End, step) })
	i := rng.IntN(size(a))
	add(fmt.Sprintf("Select(%d, %d)", a, i), func(x *tensor.Tensor) *tensor.Tensor { return x.Select(a, i) })
	add(fmt.Sprintf("Diagonal(0, %d, %d)", a, b), func(x *tensor.Tensor) *tensor.Tensor { return x.Diagonal(0, a, b) })
	w := 1 + rng.IntN(max(size(a), 1))
	add(fmt.Sprintf("Unfold(%d, %d, 1)", a, w), func(x *tensor.Tensor) *tensor.Tensor { return x.Unfold(a, w, 1) })
	expanded := append([]int{2}, shape...)
	add(fmt.Sprintf("Expand(%v)", expanded), func(x *tensor.Tensor) *tensor.Tensor { return x.Expand(expanded...) })
	add("Contiguous", func(x *tensor.Tensor) *tensor.Tensor { return x.Contiguous() })
	add("Clone", func(x *tensor.Tensor) *tensor.Tensor { return x.Clone() })
	add("Flatten", func(x *tensor.Tensor) *tensor.Tensor { return x.Flatten() })
	reps := append([]int{1 + rng.IntN(2)}, make([]int, nd)...)
	for k := range nd {
		reps[k+1] = 1 + rng.IntN(2)
	}
	add(fmt.Sprintf("Repeat(%v)", reps), func(x *tensor.Tensor) *tensor.Tensor { return x.Repeat(reps...) })

	c := constant(rng, -2, 2, shape[rng.IntN(nd+1):]...)
	add("Mul(constant)", func(x *tensor.Tensor) *tensor.Tensor { return x.Mul(c) })
	add("Add(constant)", func(x *tensor.Tensor) *tensor.Tensor { return x.Add(c) })
	add("Sub from constant", func(x *tensor.Tensor) *tensor.Tensor { return c.Sub(x) })
	add("Mul(itself)", func(x *tensor.Tensor) *tensor.Tensor { return x.Mul(x) })
	add("Mul(itself transposed)", func(x *tensor.Tensor) *tensor.Tensor { return x.Mul(x.T()) })
	add("Div(2 + x·x)", func(x *tensor.Tensor) *tensor.Tensor { return x.Div(x.Mul(x).Add(2)) })
	add("Neg", func(x *tensor.Tensor) *tensor.Tensor { return x.Neg() })
	add("Mul(0.5)", func(x *tensor.Tensor) *tensor.Tensor { return x.Mul(0.5) })
	add(fmt.Sprintf("Sum(%d)", a), func(x *tensor.Tensor) *tensor.Tensor { return x.Sum(a) })
	add(fmt.Sprintf("MeanKeepDim(%d)", a), func(x *tensor.Tensor) *tensor.Tensor { return x.MeanKeepDim(a) })
	add(fmt.Sprintf("Max(%d)", a), func(x *tensor.Tensor) *tensor.Tensor { return x.Max(a) })
	add("Min()", func(x *tensor.Tensor) *tensor.Tensor { return x.Min() })
	if nd > 0 {
		m := constant(rng, -1, 1, shape[nd-1], 1+rng.IntN(3))
		add("Matmul(constant)", func(x *tensor.Tensor) *tensor.Tensor { return x.Matmul(m) })
		v := constant(rng, -1, 1, shape[nd-1])
		add("Matmul(vector)", func(x *tensor.Tensor) *tensor.Tensor { return x.Matmul(v) })
		add("Matmul(itself transposed)", func(x *tensor.Tensor) *tensor.Tensor { return x.Matmul(x.MT()) })
		add(fmt.Sprintf("Cat with itself along %d", a), func(x *tensor.Tensor) *tensor.Tensor { return tensor.Cat([]*tensor.Tensor{x, x.Mul(2)}, a) })
		add("Stack with itself", func(x *tensor.Tensor) *tensor.Tensor { return tensor.Stack([]*tensor.Tensor{x, x.Neg()}, 0) })
		picks := tensor.New([]int64{int64(rng.IntN(size(a))), int64(rng.IntN(size(a)))})
		add(fmt.Sprintf("IndexSelect(%d, %v)", a, picks), func(x *tensor.Tensor) *tensor.Tensor { return x.IndexSelect(a, picks) })
		add("MaskedSelect(x > 0)", func(x *tensor.Tensor) *tensor.Tensor { return x.MaskedSelect(x.Detach().Gt(0)) })
		add("in-place MulInPlace through a slice", func(x *tensor.Tensor) *tensor.Tensor {
			y := x.Mul(1)
			y.Slice(a, 0, 1, 1).MulInPlace(3)
			return y
		})
		add("in-place AddInPlace of itself", func(x *tensor.Tensor) *tensor.Tensor {
			y := x.Mul(2)
			y.AddInPlace(x.Mul(x))
			return y
		})
	}
	return steps
}

// randomGradChain builds a chain of up to five steps that succeed on a
// tensor of the given shape and keep it small.
func randomGradChain(rng *rand.Rand, shape tensor.Shape) []gradStep {
	var chain []gradStep
	probe := tensor.Float64.Zeros(shape...).Add(constant(rng, 0.5, 1.5, shape...))
	for range 1 + rng.IntN(5) {
		candidates := candidateSteps(rng, probe.Shape())
		for range 10 {
			s := candidates[rng.IntN(len(candidates))]
			var next *tensor.Tensor
			if tensor.Try(func() { next = s.f(probe) }) == nil && next.Numel() > 0 && next.Numel() <= 64 {
				chain, probe = append(chain, s), next
				break
			}
		}
	}
	return chain
}

// Backward's gradients agree with central finite differences of
// sum(w ⊙ chain(x)) for random chains of the differentiable operations
// on random Float64 inputs.
func TestGradientsMatchFiniteDifferences(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 2026))
	used := map[string]int{}
	defer func() { t.Logf("steps used: %v", used) }()
	for trial := range 300 {
		shape := tensor.Shape{1 + rng.IntN(3), 1 + rng.IntN(3)}[:rng.IntN(3)]
		chain := randomGradChain(rng, shape)
		apply := func(x *tensor.Tensor) *tensor.Tensor {
			for _, s := range chain {
				x = s.f(x)
			}
			return x
		}
		x := constant(rng, -1.5, 1.5, shape...)
		out := apply(x.Detach())
		w := constant(rng, -1, 1, out.Shape()...)
		loss := func(x *tensor.Tensor) float64 { return apply(x).Mul(w).Sum().Item() }

		x.SetRequiresGrad(true)
		apply(x).Mul(w).Sum().Backward()
		names := make([]string, len(chain))
		for i, s := range chain {
			names[i] = s.name
			used[strings.Fields(s.name)[0]]++
		}
		if x.Grad() == nil {
			if len(chain) > 0 {
				t.Errorf("trial %d %v: no gradient", trial, names)
			}
			continue
		}
		const eps = 1e-6
		flat := x.Detach().Reshape(-1)
		for i := range flat.Numel() {
			v := flat.At(i)
			var up, down float64
			tensor.NoGrad(func() {
				flat.Set(v+eps, i)
				up = loss(x.Detach())
				flat.Set(v-eps, i)
				down = loss(x.Detach())
				flat.Set(v, i)
			})
			want := (up - down) / (2 * eps)
			got := x.Grad().Reshape(-1).At(i)
			if math.Abs(got-want) > 1e-5*math.Max(1, math.Abs(want)) {
				t.Errorf("trial %d, input %v, chain %v: d/dx[%d] = %v, finite differences %v", trial, x.Detach(), names, i, got, want)
				break
			}
		}
	}
}
