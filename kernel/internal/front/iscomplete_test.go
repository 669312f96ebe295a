package front

import "testing"

func TestIsComplete(t *testing.T) {
	for _, c := range []struct {
		code, status, indent string
	}{
		{"", "complete", ""},
		{"x := 1", "complete", ""},
		{"fmt.Println(x)", "complete", ""},
		{"for i := 0; i < 3; i++ {", "incomplete", "\t"},
		{"func f() {\n\tif true {", "incomplete", "\t\t"},
		{"x := []int{1, 2,", "incomplete", "\t"},
		{"fmt.Println(", "incomplete", "\t"},
		{"x := 1 +", "incomplete", "\t"},
		{"x.", "incomplete", "\t"},
		{"s := `raw\nstring", "incomplete", ""},
		{"/* a comment", "incomplete", ""},
		{"x++", "complete", ""},
		{"f(x...)", "complete", ""},
		{"x := )", "invalid", ""},
		{"}", "invalid", ""},
		{"f(]", "invalid", ""},
		{"x := 'ab'", "invalid", ""},
		{"// just a comment", "complete", ""},
		{"import \"fmt\"\nfunc main() {}\n", "complete", ""},
	} {
		status, indent := IsComplete(c.code)
		if status != c.status || indent != c.indent {
			t.Errorf("IsComplete(%q) = %q, %q; want %q, %q", c.code, status, indent, c.status, c.indent)
		}
	}
}
