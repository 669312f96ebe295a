package interp_test

import "testing"

// Code written on one line prints what the same code prints over
// several lines: the lowerings that add statements to a body or take a
// declaration away leave a line's semicolons where Go wants them.
func TestCodeOnOneLine(t *testing.T) {
	for _, c := range []struct{ name, oneLine, lines string }{
		{"a loop whose condition may fail",
			"func f(n int) int { x := 0; for i := 0; i < 10/n; i++ { x++ }; return x }\nfmt.Println(f(2))",
			"func f(n int) int {\n\tx := 0\n\tfor i := 0; i < 10/n; i++ {\n\t\tx++\n\t}\n\treturn x\n}\nfmt.Println(f(2))"},
		{"a loop whose step may fail",
			"func g(n int) int { x := 0; for i := 0; i < 10; i += 10 / n { x++ }; return x }\nfmt.Println(g(5))",
			"func g(n int) int {\n\tx := 0\n\tfor i := 0; i < 10; i += 10 / n {\n\t\tx++\n\t}\n\treturn x\n}\nfmt.Println(g(5))"},
		{"a loop at the top level of a cell",
			"x := 0; for i := 0; i < 10/2; i++ { x++ }; fmt.Println(x)",
			"x := 0\nfor i := 0; i < 10/2; i++ {\n\tx++\n}\nfmt.Println(x)"},
		{"a generic function and its call",
			"func twice[T any](v T) []T { return []T{v, v} }; fmt.Println(twice(3), twice(\"a\"))",
			"func twice[T any](v T) []T {\n\treturn []T{v, v}\n}\nfmt.Println(twice(3), twice(\"a\"))"},
		{"a generic type and a value of it",
			"type box[T any] struct{ v T }; b := box[int]{4}; fmt.Println(b.v)",
			"type box[T any] struct{ v T }\nb := box[int]{4}\nfmt.Println(b.v)"},
		{"a loop over an iterator",
			"import \"iter\"\nfunc count(n int) iter.Seq[int] { return func(yield func(int) bool) { for i := range n { if !yield(i) { return } } } }\nfor i := range count(3) { fmt.Print(i, \" \") }; fmt.Println()",
			"import \"iter\"\nfunc count(n int) iter.Seq[int] {\n\treturn func(yield func(int) bool) {\n\t\tfor i := range n {\n\t\t\tif !yield(i) {\n\t\t\t\treturn\n\t\t\t}\n\t\t}\n\t}\n}\nfor i := range count(3) {\n\tfmt.Print(i, \" \")\n}\nfmt.Println()"},
	} {
		t.Run(c.name, func(t *testing.T) {
			want := printed(t, "import \"fmt\"", c.lines)
			if got := printed(t, "import \"fmt\"", c.oneLine); got != want {
				t.Errorf("on one line printed %q, over lines %q", got, want)
			}
		})
	}
}
