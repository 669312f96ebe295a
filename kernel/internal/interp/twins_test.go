package interp_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/kernel/internal/front"
)

// yaegi gives a cells' type the reflect type of its underlying type, so
// an interface value does not keep which of two such types it holds:
// where an assertion, a type switch or a comparison must tell them apart,
// the cell is refused, at its line, rather than given yaegi's answer
// (true for each of these, where go run prints false, and case A: for a
// B).
func TestTwinsRefused(t *testing.T) {
	for _, c := range []struct{ name, cell, want string }{
		{"assertion between struct types", "type A struct{}\ntype B struct{}\nvar y any = B{}\n_, ok := y.(A)\nfmt.Println(ok)", "cell line 4: the instant engine cannot run a type assertion to A, which the interpreter cannot tell from B"},
		{"assertion to the underlying type", "type C int\nvar z any = C(1)\n_, ok := z.(int)\nfmt.Println(ok)", "cell line 3: the instant engine cannot run a type assertion to int, which the interpreter cannot tell from C"},
		{"type switch", "type C int\nfunc (C) M() {}\nvar z any = C(1)\nswitch z.(type) {\ncase int:\n\tfmt.Println(\"int\")\ncase C:\n}", "cell line 5: the instant engine cannot run a type assertion to int, which the interpreter cannot tell from C"},
		{"pointers", "type A struct{ X int }\ntype B struct{ X int }\nvar p any = &B{}\n_, ok := p.(*A)\nfmt.Println(ok)", "cell line 4: the instant engine cannot run a type assertion to *A, which the interpreter cannot tell from *B"},
		{"comparison of a type with methods", "type C int\nfunc (C) M() {}\nc := any(C(1))\nfmt.Println(c == 1)", "cell line 4: the instant engine cannot run a comparison with a value of type int, which the interpreter cannot tell from C"},
		{"comparison with a constant", "type C int\nvar z any = C(1)\nfmt.Println(z == 1)", "cell line 3: the instant engine cannot run a comparison with a value of type int, which the interpreter cannot tell from C"},
		{"comparison of interface values", "type A struct{}\ntype B struct{}\nvar x, y any = A{}, B{}\nfmt.Println(x == y)", "cell line 4: the instant engine cannot run a comparison of interface values that may hold A, which the interpreter cannot tell from B"},
		{"map keys", "type A struct{}\ntype B struct{}\nm := map[any]int{A{}: 1, B{}: 2}\nfmt.Println(len(m))", "cell line 3: the instant engine cannot run a map key of type A, which the interpreter cannot tell from B"},
		{"switch on an interface value", "type C int\nvar z any = C(1)\nswitch z {\ncase 1:\n}", "cell line 4: the instant engine cannot run a comparison with a value of type int, which the interpreter cannot tell from C"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, _ := newSession(t)
			err := runLast(t, s, c.cell)
			var ce *front.CellError
			if !errors.As(err, &ce) || ce.Name != "Unsupported" || !strings.HasPrefix(ce.Value, c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
		})
	}
}

// Where no twin can be in the interface, the engine runs the cell: an
// error type whose underlying type is string, in an error (a string is
// never one), and a struct type alone with its fields. The output is
// that of go run.
func TestTwinsApart(t *testing.T) {
	checkPrinted(t, "false x\n{1 2} true\n", "type MyErr string\nfunc (e MyErr) Error() string { return string(e) }\nvar err error = MyErr(\"x\")\nfmt.Println(err == io.EOF, err.(MyErr))",
		"type P struct{ X, Y int }\nvar v any = P{1, 2}\nfmt.Println(v.(P), v == P{1, 2})")
}
