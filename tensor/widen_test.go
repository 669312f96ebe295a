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

// addWidened4 gives the very sums of four addWidened calls, for lengths
// around its sixteen-element steps, and so does a sum over a leading
// dimension, which gathers rows four at a time, for every count of rows.
func TestAddWidened4MatchesFourCalls(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for n := range 50 {
		var rows [4][]float32
		for k := range rows {
			rows[k] = make([]float32, n)
			for i := range rows[k] {
				rows[k][i] = float32(r.NormFloat64() * 1e3)
			}
		}
		got, want := make([]float64, n), make([]float64, n)
		for i := range got {
			got[i] = r.NormFloat64()
			want[i] = got[i]
		}
		addWidened4(got, &rows)
		for _, row := range rows {
			addWidened(want, row)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("n=%d: slot %d = %v, want %v", n, i, got[i], want[i])
			}
		}
	}
	for rows := 1; rows <= 11; rows++ {
		x := Randn(rows, 37).Mul(1000)
		got := x.Sum(0).Float64s()
		for j := range 37 {
			want := 0.0
			for i := range rows {
				want += float64(float32(x.At(i, j)))
			}
			if got[j] != float64(float32(want)) {
				t.Fatalf("%d rows: column %d sums to %v, want %v", rows, j, got[j], float32(want))
			}
		}
	}
}
