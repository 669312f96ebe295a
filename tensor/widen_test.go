package tensor

import (
	"math/rand/v2"
	"testing"
)

// addWidened, with the assembly loop where the CPU has it, gives the very
// sums of the plain Go loop, for lengths around its sixteen-element steps.
func TestAddWidenedMatchesTheLoop(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for n := range 50 {
		src := make([]float32, n)
		got, want := make([]float64, n), make([]float64, n)
		for i := range src {
			src[i] = float32(r.NormFloat64() * 1e3)
			got[i] = r.NormFloat64()
			want[i] = got[i]
		}
		addWidened(got, src)
		for i, v := range src {
			want[i] += float64(v)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("n=%d: slot %d = %v, want %v", n, i, got[i], want[i])
			}
		}
	}
}
