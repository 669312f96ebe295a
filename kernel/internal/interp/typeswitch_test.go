package interp_test

import "testing"

// A type switch with cases of interface types (error, any) and of a struct
// type written out matches as Go's does: yaegi alone never matched case
// error: nor case any:, and ran a later case instead. The output is that
// of the same code run with go run.
func TestTypeSwitchWithInterfaceCases(t *testing.T) {
	got := printed(t, "type E struct{}\nfunc (E) Error() string { return \"e\" }\nfunc f(i interface{}) {\n\tswitch v := i.(type) {\n\tcase nil:\n\t\tfmt.Println(\"nil\", v)\n\tcase error:\n\t\tfmt.Println(\"error\", v.Error())\n\tcase interface{}:\n\t\tfmt.Println(\"any\", v)\n\t}\n\tswitch x := 1; v := i.(type) {\n\tcase struct{ a, b float64 }:\n\t\tfmt.Println(\"struct\", v.a, x)\n\t\tbreak\n\t\tfmt.Println(\"not here\")\n\tdefault:\n\t\tfmt.Println(\"other\")\n\t}\n}\nf(6)\nf(fmt.Errorf(\"x\"))\nf(struct{ a, b float64 }{1, 2})\nf(nil)\nf(E{})")
	want := "any 6\nother\nerror x\nother\nany {1 2}\nstruct 1 1\nnil <nil>\nother\nerror e\nother\n"
	if got != want {
		t.Errorf("printed %q, want %q", got, want)
	}
}
