package tensor

import (
	"slices"
	"testing"
)

// gather copies every step-th element for every length around its
// four-element and sixteen-element steps, from a source that ends at the
// last element it reads, for each word size.
func TestGatherMatchesTheLoop(t *testing.T) {
	testGather[uint8](t)
	testGather[uint16](t)
	testGather[uint32](t)
	testGather[uint64](t)
}

func testGather[W uint8 | uint16 | uint32 | uint64](t *testing.T) {
	for step := 1; step <= 5; step++ {
		for n := 1; n <= 70; n++ {
			s := make([]W, (n-1)*step+1)
			for i := range s {
				s[i] = W(i*7 + 1)
			}
			want := make([]W, n)
			for i := range want {
				want[i] = s[i*step]
			}
			got := make([]W, n)
			gather(got, s, step)
			if !slices.Equal(got, want) {
				t.Fatalf("%T, step %d, n %d: got %v, want %v", s, step, n, got, want)
			}
		}
	}
}
