package interp_test

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/kernel/internal/interp"
	"github.com/tensornb/tensornb/kernel/internal/interp/worker"
)

// yaegi gives compiled code the values of the cells' types inside a
// slice, a map or a struct without their methods, and those in
// interface elements as its own records: fmt.Println([]P{{1}, {2}})
// printed [{1} {2}] where go run prints [P1 P2], an any holding P{2}
// {2}, not P2, and []any{P{1}} the interpreter's record. A call with
// such an argument is refused at its line, and one whose argument may
// hold a record is looked through as it runs (TestRecordsRefused).
func TestNestedMethodsRefused(t *testing.T) {
	const p = "type P struct{ X int }\nfunc (p P) String() string { return fmt.Sprint(\"P\", p.X) }\n"
	for _, c := range []struct{ name, cell, want string }{
		{"a slice", p + "ps := []P{{1}, {2}}\nfmt.Println(ps)", "the instant engine cannot run fmt.Println of a []P: the interpreter gives compiled code the values of type P inside it without their methods"},
		{"a struct field", p + "type W struct{ In P }\nfmt.Printf(\"%v\\n\", W{P{5}})", "the instant engine cannot run fmt.Printf of a W: the interpreter gives compiled code the values of type P inside it without their methods"},
		{"a recover", p + "func() {\n\tdefer func() { fmt.Println(recover() != nil) }()\n\tfmt.Println([]P{{1}})\n}()", "the instant engine cannot run fmt.Println of a []P"},
		{"an interface value", p + "var x any = P{2}\nfmt.Println(x)", "the instant engine cannot run fmt.Println of a value of type any that holds a P: the interpreter gives compiled code the value without its methods"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, _ := newSession(t)
			err := runLast(t, s, c.cell)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
		})
	}
}

// Values whose methods the compiled function sees run: the argument's
// own (a P, a *P, a slice type with its own String), and, in a session
// whose types have no methods, values inside slices and interface
// elements. The output is that of go run.
func TestNestedWithoutMethods(t *testing.T) {
	checkPrinted(t, "P1 P2 [3]\nL\n",
		"type P struct{ X int }\nfunc (p P) String() string { return fmt.Sprint(\"P\", p.X) }\nfmt.Println(P{1}, &P{2}, []int{3})\ntype L []P\nfunc (l L) String() string { return \"L\" }\nfmt.Println(L{{1}})\nif len(os.Args) < 0 {\n\tfmt.Println([]P{{1}})\n}")
	checkPrinted(t, "[{1} 2 s 3] [{4}]\n", "type Q struct{ Y int }\ntype N int\nfmt.Println([]any{Q{1}, 2, \"s\", N(3)}, []Q{{4}})")
}

// An argument whose interface elements hold values of the cells' types
// with methods, which yaegi gives compiled code as its records of them,
// fails the cell as the call runs, with a message; the same call with
// other values runs. The output is that of go run, up to the failure.
func TestRecordsRefused(t *testing.T) {
	var out bytes.Buffer
	s, err := interp.Open(worker.Host("../../.."), &out, io.Discard, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = s.Run(context.Background(), "type P struct{ X int }\nfunc (p P) String() string { return fmt.Sprint(\"P\", p.X) }\nfunc say(a ...any) { fmt.Println(a...) }\nsay(3, \"x\")\nfmt.Println([]any{1, \"a\"})\nfmt.Println(map[string]any{\"a\": P{1}})")
	if err == nil || !strings.Contains(err.Error(), "would reach compiled code as the interpreter's record of it") || out.String() != "3 x\n[1 a]\n" {
		t.Fatalf("error %v, printed %q", err, out.String())
	}
}
