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

// A unit's code leaves out the comments before it and the comment that
// ends its line, so that an engine can wrap a last expression; comments
// after the last code belong to the last unit.
func TestUnitCodeLeavesOutComments(t *testing.T) {
	code := "a := 1   // one\n\n// about b\n// more\nb(a)   // two\ny.Strides(); // (12, 1, 4)\n// the end\n"
	want := []struct {
		code       string
		line, from int
	}{
		{"a := 1", 1, 1},
		{"b(a)", 3, 5},
		{"y.Strides()", 6, 6},
	}
	units := Split(code)
	if len(units) != len(want) {
		t.Fatalf("%d units, want %d: %+v", len(units), len(want), units)
	}
	for i, w := range want {
		u := units[i]
		if u.Code() != w.code || u.Line != w.line || u.CodeLine() != w.from {
			t.Errorf("unit %d: code %q line %d code line %d, want %q %d %d", i, u.Code(), u.Line, u.CodeLine(), w.code, w.line, w.from)
		}
		if code[u.Offset:u.Offset+len(u.Text)] != u.Text {
			t.Errorf("unit %d: text %q is not the cell's at offset %d", i, u.Text, u.Offset)
		}
	}
	if last := units[2].Text; last != "y.Strides(); // (12, 1, 4)\n// the end" {
		t.Errorf("last unit's text %q, want the comments after it included", last)
	}
	if only := Split("// nothing but a comment\n"); len(only) != 1 || only[0].Code() != "" {
		t.Errorf("a cell of comments: %+v", only)
	}
}
