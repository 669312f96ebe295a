package display

import (
	"maps"
	"math/rand/v2"
	"testing"

	"github.com/tensornb/tensornb/tensor"
)

// walkCounts counts the readers of every slot by visiting every position:
// the slow reference for readCounts.
func walkCounts(x *tensor.Tensor) map[int]int {
	counts := map[int]int{}
	idx := make([]int, x.Dim())
	for range x.Numel() {
		counts[x.Address(idx...)]++
		for d := x.Dim() - 1; d >= 0; d-- {
			idx[d]++
			if idx[d] < x.Size(d) {
				break
			}
			idx[d] = 0
		}
	}
	return counts
}

func TestReadCountsMatchesAWalk(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	base := tensor.Arange(200)
	for range 500 {
		dims := rng.IntN(4)
		shape, strides := make(tensor.Shape, dims), make(tensor.Strides, dims)
		span := 0
		for d := range dims {
			shape[d] = rng.IntN(5)
			strides[d] = rng.IntN(7)
			span += max(shape[d]-1, 0) * strides[d]
		}
		offset := rng.IntN(200 - span)
		x := base.AsStrided(shape, strides, offset)
		slots := make([]int, 200)
		for i := range slots {
			slots[i] = i
		}
		got, complete := readCounts(x, slots)
		if want := walkCounts(x); !complete || !maps.Equal(got, want) {
			t.Fatalf("%v:%v+%d: readCounts %v (complete %v), walk %v", shape, strides, offset, got, complete, want)
		}
	}
}
