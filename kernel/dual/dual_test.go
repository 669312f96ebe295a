package dual

import (
	"strings"
	"testing"

	"github.com/tensornb/tensornb/kernel/front"
)

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

// A %%gonb cell's compile error about a name interpreted cells declared
// says that GoNB does not see them; other names, and other errors, get
// no hint.
func TestStateHint(t *testing.T) {
	interpreted := func(name string) bool { return name == "x" || name == "ys" }
	ce := &front.CellError{Name: "CompileError", Value: "cell line 2: undefined: x", Traceback: []string{
		"CompileError: the cell does not compile", "cell line 2: undefined: x", "    fmt.Println(x)",
		"cell line 3: undefined: z", "    fmt.Println(z)", "cell line 4: undefined: x", "    x++",
	}}
	addStateHint(ce, interpreted)
	want := "hint: x was declared by an interpreted cell; a %%gonb cell is compiled by GoNB and does not see interpreted state, so declare x in this cell or in an earlier %%gonb cell"
	if got := ce.Traceback[len(ce.Traceback)-1]; got != want || len(ce.Traceback) != 8 {
		t.Fatalf("traceback %q", ce.Traceback)
	}
	p := &front.CellError{Name: "panic", Value: "undefined: x", Traceback: []string{"panic: undefined: x"}}
	addStateHint(p, interpreted)
	if strings.Contains(strings.Join(p.Traceback, "\n"), "hint") {
		t.Fatalf("a panic got a hint: %q", p.Traceback)
	}
}
