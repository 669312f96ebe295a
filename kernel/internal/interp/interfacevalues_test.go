package interp_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/kernel/internal/front"
)

// A composite literal assigned to a field, an element or a pointer's
// target of an interface type the cells declared holds the literal, as
// in Go, alone or among several: yaegi alone panicked (reflect.Set: value
// of type interp.valueInterface is not assignable to type struct {}). A
// compiled interface type's field takes the literal as before. The output
// is that of go run.
func TestLiteralAssignedToInterfaceElement(t *testing.T) {
	checkPrinted(t, "W2 W3 W6 W5 str\nW8 1 W9\nstr\n", "type It interface{ Iterate() string }\ntype W struct{ a int }\nfunc (w W) Iterate() string { return fmt.Sprint(\"W\", w.a) }\nfunc (w W) String() string { return \"str\" }\ntype Stream struct {\n\tit It\n\tst fmt.Stringer\n}\nfunc (w W) Get() fmt.Stringer { return w }\ntype U struct{ i interface{ Get() fmt.Stringer } }",
		"var s Stream\ns.it = W{1}\nps := &s\nps.it = W{2}\nsl := make([]It, 2)\nsl[0], sl[1] = W{3}, W{4}\nm := map[string]It{}\nm[\"k\"] = W{5}\np := &sl[1]\n*p = W{6}\ns.st = W{7}\nfmt.Println(s.it.Iterate(), sl[0].Iterate(), sl[1].Iterate(), m[\"k\"].Iterate(), s.st)\nvar n int\ns.it, n, sl[0] = W{8}, 1, W{9}\nfmt.Println(s.it.Iterate(), n, sl[0].Iterate())\nvar u U\nu.i = W{10}\nfmt.Println(u.i.Get())")
}

// A function value returned as a result of a function type, whether a
// declared function, a variable holding one, an instance of a generic
// function or a method value, is the function, as in Go: yaegi alone
// panicked (reflect.Set: value of type *interp.node is not assignable to
// type func()). The output is that of go run.
func TestFunctionValueReturned(t *testing.T) {
	checkPrinted(t, "a a a 2 m x int a true\n", "type F func() string\ntype T struct{ s string }\nfunc (t T) m() string { return \"m \" + t.s }\nfunc a() string { return \"a\" }\nfunc viaName() func() string { return a }\nfunc viaVar() func() string {\n\tf := a\n\treturn f\n}\nfunc two() (F, int) { return a, 2 }\nfunc method() func() string { return T{\"x\"}.m }\nfunc pick[X any]() string { return fmt.Sprintf(\"%T\", *new(X)) }\nfunc Pick[X any]() func() string { return pick[X] }\nfunc none() func() string { return nil }",
		"lit := func() func() string { return a }\nf, n := two()\nfmt.Println(viaName()(), viaVar()(), f(), n, method()(), Pick[int]()(), lit()(), none() == nil)")
}

// The method of a conversion to an interface type, called or taken as a
// value, is the converted value's, as in Go, in a generic function's
// instance too: yaegi alone panicked (reflect: call of
// reflect.Value.NumField on int Value). The output is that of go run.
func TestMethodOfConversionToInterface(t *testing.T) {
	checkPrinted(t, "1 2 S3 P5 4 6 S7\n", "import \"strconv\"\ntype Stringer interface{ String() string }\ntype myint int\nfunc (m myint) String() string { return strconv.Itoa(int(m)) }\ntype S struct{ a int }\nfunc (s S) String() string { return \"S\" + strconv.Itoa(s.a) }\ntype P struct{ a int }\nfunc (p *P) String() string { return \"P\" + strconv.Itoa(p.a) }\ntype both interface {\n\tString() string\n\tOther()\n}\nfunc (m myint) Other() {}\nfunc f[T Stringer](v T) string { return Stringer(v).String() }",
		"var j both = myint(4)\nm := Stringer(myint(2)).String\nfmt.Println(Stringer(myint(1)).String(), m(), fmt.Stringer(S{3}).String(), (Stringer(&P{5})).String(), Stringer(j).String(), f(myint(6)), f(S{7}))")
}

// A method promoted from an embedded interface field, through a pointer
// or a generic type's instance too, called or taken as a value, is the
// field's, as in Go: yaegi alone panicked (invalid interface value). The
// output is that of go run.
func TestMethodPromotedFromEmbeddedInterface(t *testing.T) {
	checkPrinted(t, "dog rex dog rex dog rex dog rex dog fido dog fido 7\ndog max dog rex\n", "type Namer interface{ Name() string }\ntype Dog struct{ n string }\nfunc (d *Dog) Name() string { return \"dog \" + d.n }\ntype Pet struct {\n\tage int\n\tNamer\n}\ntype Home struct {\n\tx, y int\n\t*Pet\n}\ntype Box[T any] struct {\n\tv T\n\tNamer\n}\nfunc (b Box[T]) Get() T { return b.v }",
		"p := Pet{3, &Dog{\"rex\"}}\nh := Home{1, 2, &p}\nf := p.Name\nb := Box[int]{7, &Dog{\"fido\"}}\ng := b.Name\nfmt.Println(p.Name(), h.Name(), f(), (&p).Name(), b.Name(), g(), b.Get())\np.Namer = &Dog{\"max\"}\nfmt.Println(h.Name(), f())")
}

// A value held in an empty interface, asserted to an interface type the
// cells wrote, is the interface's value if its type, of the cells' (of a
// basic type too) or not, has the methods, alone, with its ok, in a type
// switch, in a generic function's instance: yaegi alone panicked
// (reflect.Set: value of type interface {} is not assignable to type
// interp.valueInterface); asserted to each of the cells' types, a myint
// would be taken for a yourint, or an int for either. The output is that
// of go run.
func TestAssertionFromEmptyInterface(t *testing.T) {
	checkPrinted(t, "myint 1 | yourint 2 | P 3 | not I | not I | not I\nyourint 5 fooer myint 6 string 7 other\ntrue\n", "type I interface{ foo() string }\ntype myint int\nfunc (x myint) foo() string { return fmt.Sprint(\"myint \", int(x)) }\ntype yourint int\nfunc (x yourint) foo() string { return fmt.Sprint(\"yourint \", int(x)) }\ntype P struct{ a int }\nfunc (p *P) foo() string { return fmt.Sprint(\"P \", p.a) }\nfunc as(v any) string {\n\tif x, ok := v.(I); ok {\n\t\treturn x.foo()\n\t}\n\treturn \"not I\"\n}\nfunc sw[T any](v any) string {\n\tswitch x := v.(type) {\n\tcase interface{ foo() T }:\n\t\treturn \"fooer \" + fmt.Sprint(x.foo())\n\tcase string:\n\t\treturn fmt.Sprint(\"string \", x)\n\t}\n\treturn \"other\"\n}",
		"fmt.Println(as(myint(1)), \"|\", as(yourint(2)), \"|\", as(&P{3}), \"|\", as(4), \"|\", as(nil), \"|\", as(fmt.Errorf(\"e\")))\nvar a any = yourint(5)\ny := a.(interface{ foo() string })\nfmt.Println(y.foo(), sw[string](myint(6)), sw[string](\"7\"), sw[int](&P{8}))\nfunc() {\n\tdefer func() { fmt.Println(recover() != nil) }()\n\t_ = any(9).(I)\n}()")
}

// A switch whose tag is of an interface type and a case's value of
// another, or the other way round, runs the case whose value equals the
// tag, as in Go, a value of a type the cells declared among them, with
// the tag evaluated once, after the init statement: yaegi alone panicked
// (reflect.Value.Convert: value of type interface {} cannot be converted
// to type int). A nil interface value compared with a value of the
// cells' type is not equal to it: yaegi alone panicked on the
// assertion the comparison is rewritten to. The output is that of go
// run.
func TestSwitchOfInterfaceAndOtherValues(t *testing.T) {
	checkPrinted(t, "zero one one P 2 other other other\nsame differ differ\nfive six  six  3 none matched\n", "type P struct{ a int }\nvar calls int\nfunc next(v any) any { calls++; return v }\nfunc kind(i any) string {\n\tvar t int\n\tswitch i {\n\tcase t:\n\t\treturn \"zero\"\n\tcase 1, \"one\":\n\t\treturn \"one\"\n\tcase P{2}:\n\t\treturn \"P 2\"\n\t}\n\treturn \"other\"\n}\nfunc back(t int, i any) string {\n\tswitch t {\n\tcase i:\n\t\treturn \"same\"\n\tdefault:\n\t\treturn \"differ\"\n\t}\n}\nfunc once(v any) string {\n\tout := \"\"\n\tswitch w := 5; next(v) {\n\tcase w:\n\t\tout = \"five\"\n\t\tfallthrough\n\tcase 6, \"six\":\n\t\tout += \" six\"\n\t}\n\treturn out\n}\nfunc set(p *any, v any) any { *p = v; return 1 }\nfunc bumped(x any) string {\n\tswitch x {\n\tcase set(&x, 2), 2:\n\t\treturn \"matched\"\n\t}\n\treturn \"none\"\n}",
		"fmt.Println(kind(0), kind(1), kind(\"one\"), kind(P{2}), kind(P{3}), kind(2), kind(nil))\nfmt.Println(back(0, 0), back(1, 0), back(1, \"x\"))\nfmt.Println(once(5), once(\"six\"), once(7), calls, bumped(5), bumped(1))")
	checkPrinted(t, "three not three nil false true\n", "type myint int\nfunc (m myint) foo() {}\ntype fooer interface{ foo() }\nfunc three(i fooer) string {\n\tswitch t := myint(3); i {\n\tcase t:\n\t\treturn \"three\"\n\tcase nil:\n\t\treturn \"nil\"\n\t}\n\treturn \"not three\"\n}",
		"var f fooer\nfmt.Println(three(myint(3)), three(myint(4)), three(nil), f == myint(0), f != myint(0))")
}

// A switch that compares a value held in an interface with a value of a
// basic type is refused if the interface value may hold a value of
// another type the interpreter takes for it (a myint for an int).
func TestSwitchOfBasicTypesRefused(t *testing.T) {
	s, _ := newSession(t)
	err := s.Run(context.Background(), "type myint int\nfunc f(i any) string {\n\tswitch i {\n\tcase 0:\n\t\treturn \"zero\"\n\t}\n\treturn \"other\"\n}")
	var ce *front.CellError
	if !errors.As(err, &ce) || ce.Name != "Unsupported" || !strings.Contains(ce.Value, "a comparison with a value of type int, which the interpreter cannot tell from myint") || !strings.HasPrefix(ce.Value, "cell line 4:") {
		t.Fatalf("got %v, want the switch refused at its case", err)
	}
}
