package interp_test

import "testing"

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
