package tensor

import (
	"math"
	"testing"
)

// Every 16-bit pattern converts to float32 and back unchanged (NaNs stay
// NaN), so the conversions are exact in that direction.
func TestHalfRoundTrip(t *testing.T) {
	for h := range 1 << 16 {
		f := halfToFloat32(uint16(h))
		back := float32ToHalf(f)
		if f != f {
			if back&0x7c00 != 0x7c00 || back&0x3ff == 0 {
				t.Fatalf("half %#04x: NaN came back as %#04x", h, back)
			}
			continue
		}
		if back != uint16(h) {
			t.Fatalf("half %#04x -> %v -> %#04x", h, f, back)
		}
		bf := bfloat16ToFloat32(uint16(h))
		if bf == bf && float32ToBFloat16(bf) != uint16(h) {
			t.Fatalf("bfloat16 %#04x -> %v -> %#04x", h, bf, float32ToBFloat16(bf))
		}
	}
}

// Rounding to the nearest 16-bit value, ties to even; PyTorch's answers for
// many more values are in the fixtures ("to float16 many").
func TestHalfRounding(t *testing.T) {
	for _, c := range []struct {
		in   float32
		want float32
	}{
		{1 + 1.0/2048, 1},                  // tie between 1 and 1+2⁻¹⁰: even wins
		{1 + 3.0/2048, 1 + 2.0/1024},       // tie, rounds up to even
		{65504, 65504},                     // largest half
		{65519.99, 65504},                  // just below the rounding edge
		{65520, float32(math.Inf(1))},      // rounds to infinity
		{1.0 / (1 << 24), 1.0 / (1 << 24)}, // smallest subnormal
		{1.0 / (1 << 25), 0},               // half of it: tie to even zero
		{1.5 / (1 << 25), 1.0 / (1 << 24)},
		{float32(math.Copysign(0, -1)), float32(math.Copysign(0, -1))},
	} {
		if got := halfToFloat32(float32ToHalf(c.in)); got != c.want || math.Signbit(float64(got)) != math.Signbit(float64(c.want)) {
			t.Errorf("half(%v) = %v, want %v", c.in, got, c.want)
		}
	}
	if got := bfloat16ToFloat32(float32ToBFloat16(1 + 1.0/256)); got != 1 {
		t.Errorf("bfloat16 tie = %v, want 1", got)
	}
}
