package interp_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/kernel/internal/front"
)

// A type switch with cases of interface types (error, any) and of a struct
// type written out matches as Go's does: yaegi alone never matched case
// error: nor case any:, and ran a later case instead. (A cells' type
// with an Error method would be refused in this session: case
// interface{} passes v, which may hold it, to fmt: TestNestedWithoutMethods.)
// The output is that of the same code run with go run.
func TestTypeSwitchWithInterfaceCases(t *testing.T) {
	checkPrinted(t, "any 6\nother\nerror x\nother\nany {1 2}\nstruct 1 1\nnil <nil>\nother\n", "func f(i interface{}) {\n\tswitch v := i.(type) {\n\tcase nil:\n\t\tfmt.Println(\"nil\", v)\n\tcase error:\n\t\tfmt.Println(\"error\", v.Error())\n\tcase interface{}:\n\t\tfmt.Println(\"any\", v)\n\t}\n\tswitch x := 1; v := i.(type) {\n\tcase struct{ a, b float64 }:\n\t\tfmt.Println(\"struct\", v.a, x)\n\t\tbreak\n\t\tfmt.Println(\"not here\")\n\tdefault:\n\t\tfmt.Println(\"other\")\n\t}\n}\nf(6)\nf(fmt.Errorf(\"x\"))\nf(struct{ a, b float64 }{1, 2})\nf(nil)")
}

// An interface value holding a value of a type the cells declared
// compares with such a value as in Go: yaegi alone found them never
// equal. (In an interface{}, where an int may be, myint is refused:
// TestTwinsRefused.) The output is that of the same code run with go
// run.
func TestInterfaceComparisons(t *testing.T) {
	checkPrinted(t, "true true false false\ntrue true\n", "type myint int\nfunc (myint) foo() {}\ntype fooer interface{ foo() }\nvar x fooer = myint(5)\nfunc h(v fooer) interface{ foo() } { return v }",
		"fmt.Println(x == myint(5), myint(5) == x, x != myint(5), x == myint(6))\nfmt.Println(h(myint(6)) == fooer(myint(6)), h(myint(6)) != interface{ foo() }(myint(7)))")
}

// A value of a type the cells declared, asserted to an interface type it
// implements, is that interface's value, whether alone, with its ok or
// in a type switch's variable: yaegi alone panicked or gave nil. The
// output is that of go run.
func TestAssertionsToInterfaces(t *testing.T) {
	checkPrinted(t, "9 10\n10 true false shape 9 shape 10 other\ntrue\n", "type Shape interface{ Area() int }\ntype Sq struct{ s int }\nfunc (q Sq) Area() int { return q.s * q.s }\ntype Rect struct{ w, h int }\nfunc (r *Rect) Area() int { return r.w * r.h }\nfunc describe(v any) string {\n\tswitch s := v.(type) {\n\tcase Shape:\n\t\treturn fmt.Sprint(\"shape \", s.Area())\n\t}\n\treturn \"other\"\n}",
		"var a any = Sq{3}\nvar b any = &Rect{2, 5}\nfmt.Println(a.(Shape).Area(), b.(Shape).Area())\ns, ok := b.(Shape)\n_, ok2 := any(4).(Shape)\nfmt.Println(s.Area(), ok, ok2, describe(a), describe(b), describe(1))\nfunc() {\n\tdefer func() { fmt.Println(recover() != nil) }()\n\t_ = any(\"x\").(Shape)\n}()")
}

// A method called on a nil interface value panics with Go's runtime
// error, which recover gives: yaegi's own was reflect's, "call of
// reflect.Value.Interface on zero Value". The output is that of go run.
func TestNilInterfaceCallRecovered(t *testing.T) {
	checkPrinted(t, "runtime error: invalid memory address or nil pointer dereference\n", "import \"runtime\"\ntype I interface{ M() }\nfunc f(p I) (msg string) {\n\tdefer func() {\n\t\terr := recover().(runtime.Error)\n\t\tmsg = err.Error()\n\t}()\n\tp.M()\n\treturn\n}\nfmt.Println(f(nil))")
}

// A statement that starts with a rewritten assertion, in an else if,
// keeps its marks for a panic's frames apart from the rewrite (they went
// inside the rewrite's function call once). The output is that of go run.
func TestAssertionStartsAStatement(t *testing.T) {
	checkPrinted(t, "zero\nm1\nmore\n", "type S struct{}\nfunc (*S) M1() { fmt.Println(\"m1\") }\nfunc F(x any) any { return x }\nfunc g(n int) {\n\tif n == 0 {\n\t\tfmt.Println(\"zero\")\n\t} else if F(n) == 1 {\n\t\tF(&S{}).(interface{ M1() }).M1()\n\t} else {\n\t\tfmt.Println(\"more\")\n\t}\n}\ng(0)\ng(1)\ng(2)")
}

// A call's result passed to a parameter of an interface type with methods
// is the value Go passes: yaegi alone wrapped an interface value for the
// interface again (the assertion x.(*S) failed; the method value of
// F(2).(interface{ M2() string }) was nil), gave a value of the cells'
// types without its methods, and failed on a *MyErr passed as error
// ("reflect.Set: value of type *struct {} is not assignable to type
// error"). The output is that of go run.
func TestCallResultsAsInterfaceArguments(t *testing.T) {
	checkPrinted(t, "true M2 of 2\nk1 k2  my error e\ntrue\n", "import \"errors\"\ntype S struct{ n int }\nfunc (s *S) M1() {}\nfunc (s *S) M2() string { return fmt.Sprint(\"M2 of \", s.n) }\ntype I interface{ M1() }\nfunc F(n int) I { return &S{n} }\nfunc is(x I) bool { _, ok := x.(*S); return ok }\ntype Namer interface{ Name() string }\ntype K int\nfunc (k K) Name() string { return fmt.Sprint(\"k\", int(k)) }\nfunc mk(n int) K { return K(n) }\nfunc names(ns ...Namer) string {\n\ts := \"\"\n\tfor _, n := range ns {\n\t\ts += n.Name() + \" \"\n\t}\n\treturn s\n}\ntype MyErr struct{}\nfunc (*MyErr) Error() string { return \"my error\" }\nfunc newErr() *MyErr { return &MyErr{} }\nfunc show(e error) string { return e.Error() }",
		"fmt.Println(is(F(1)), F(2).(interface{ M2() string }).M2())\nfmt.Println(names(mk(1), mk(2)), show(newErr()), show(errors.New(\"e\")))\nfmt.Println(func(x I) bool { return is(x) }(F(3)))")
}

// A call's results passed as the arguments of a call (f(g())) are refused
// where yaegi passes them wrongly, to a first parameter of an interface
// type with methods or a later one given a value of another type, and run
// where it passes them right. The output is that of go run.
func TestCallResultsAsArguments(t *testing.T) {
	decls := "type S struct{ n int }\nfunc (s *S) M1() {}\ntype I interface{ M1() }\nfunc at(n int, x I) string { s, ok := x.(*S); return fmt.Sprint(n, ok, s.n) }\nfunc pairI() (int, I) { return 1, &S{2} }\nfunc pairS() (int, *S) { return 1, &S{2} }"
	checkPrinted(t, "1 true 2\n", decls, "fmt.Println(at(pairI()))")
	for _, c := range []string{"at(pairS())", "func both(x, y I) {}\nfunc two() (I, I) { return nil, nil }\nboth(two())"} {
		s, _ := newSession(t)
		run(t, s, decls)
		err := runLast(t, s, c)
		var ce *front.CellError
		if !errors.As(err, &ce) || ce.Name != "Unsupported" || !strings.Contains(ce.Value, "a call's results passed as the arguments of a call") {
			t.Errorf("%q: %v, want a refusal", c, err)
		}
	}
}

// A comma-ok expression's value of a type that is not an interface,
// assigned to a variable of an interface type, is the value converted,
// the zero value where there is none, as Go has it: yaegi alone gave nil
// for a map's missing key (a method call on it dereferenced nil), and
// failed for a value there ("reflect.Set: value of type int is not
// assignable to type interp.valueInterface"). The output is that of go
// run.
func TestCommaOkToAnInterface(t *testing.T) {
	checkPrinted(t, "true my0 false my5 true\nE true\nmy0 false\ntrue false\ntrue false\n", "type MyInt int\nfunc (i MyInt) String() string { return fmt.Sprint(\"my\", int(i)) }\ntype Stringer interface{ String() string }\ntype E struct{}\nfunc (*E) Error() string { return \"E\" }\nfunc get(m map[int]MyInt, k int) (Stringer, bool) {\n\tvar s Stringer\n\tvar ok bool\n\ts, ok = m[k]\n\treturn s, ok\n}\nvar s Stringer\nvar ok bool\nvar a any",
		"var none map[int]MyInt\ns1, ok1 := get(none, 1)\ns2, ok2 := get(map[int]MyInt{1: 5}, 1)\nfmt.Println(s1 != nil, s1.String(), ok1, s2.String(), ok2)\nch := make(chan *E, 1)\nch <- &E{}\nvar err error\nerr, ok = <-ch\nfmt.Println(err.Error(), ok)\nvar x Stringer = time.Second\ns, ok = x.(MyInt)\nfmt.Println(s.String(), ok)\na, ok = none[2]\nfmt.Println(a != nil, ok)\nvar v, found any = none[3]\nfmt.Println(v != nil, found == true)")
}

// A nil interface value asserted to an interface type that some of the
// cells' types implement gives false with its ok, and panics alone with
// Go's runtime error; a type switch's case of any interface type does not
// match it: yaegi alone dereferenced nil. The output is that of go run.
func TestNilAssertedToAnInterface(t *testing.T) {
	checkPrinted(t, "false true false other barT\nother other foo\n"+
		"interface conversion: interface is nil, not main.B true\n"+
		"interface conversion: interface is nil, not interface { Foo(string, string) error; main.bar() int } true\n",
		"import \"runtime\"\ntype F interface{ foo() }\ntype B interface{ bar() int }\ntype myint int\nfunc (myint) foo() {}\nfunc (x myint) bar() int { return int(x) }\ntype P struct{}\nfunc (P) foo() {}\nfunc (P) bar() int { return 1 }\nfunc (P) Foo(x, y string) error { return nil }\n"+
			"func kind[T any](i F) string {\n\tswitch i.(type) {\n\tcase interface{ bar() T }:\n\t\treturn \"barT\"\n\tcase myint:\n\t\treturn \"myint\"\n\t}\n\treturn \"other\"\n}\n"+
			"func which(i any) string {\n\tswitch i.(type) {\n\tcase interface{ foo() }:\n\t\treturn \"foo\"\n\t}\n\treturn \"other\"\n}\n"+
			"func catch(f func()) {\n\tdefer func() {\n\t\tr := recover()\n\t\t_, isRuntime := r.(runtime.Error)\n\t\tfmt.Println(r, isRuntime)\n\t}()\n\tf()\n}",
		"var i F\nvar a any\n_, ok1 := i.(B)\nv2, ok2 := i.(interface{ bar() int })\n"+
			"fmt.Println(ok1, v2 == nil, ok2, kind[int](nil), kind[int](myint(6)))\nfmt.Println(which(7), which(nil), which(myint(1)))\n"+
			"catch(func() { _ = i.(B) })\ncatch(func() { _ = a.(interface{ bar() int; Foo(x, y string) error }) })")
}
