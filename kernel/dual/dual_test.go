package dual

import "testing"

func TestCompiledCells(t *testing.T) {
	for _, c := range []struct {
		code, rest string
		compiled   bool
	}{
		{"%%gonb\nfmt.Println(1)", "\nfmt.Println(1)", true},
		{"\n  %%gonb  \nx := 1\ny", "\n\nx := 1\ny", true},
		{"fmt.Println(1)\n%%gonb", "fmt.Println(1)\n%%gonb", false},
		{"// %%gonb\nx", "// %%gonb\nx", false},
		{"", "", false},
	} {
		rest, ok := compiled(c.code)
		if ok != c.compiled || rest != c.rest {
			t.Errorf("compiled(%q) = %q, %v; want %q, %v", c.code, rest, ok, c.rest, c.compiled)
		}
	}
}
