package interp_test

import (
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/tensornb/tensornb/kernel/internal/interp"
	"github.com/tensornb/tensornb/kernel/internal/interp/worker"
)

// printed runs cells in a new session and returns what they printed to
// standard output, all together; every cell must succeed.
func printed(t *testing.T, cells ...string) string {
	t.Helper()
	var out bytes.Buffer
	s, err := interp.Open(worker.Host("../../.."), &out, io.Discard, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cells {
		if err := s.Run(context.Background(), c); err != nil {
			t.Fatalf("cell %q: %v\nprinted so far:\n%s", c, err, out.String())
		}
	}
	return out.String()
}

// checkPrinted runs cells in a new session and fails the test unless
// they printed want, all together.
func checkPrinted(t *testing.T, want string, cells ...string) {
	t.Helper()
	if got := printed(t, cells...); got != want {
		t.Errorf("printed %q, want %q", got, want)
	}
}

// A cell's func main runs once, in the cell that declares it, after the
// cell's variables have their values and its init functions ran, as go
// run runs a program's main; later cells do not run it again (yaegi
// alone runs main around every evaluation), but may call it, and a cell
// that declares main again runs the new one.
func TestMainRunsOnce(t *testing.T) {
	for _, c := range []struct {
		name  string
		cells []string
		want  string
	}{
		{"not again in a later cell", []string{"func main() { fmt.Println(\"main ran\") }", "fmt.Println(\"later\")"}, "main ran\nlater\n"},
		{"after the variables", []string{"var ErrTea = fmt.Errorf(\"no tea\")\nfunc brew() error { return ErrTea }\nfunc main() { fmt.Println(brew(), errors.Is(brew(), ErrTea)); fmt.Println(\"end\") }"}, "no tea true\nend\n"},
		{"variables, init, main", []string{"var order []string\nvar x = note(\"var\")\nfunc note(s string) string { order = append(order, s); return s }\nfunc init() { note(\"init\") }\nfunc main() { note(\"main\"); fmt.Println(order) }"}, "[var init main]\n"},
		{"init after the variables", []string{"func init() { fmt.Println(\"init\", n) }\nvar n = 2"}, "init 2\n"},
		{"a function value in a variable", []string{"var up = strings.ToUpper\nfunc main() { fmt.Println(up(\"x\")) }"}, "X\n"},
		{"called from later cells", []string{"func main() { fmt.Println(\"one\") }", "main()\nf := main\nf()", "func main() { fmt.Println(\"two\") }", "fmt.Println(\"after\")"}, "one\none\none\ntwo\nafter\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := printed(t, c.cells...); got != c.want {
				t.Fatalf("printed %q, want %q", got, c.want)
			}
		})
	}
}

// A panic in main names its frames as in any function: main, and, in the
// cell that declares it, the line of its declaration, where it runs.
func TestPanicInMain(t *testing.T) {
	ce := runCells(t, numbered{2, "func main() {\n\tboom()\n}\nfunc boom() { panic(\"x\") }"})
	checkTraceback(t, ce, "panic: x",
		"cell line 4, in boom: func boom() { panic(\"x\") }",
		"cell line 2, in main: boom()",
		"cell line 1: func main() {")
	ce = runCells(t, numbered{2, "var n int\nfunc main() {\n\tif n > 2 {\n\t\tpanic(\"too big\")\n\t}\n}"}, numbered{3, "n = 3\nmain()"})
	checkTraceback(t, ce, "panic: too big",
		"Cell In[2], line 4, in main: panic(\"too big\")",
		"cell line 2: main()")
}
