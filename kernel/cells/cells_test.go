package cells

import "testing"

// Statements whose headers hold composite literals stay whole.
func TestSplitKeepsHeadersWhole(t *testing.T) {
	for _, c := range []struct {
		code  string
		units int
	}{
		{"if m := map[string]int{\"a\": 1}; m[\"a\"] > 0 {\n\tx := 1\n\t_ = x\n}\ny := 2", 2},
		{"for xs := []int{1}; len(xs) < 3; xs = append(xs, 0) {\n}\nz := 3", 2},
		{"for _, p := range []*tensor.Tensor{a, b} { _ = p }\nfunc f() {}", 2},
		{"if arr[i] {\n\tx = 1\n}\ny := 2", 2},
		{"for i := 0; i < 3; i++ {\n\t_ = i\n}\nimport \"fmt\"", 2},
	} {
		units := Split(c.code)
		if len(units) != c.units {
			t.Errorf("%q: %d units, want %d: %+v", c.code, len(units), c.units, units)
		}
	}
}
