package interp_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/kernel/internal/front"
)

// A cell's declarations may refer to one another in any order, as a Go
// file's may: a function to one declared after it, two functions to each
// other, a type to a later type, a method to a later method, a function
// to the method set of a later type, a type to a later constant.
func TestDeclarationsInAnyOrder(t *testing.T) {
	for _, c := range []struct {
		name, cell, want string
	}{
		{"a function calling a later one", "func outer() int { return inner() + 1 }\nfunc inner() int { return 1 }\nouter()", "2"},
		{"mutual recursion", "func even(n int) bool {\n\tif n == 0 {\n\t\treturn true\n\t}\n\treturn odd(n - 1)\n}\nfunc odd(n int) bool {\n\tif n == 0 {\n\t\treturn false\n\t}\n\treturn even(n - 1)\n}\neven(10)", "true"},
		{"a type using a later type", "type T struct{ u U }\ntype U struct{ v int }\nT{U{3}}.u.v", "3"},
		{"a method before its receiver's type", "func (v *V) Get() int { return v.n }\ntype V struct{ n int }\n(&V{4}).Get()", "4"},
		{"a method before its receiver's type, calling a later method", "func (v V) Next() int { return v.Get() + 1 }\ntype V struct{ n int }\nfunc (v V) Get() int { return v.n }\nV{4}.Next()", "5"},
		{"a function using the method set of a later type", "type Getter interface{ Get() int }\nfunc use() int {\n\tvar g Getter = W{5}\n\treturn g.Get()\n}\ntype W struct{ n int }\nfunc (w W) Get() int { return w.n }\nuse()", "5"},
		{"an array length from a later constant", "type A [N]int\nconst N = 3\nlen(A{})", "3"},
		{"a constant of a later type", "const c T = 7\ntype T int\nc", "7"},
		{"declarations between statements", "x := f()\ntype P struct{ A [n]int }\nconst n = 2\nfunc f() int { return g(P{}) }\nfunc g(p P) int { return len(p.A) }\nx", "2"},
		{"an init function calling a later function", "var n int\nfunc init() { n = twice(2) }\nfunc twice(x int) int { return 2 * x }\nn", "4"},
		{"two units on a line", "type A [n]int; const n = 4; func f() int { return len(A{}) + g() }; func g() int { return 1 }\nf()", "5"},
		// The values of var declarations come in Go's order, in which a
		// variable is given its value after those its value uses,
		// directly or through the functions it calls; they were given in
		// the order written, and the first saw the second's zero value.
		{"a var using a later var", "var c = d + \"c\"\nvar d = \"d\"\nc", `"dc"`},
		{"a var using a later var through a function", "var e = g()\nfunc g() string { return h }\nvar h = strings.Repeat(\"h\", 2)\ne", `"hh"`},
		{"a var of a group using a later one", "var (\n\tx = y + 1\n\ty = 2\n)\nx", "3"},
		{"an init function after every value", "var n = m * 2\nfunc init() { n++ }\nvar m = 3\nn", "7"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := results(t, c.cell); len(got) != 1 || got[0] != c.want {
				t.Fatalf("results %q, want [%s]", got, c.want)
			}
		})
	}
}

// What a cell declares is kept for the cells after it when a statement
// after the declarations fails; a function declared again in a later
// cell replaces the old one, together with new functions that use it.
func TestDeclarationsKept(t *testing.T) {
	s, out := newSession(t)
	err := s.Run(context.Background(), "func f() int { return g() }\nfunc g() int { return 1 }\ntype T struct{ u U }\ntype U struct{ v int }\npanic(\"after the declarations\")")
	var ce *front.CellError
	if !errors.As(err, &ce) || ce.Name != "panic" {
		t.Fatalf("the failing statement: %#v", err)
	}
	run(t, s, "f() + T{U{2}}.u.v")
	run(t, s, "func h() int { return g() * 10 }\nfunc g() int { return 2 }\nh()")
	run(t, s, "g()")
	if got := strings.Join(out.results, "|"); got != "3|20|2" {
		t.Fatalf("results %q", got)
	}
}

// A cell with several declarations that does not compile fails at the
// line of its error, and runs and keeps nothing: go/types' errors, and
// the interpreter's (yaegi v0.16.1 loses a label inside a case clause),
// each at the cell line of its position.
func TestErrorLinesAmongDeclarations(t *testing.T) {
	s, _ := newSession(t)
	err := s.Run(context.Background(), "func a() int { return b() }\ntype T struct{ x int }\n\nfunc b() int {\n\treturn \"s\"\n}")
	var ce *front.CellError
	if !errors.As(err, &ce) || ce.Name != "CompileError" || !strings.HasPrefix(ce.Value, "cell line 5: ") {
		t.Fatalf("the compile error: %#v", err)
	}
	err = s.Run(context.Background(), "type T struct{ x int }\nfunc ok() int { return count(\"b\") }\n\nfunc count(s string) int {\n\tn := 0\n\tfor i := 0; i < len(s); i++ {\n\t\tswitch s[i] {\n\t\tcase 'b':\n\t\tagain:\n\t\t\tn++\n\t\t\tif n < 3 {\n\t\t\t\tgoto again\n\t\t\t}\n\t\t}\n\t}\n\treturn n\n}")
	if !errors.As(err, &ce) || ce.Name != "InterpreterError" || ce.Value != "cell line 9: the interpreter failed: undefined: again" {
		t.Fatalf("the interpreter's error: %#v", err)
	}
	// The type was compiled and is kept; the functions, which the
	// interpreter could not compile, are not.
	run(t, s, "T{1}")
	err = s.Run(context.Background(), "ok()")
	if !errors.As(err, &ce) || ce.Value != "cell line 1: undefined: ok" {
		t.Fatalf("a function of the failed cell: %#v", err)
	}
}

// A panic's frames name the functions of one cell that call functions
// declared after them, at their lines.
func TestPanicFramesAmongDeclarations(t *testing.T) {
	ce := runCells(t, numbered{2, "func first(s []int) int {\n\treturn second(s) + 1\n}\n\nfunc second(s []int) int {\n\tx := s[0]\n\treturn x + s[2]\n}\nfirst([]int{1, 2})"})
	checkTraceback(t, ce, "panic: runtime error: index out of range [2] with length 2",
		"cell line 7, in second: return x + s[2]",
		"cell line 2, in first: return second(s) + 1",
		"cell line 9: first([]int{1, 2})")
}

// A panic in an init function, which may call the functions declared
// after it, is at its lines.
func TestPanicInInit(t *testing.T) {
	ce := runCells(t, numbered{3, "func init() {\n\tboom()\n}\n\nfunc boom() {\n\tpanic(\"in boom\")\n}"})
	checkTraceback(t, ce, "panic: in boom",
		"cell line 6, in boom: panic(\"in boom\")",
		"cell line 2, in init: boom()",
		"cell line 1: func init() {")
}

// Functions of an earlier cell that call each other, which go statements
// come to reach, are declared again without their marks together, so
// that each calls the other's new declaration and no goroutine writes a
// mark (run with -race).
func TestGoroutinesReachMutualRecursion(t *testing.T) {
	s, out := newSession(t)
	run(t, s, "func even(n int) bool {\n\tif n == 0 {\n\t\treturn true\n\t}\n\treturn odd(n - 1)\n}\nfunc odd(n int) bool {\n\tif n == 0 {\n\t\treturn false\n\t}\n\treturn even(n - 1)\n}")
	run(t, s, "done := make(chan bool)\nn := 0\nfor i := 0; i < 4; i++ {\n\tgo func(c chan<- bool) { c <- even(1000) }(done)\n}\nfor i := 0; i < 4; i++ {\n\tif <-done {\n\t\tn++\n\t}\n}\nn")
	if got := strings.Join(out.results, "|"); got != "4" {
		t.Fatalf("results %q", got)
	}
}
