package interp_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/kernel/internal/front"
	"github.com/tensornb/tensornb/kernel/internal/interp"
	"github.com/tensornb/tensornb/kernel/internal/interp/worker"
)

// The builtins of Go 1.21 to 1.26 that yaegi lacks or gets wrong run as
// Go runs them: clear of a map or a slice (yaegi: undefined), new of a
// value (Go 1.26; yaegi pointed to the type's zero), and recover's value
// (yaegi's was a reflect.Value, which no assertion matched), panic(nil)'s
// a *runtime.PanicNilError (Go 1.21).
func TestBuiltins(t *testing.T) {
	got := printed(t, "type P struct{ n int }\nfunc catch(f func()) (r any) { defer func() { r = recover() }(); f(); return nil }",
		"m := map[string]int{\"a\": 1, \"b\": 2}\nm2 := map[float64]int{math.NaN(): 1, 2: 2}\nclear(m)\nclear(m2)\ns := []int{1, 2, 3}\nclear(s[1:])\nvar nm map[string]int\nclear(nm)\nps := []P{{1}, {2}}\nclear(ps)\nfmt.Println(len(m), m, len(m2), s, len(s), ps)",
		"p := new(42)\nq := new(2.5)\nr := new(int8(3))\nt := new([]int{1, 2})\nn := 0\nnext := func() int { n++; return n }\nu := new(next())\n"+
			"fmt.Printf(\"%T %v %T %v %T %v %v %v %d\\n\", p, *p, q, *q, r, *r, *t, *u, n)\n*p = 7\nw := new(P{5})\nfmt.Println(*p, *new(int), w.n, *new('a'))",
		"r1 := catch(func() { panic(\"x\") })\ns1, ok1 := r1.(string)\nr2 := catch(func() { panic(errors.New(\"e\")) })\ne2, ok2 := r2.(error)\nr3 := catch(func() { panic(nil) })\nr4 := catch(func() { panic(42) })\n"+
			"fmt.Printf(\"%T %v %v|%T %v %v|%T %v|%T %v\\n\", r1, s1, ok1, r2, e2, ok2, r3, r3, r4, r4)")
	want := "0 map[] 0 [1 0 0] 3 [{0} {0}]\n*int 42 *float64 2.5 *int8 3 [1 2] 1 1\n7 0 5 97\n" +
		"string x true|*errors.errorString e true|*runtime.PanicNilError panic called with nil argument|int 42\n"
	if got != want {
		t.Fatalf("printed %q, want %q", got, want)
	}
}

// print and println write to standard error as Go's runtime does (yaegi
// wrote them to standard output as fmt.Println does), the results of a
// call that returns several each (typeparam/dottype.go), and are refused
// for values Go writes as addresses.
func TestPrintln(t *testing.T) {
	var out, errOut bytes.Buffer
	s, err := interp.Open(worker.Host("../../.."), &out, &errOut, nil)
	if err != nil {
		t.Fatal(err)
	}
	code := "var f32 float32 = 0.1\nx := 2.0\nprintln(1e21, 0.1, f32, x, complex(1, 2), 1e-7, uint8(3), \"s\", 'r', time.Second, true)\nprint(1, 2, \"x\", 3.5, \"\\n\")\nprintln()\nfunc two() (int, bool) { return 4, true }\nprintln(two())\nprint(two())\nprintln()"
	if err := s.Run(context.Background(), code); err != nil {
		t.Fatal(err)
	}
	if got, want := errOut.String(), "1e+21 0.1 0.1 2 (1+2i) 1e-07 3 s 114 1000000000 true\n12x3.5\n\n4 true\n4true\n"; got != want || out.Len() > 0 {
		t.Fatalf("standard error %q, want %q; standard output %q", got, want, out.String())
	}
	err = s.Run(context.Background(), "var p *int\nprintln(p)")
	var ce *front.CellError
	if !errors.As(err, &ce) || ce.Name != "Unsupported" || !strings.Contains(ce.Value, "println of a value of type *int") {
		t.Fatalf("println(p): %#v", err)
	}
}

// A panic that ends a cell says what Go says: panic(nil) is Go 1.21's
// PanicNilError, and a slice converted to a longer array (Go 1.20) fails
// in Go's words, not reflect's.
func TestPanicWords(t *testing.T) {
	for _, c := range []struct{ code, want string }{
		{"panic(nil)", "panic called with nil argument"},
		{"var e error\npanic(e)", "panic called with nil argument"},
		{"s := []int{1, 2}\na := [4]int(s)\n_ = a", "runtime error: cannot convert slice with length 2 to array or pointer to array with length 4"},
		{"s := []int{1, 2}\np := (*[4]int)(s)\n_ = p", "runtime error: cannot convert slice with length 2 to array or pointer to array with length 4"},
	} {
		s, _ := newSession(t)
		err := s.Run(context.Background(), c.code)
		var ce *front.CellError
		if !errors.As(err, &ce) || ce.Name != "panic" || ce.Value != c.want {
			t.Errorf("%q: %#v, want %q", c.code, err, c.want)
		}
	}
}

// len and cap of a pointer to an array are the array's length, a constant
// that Go takes without reading the pointer, nil or not (yaegi alone
// failed on a nil one: "reflect: call of reflect.Value.Len on zero
// Value"), and the code after a call of several lines keeps its lines.
// The output is that of go run.
func TestLenOfANilArrayPointer(t *testing.T) {
	checkPrinted(t, "4 16 6 16\n", "type Token *[16]byte\nfunc size[T ~*[16]byte]() int {\n\tvar t T\n\treturn len(t)\n}",
		"var p *[4]int\nvar tok Token\nn := len([2]int{\n\t1, 2,\n}) + cap(p)\nfmt.Println(len(p), cap(tok), n, size[Token]())")
	s, _ := newSession(t)
	err := s.Run(context.Background(), "func f() {\n\tvar q *[3]int\n\tn := len([2]int{\n\t\t1, 2,\n\t})\n\t_ = n\n\tfmt.Println(q[1])\n}\nf()")
	var ce *front.CellError
	if !errors.As(err, &ce) || !strings.Contains(ce.Value, "nil pointer dereference") || !strings.Contains(strings.Join(ce.Traceback, "\n"), "cell line 7, in f: fmt.Println(q[1])") {
		t.Fatalf("error %#v", err)
	}
}
