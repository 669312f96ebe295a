package interp_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/kernel/internal/front"
)

// errorTypes declares error types as cells do.
const errorTypes = "type MyErr struct{ Code int }\nfunc (e *MyErr) Error() string { return fmt.Sprint(\"code \", e.Code) }\n" +
	"type T int\nfunc (t T) String() string { return \"T!\" }\n" +
	"type Both struct{}\nfunc (Both) Error() string { return \"err!\" }\nfunc (Both) String() string { return \"str!\" }"

// fmt prints a value of an error type the cells declare with its Error
// method, as Go does, and %w wraps it.
func TestFmtSeesErrorMethods(t *testing.T) {
	got := printed(t, errorTypes, "e := &MyErr{3}\nfmt.Println(e, T(1), Both{})\nfmt.Printf(\"%v %s|\", e, Both{})\nfmt.Print(fmt.Sprint(e), string(fmt.Append(nil, e)), \"\\n\")\n"+
		"w := fmt.Errorf(\"w: %w\", e)\nm, ok := errors.Unwrap(w).(*MyErr)\nfmt.Println(w, ok, m.Code)")
	if want := "code 3 T! err!\ncode 3 err!|code 3code 3\nw: code 3 true 3\n"; got != want {
		t.Fatalf("printed %q, want %q", got, want)
	}
}

// errors.As finds, in an error's tree, a value of a type the cells
// declare, and one of a compiled type behind the cells' Unwrap methods,
// as Go does: yaegi alone passes the target to the compiled errors.As
// without its type's methods, which panics, and compiled code sees no
// method of the cells' types but Error.
func TestErrorsAs(t *testing.T) {
	types := "type MyErr struct{ Code int }\nfunc (e *MyErr) Error() string { return fmt.Sprint(\"code \", e.Code) }\n" +
		"type wrapErr struct{ inner error }\nfunc (w *wrapErr) Error() string { return \"wrap(\" + w.inner.Error() + \")\" }\nfunc (w *wrapErr) Unwrap() error { return w.inner }\n" +
		"type multi struct{ errs []error }\nfunc (m *multi) Error() string { return \"multi\" }\nfunc (m *multi) Unwrap() []error { return m.errs }\n" +
		"type codeErr int\nfunc (c codeErr) Error() string { return fmt.Sprint(\"code \", int(c)) }\n" +
		"type asErr struct{}\nfunc (*asErr) Error() string { return \"asErr\" }\nfunc (*asErr) As(t any) bool {\n\tif p, ok := t.(**MyErr); ok {\n\t\t*p = &MyErr{42}\n\t\treturn true\n\t}\n\treturn false\n}"
	got := printed(t, types, "var me *MyErr\nerr := fmt.Errorf(\"wrap: %w\", &MyErr{7})\nfmt.Println(errors.As(err, &me), me.Code)",
		"me = nil\nfmt.Println(errors.As(&wrapErr{&MyErr{8}}, &me), me)\nme = nil\n"+
			"fmt.Println(errors.As(fmt.Errorf(\"a: %w\", &multi{[]error{errors.New(\"a\"), nil, &wrapErr{&MyErr{10}}}}), &me), me)\n"+
			"var ce codeErr\nfmt.Println(errors.As(fmt.Errorf(\"w: %w\", codeErr(5)), &ce), ce)\n"+
			"me = nil\nfmt.Println(errors.As(fmt.Errorf(\"y: %w\", &asErr{}), &me), me)\n"+
			"me = nil\nfmt.Println(errors.As(errors.New(\"plain\"), &me), me, errors.As(nil, &me))",
		"_, perr := os.Open(\"/nonexistent\")\nvar pe *fs.PathError\nfmt.Println(errors.As(&wrapErr{perr}, &pe), pe.Op)\nvar e2 error\nfmt.Println(errors.As(&wrapErr{perr}, &e2), e2)")
	want := "true 7\ntrue code 8\ntrue code 10\ntrue code 5\ntrue code 42\nfalse <nil> false\ntrue open\ntrue wrap(open /nonexistent: no such file or directory)\n"
	if got != want {
		t.Fatalf("printed %q, want %q", got, want)
	}
}

// errors.As is refused where yaegi's type assertions cannot match: a
// target of an interface type the cells write, or of a struct type they
// declare, and a struct error type of theirs with an Unwrap method.
func TestErrorsAsRefusals(t *testing.T) {
	for _, c := range []struct{ cells, want string }{
		{"var te interface{ Timeout() bool }\nerrors.As(errors.New(\"x\"), &te)", "errors.As with a target of type *interface{Timeout() bool}"},
		{"type V struct{ n int }\nfunc (v V) Error() string { return \"V\" }\n%%\nvar v V\nerrors.As(errors.New(\"x\"), &v)", "a struct type the cells declare"},
		{"type W struct{ inner error }\nfunc (w W) Error() string { return \"W\" }\nfunc (w W) Unwrap() error { return w.inner }\n%%\nvar pe *fs.PathError\nerrors.As(W{}, &pe)", "the cells declare W, a struct type with an Unwrap or As method"},
	} {
		s, _ := newSession(t)
		err := runLast(t, s, c.cells)
		var ce *front.CellError
		if !errors.As(err, &ce) || ce.Name != "Unsupported" || !strings.Contains(ce.Value, c.want) {
			t.Errorf("%q: %v, want %q", c.cells, err, c.want)
		}
	}
}

// A value of an error type the cells declare passed to errors.Join, whose
// parameter is ...error, is an error there, as Go has it (yaegi alone
// passed its bare data: "cannot use *struct { Code int } as type error").
func TestErrorsJoin(t *testing.T) {
	got := printed(t, errorTypes, "j := errors.Join(&MyErr{4}, errors.New(\"x\"), nil)\nfmt.Println(j)\nvar me *MyErr\nfmt.Println(errors.As(j, &me), me)\nfmt.Println(errors.Join(), errors.Join(nil) == nil)")
	if want := "code 4\nx\ntrue code 4\n<nil> true\n"; got != want {
		t.Fatalf("printed %q, want %q", got, want)
	}
}
