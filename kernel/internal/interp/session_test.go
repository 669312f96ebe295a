package interp_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/internal/displaysink"
	"github.com/tensornb/tensornb/kernel/internal/front"
	"github.com/tensornb/tensornb/kernel/internal/interp"
	"github.com/tensornb/tensornb/kernel/internal/interp/worker"
)

// shown records what cells send to display.
type shown struct {
	mu      sync.Mutex
	results []string // text/plain of each result
	shows   []string // text/plain of each display
}

func (s *shown) Display(b map[string]string, _ string, result bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if result {
		s.results = append(s.results, b[display.MIMEPlain])
	} else {
		s.shows = append(s.shows, b[display.MIMEPlain])
	}
	return nil
}

func newSession(t testing.TB) (*interp.Session, *shown) {
	t.Helper()
	s, err := worker.NewSession("../../..", io.Discard, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := &shown{}
	displaysink.Set(out.Display)
	t.Cleanup(func() { displaysink.Set(nil) })
	return s, out
}

func run(t testing.TB, s *interp.Session, code string) {
	t.Helper()
	if err := s.Run(context.Background(), code); err != nil {
		t.Fatalf("cell %q: %v", code, err)
	}
}

// Values live on from cell to cell: a write through a view in one cell is
// seen through the original in the next, as in a Python notebook.
func TestStateAcrossCells(t *testing.T) {
	s, out := newSession(t)
	run(t, s, "import \"github.com/tensornb/tensornb/tensor\"\nvar a = tensor.Float32.Arange(12).View(3, 4)\nb := a.T()")
	run(t, s, "b.Set(60, 2, 1)")
	run(t, s, "a.At(1, 2)")
	if len(out.results) != 1 || out.results[0] != "60" {
		t.Fatalf("results %q, want [60]", out.results)
	}
}

// A cell that ends with an expression shows its value; one that ends with
// a call of a function returning nothing runs it and shows nothing.
func TestLastExpressionIsTheResult(t *testing.T) {
	s, out := newSession(t)
	run(t, s, "import \"github.com/tensornb/tensornb/tensor\"\nx := tensor.Float32.Arange(24).View(2, 3, 4)\nx.Transpose(1, 2).Strides()")
	run(t, s, "func hello() {}\nhello()")
	run(t, s, "// a comment first\n1 + 2")
	if strings.Join(out.results, "|") != "(12, 1, 4)|3" {
		t.Fatalf("results %q", out.results)
	}
}

// Running a cell again, imports and all, works: an import the session has
// is not imported twice, and a function declared again replaces the old.
func TestRunningACellAgain(t *testing.T) {
	s, out := newSession(t)
	cell := "import \"fmt\"\nfunc f() string { return fmt.Sprint(1) }\nf()"
	run(t, s, cell)
	run(t, s, strings.Replace(cell, "Sprint(1)", "Sprint(2)", 1))
	if strings.Join(out.results, "|") != `"1"|"2"` {
		t.Fatalf("results %q", out.results)
	}
}

// A refused tensor operation is the cell's error as PyTorch's exception:
// its class, its message, the Go call where the message suggests Python,
// and the cell line of the statement, past the comments before it. No
// stack trace.
func TestTensorErrorsArePyTorchs(t *testing.T) {
	s, _ := newSession(t)
	run(t, s, "import \"github.com/tensornb/tensornb/tensor\"")
	err := s.Run(context.Background(), "y := tensor.Arange(24).View(2, 3, 4).Transpose(1, 2)\n// a comment\n\n// and another\ny.View(-1)")
	var ce *front.CellError
	msg := "view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead."
	want := []string{"RuntimeError: " + msg, "hint: in Go, .reshape(...) is the method Reshape(...)", "cell line 5: y.View(-1)"}
	if !errors.As(err, &ce) || ce.Name != "RuntimeError" || ce.Value != msg || strings.Join(ce.Traceback, "\n") != strings.Join(want, "\n") {
		t.Fatalf("error %#v", err)
	}
	err = s.Run(context.Background(), "tensor.Arange(3).Index(\"5\")")
	want = []string{"IndexError: index 5 is out of bounds for dimension 0 with size 3", "cell line 1: tensor.Arange(3).Index(\"5\")"}
	if !errors.As(err, &ce) || ce.Name != "IndexError" || strings.Join(ce.Traceback, "\n") != strings.Join(want, "\n") {
		t.Fatalf("error %#v", err)
	}
}

// Any other panic is the cell's error with the panic's message, as GoNB
// reports it.
func TestPanicIsTheCellsError(t *testing.T) {
	s, _ := newSession(t)
	err := s.Run(context.Background(), "var s []int\n// the fourth\n_ = s[3]")
	var ce *front.CellError
	if !errors.As(err, &ce) || ce.Name != "panic" || !strings.Contains(ce.Value, "out of range") ||
		strings.Join(ce.Traceback, "\n") != "panic: "+ce.Value+"\ncell line 3: _ = s[3]" {
		t.Fatalf("error %#v", err)
	}
}

// runLast runs cells separated by a "%%" line, and returns the last one's
// error; the cells before it must succeed.
func runLast(t *testing.T, s *interp.Session, cells string) error {
	t.Helper()
	parts := strings.Split(cells, "\n%%\n")
	for _, c := range parts[:len(parts)-1] {
		run(t, s, c)
	}
	return s.Run(context.Background(), parts[len(parts)-1])
}

func results(t *testing.T, cells ...string) []string {
	t.Helper()
	s, out := newSession(t)
	for _, c := range cells {
		run(t, s, c)
	}
	return out.results
}

// What yaegi v0.16.1 runs differently from Go is rewritten: loop variables
// captured by closures get one copy per iteration (Go 1.22), range over an
// integer becomes a counted loop, min and max follow Go's rules.
func TestRewrites(t *testing.T) {
	for _, c := range []struct {
		name  string
		cells []string
		want  string
	}{
		{"closures over a loop variable", []string{"import \"fmt\"\nvar fs []func() int\nfor i := 0; i < 3; i++ { fs = append(fs, func() int { return i }) }\nfmt.Sprint(fs[0](), fs[1](), fs[2]())"}, `"0 1 2"`},
		{"closures over range variables", []string{"import \"fmt\"\nvar fs []func() int\nfor _, v := range []int{5, 6, 7} { fs = append(fs, func() int { return v }) }\nfmt.Sprint(fs[0](), fs[1](), fs[2]())"}, `"5 6 7"`},
		{"range over an integer", []string{"s := 0\nfor i := range 4 { s += i }\nfor range 3 { s += 10 }\ns"}, "36"},
		{"range over a typed integer, captured", []string{"import \"fmt\"\nvar n int8 = 3\nvar fs []func() int8\nfor i := range n { fs = append(fs, func() int8 { return i }) }\nfmt.Sprint(fs[0](), fs[1](), fs[2]())"}, `"0 1 2"`},
		{"constant min", []string{"min(3, 2, 7)"}, "2"},
		{"min of strings", []string{"a, b := \"pear\", \"apple\"\nmin(a, b)"}, `"apple"`},
		{"max of floats", []string{"x := 1.5\nmax(x, 2, -1)"}, "2"},
		{"min with NaN", []string{"import \"math\"\nx := 1.0\nmin(x, math.NaN())"}, "NaN"},
		{"min of signed zeros", []string{"import \"math\"\nz, nz := 0.0, math.Copysign(0, -1)\n1 / min(z, nz)"}, "-Inf"},
		{"nested min", []string{"a, b, c := 4, 9, 2\nmax(min(a, b), c)"}, "4"},
		{"addresses of a loop variable", []string{"var ps []*int\nfor i := 0; i < 3; i++ { ps = append(ps, &i) }\n[]int{*ps[0], *ps[1], *ps[2]}"}, "[0 1 2]"},
		{"addresses of a range variable", []string{"var ps []*int\nfor _, v := range []int{1, 2, 3} { ps = append(ps, &v) }\n[]int{*ps[0], *ps[1], *ps[2]}"}, "[1 2 3]"},
		{"range over an integer, variable changed", []string{"s := []int{}\nfor i := range 5 { s = append(s, i); i += 2 }\ns"}, "[0 1 2 3 4]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := results(t, c.cells...); len(got) != 1 || got[0] != c.want {
				t.Fatalf("results %q, want [%s]", got, c.want)
			}
		})
	}
}

// What cannot be rewritten faithfully is refused, naming the construct and
// suggesting %%gonb; nothing runs.
func TestRefusals(t *testing.T) {
	for _, c := range []struct {
		name, cell, want string
		line             int
	}{
		{"loop variable captured and changed", "var fs []func() int\nfor i := 0; i < 3; i++ {\n\tfs = append(fs, func() int { return i })\n\ti++\n}", "the loop variable i", 2},
		{"goto out of a loop over a function", "func seq(yield func(int) bool) {}\nfor range seq {\n\tgoto end\n}\nend:", "a goto out of the body of a range-over-func loop", 3},
		{"a type argument declared inside a generic function", "func first[T any](xs []T) T { return xs[0] }\nfunc f[U any]() U {\n\ttype p struct{ x U }\n\treturn first([]p{{}}).x\n}\nf[int]()", "this cell's generic code (p is declared inside a generic function)", 1},
		{"package not compiled in", "import \"github.com/example/nothere\"", "package github.com/example/nothere", 1},
		{"a standard generic function the runtime implements", "import (\"iter\"; \"maps\")\nm := map[string]int{\"a\": 1}\nnext, stop := iter.Pull(maps.Keys(m))\nfmt.Println(next())\nstop()", "iter.Pull[string] (it uses internal/race.Acquire", 3},
		{"a standard function the runtime implements", "import \"maps\"\nm := maps.Clone(map[int]int{1: 2})\n_ = m", "maps.Clone[map[int]int, int, int] (it uses maps.clone: clone has no Go body: the runtime implements it)", 2},
		{"a function type that names itself as a parameter", "type Bar func(Bar) Bar\nvar b Bar", "the type Bar, a function type that names itself other than as its only result", 1},
		{"a channel type that names itself in a slice", "type Chan chan []Chan\nvar c Chan", "the type Chan, a channel type that names itself other than as its element", 1},
		{"a named result of a type that names itself", "type Bar func() Bar\nfunc f() (b Bar) { return }", "the named result b of the type Bar", 2},
		{"a receive with ok from a channel that names itself", "type Chan chan Chan\nc := make(Chan, 1)\nc <- nil\nx, ok := <-c\nfmt.Println(x, ok)", "a receive with its ok from a channel type that names itself", 4},
		{"a select case that receives from a channel that names itself", "type Chan chan Chan\nc := make(Chan, 1)\nselect {\ncase x := <-c:\n\t_ = x\ndefault:\n}", "a select case that receives a value of a channel type that names itself", 4},
		{"a range over a channel that names itself", "type Chan chan Chan\nc := make(Chan)\nclose(c)\nfor x := range c {\n\t_ = x\n}", "a range loop over a channel of the type Chan, which names itself, into variables", 4},
		{"the address of a field to a struct type that refers back", "type E struct {\n\tnext *E\n\tlist *L\n}\ntype L struct{ root E }\nvar e E\np := &e.list\n_ = p", "the address of the field list", 7},
		{"several values assigned, one to a field to a struct type that refers back", "type E struct {\n\tnext *E\n\tlist *L\n\tv    int\n}\ntype L struct{ root E }\nvar e E\ne.list, e.v = new(L), 1", "an assignment of several values, one to the field list", 8},
		{"a comma-ok value into a type a local one hides", "type MyInt int\nfunc (i MyInt) String() string { return \"my\" }\ntype S interface{ String() string }\nfunc g(m map[int]MyInt) {\n\tvar x S\n\ttype S int\n\tvar ok bool\n\tx, ok = m[1]\n\tfmt.Println(x.String(), ok)\n}\ng(nil)", "a comma-ok value of type MyInt assigned to a variable of type S, which the cell cannot write", 8},
		{"a type defined anew", "type T struct{ A int }\n%%\ntype T struct{ B string }", "a new definition of the type T", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, _ := newSession(t)
			err := runLast(t, s, c.cell)
			var ce *front.CellError
			if !errors.As(err, &ce) || ce.Name != "Unsupported" || !strings.Contains(ce.Value, c.want) ||
				!strings.Contains(ce.Value, "%%gonb") || !strings.HasPrefix(ce.Value, fmt.Sprintf("cell line %d:", c.line)) {
				t.Fatalf("error %#v", err)
			}
		})
	}
}

// A cell that does not type-check gets go/types' message at its own line,
// and runs nothing.
func TestCompileErrors(t *testing.T) {
	s, out := newSession(t)
	err := s.Run(context.Background(), "x := 1\ny := \"a\" + 1\nx")
	var ce *front.CellError
	if !errors.As(err, &ce) || ce.Name != "CompileError" || !strings.HasPrefix(ce.Value, "cell line 2: ") || !strings.Contains(ce.Value, "mismatched types") {
		t.Fatalf("error %#v", err)
	}
	if len(out.results) != 0 {
		t.Fatalf("a cell that does not compile ran: %q", out.results)
	}
}

// Indexing a tensor as in Python, x[0], gets the Go calls that do it.
func TestIndexingHint(t *testing.T) {
	s, _ := newSession(t)
	err := runLast(t, s, "x := tensor.Arange(6).View(2, 3)\n%%\nn := 1\nrow := x[0]")
	var ce *front.CellError
	want := []string{"CompileError: the cell does not compile", "cell line 2: cannot index x (variable of type *tensor.Tensor)", `hint: a tensor is indexed with x.Index("0") or x.Select(0, 0)`}
	if !errors.As(err, &ce) || strings.Join(ce.Traceback, "\n") != strings.Join(want, "\n") {
		t.Fatalf("error %#v", err)
	}
}

// The names the session gives packages it imports for a type only do not
// reach the person.
func TestNoInternalNames(t *testing.T) {
	s, _ := newSession(t)
	err := runLast(t, s, "import (\"iter\"; \"maps\")\nm := map[string]int{}\nnext, stop := iter.Pull(maps.Keys(m))\nfmt.Println(next())\nstop()")
	var ce *front.CellError
	if !errors.As(err, &ce) || !strings.Contains(ce.Value, "iter.Pull[string]") || strings.Contains(strings.Join(append(ce.Traceback, ce.Value), "\n"), "tensornb") {
		t.Fatalf("error %#v", err)
	}
}

// Packages used without an import are imported, as goimports does for
// GoNB's cells: when one package has that name.
func TestAutoImports(t *testing.T) {
	got := results(t, "x := strings.Repeat(\"ab\", 2)\ntensor.Arange(3).Strides()", "fmt.Sprint(x)")
	if strings.Join(got, "|") != `(1,)|"abab"` {
		t.Fatalf("results %q", got)
	}
	s, _ := newSession(t)
	err := s.Run(context.Background(), "rand.Int()")
	var ce *front.CellError
	if !errors.As(err, &ce) || ce.Value != "cell line 1: undefined: rand" {
		t.Fatalf("an ambiguous package name: %#v", err)
	}
}

// Package-level variables may be initialized from one another, in one
// cell or across cells (yaegi alone reports a "variable definition loop").
func TestVariablesFromVariables(t *testing.T) {
	got := results(t, "import \"github.com/tensornb/tensornb/tensor\"\nvar a = tensor.Int32.Arange(12)\nvar b = a.Reshape(3, 4)", "var c = b.T()\nvar n int = c.Size(0)\nvar (\n\tp, q = n, 2\n)\np * q")
	if strings.Join(got, "|") != "8" {
		t.Fatalf("results %q", got)
	}
}

// Every statement runs once, when its cell runs (yaegi alone runs some
// again at later evaluations), and variables defined inside a loop work
// (yaegi alone loses them at the top level).
func TestStatementsRunOnce(t *testing.T) {
	s, out := newSession(t)
	run(t, s, "import \"github.com/tensornb/tensornb/display\"\nvar b = tensor.Int32.Arange(12).Reshape(3, 4)\ndisplay.Show(display.Layout(b))")
	run(t, s, "var c = b.T()\nsum := 0\nfunc f(x int) (int, error) { return x, nil }")
	run(t, s, "for _, v := range []int{1, 2, 3} {\n\ta, err := f(v)\n\tif err != nil {\n\t\tcontinue\n\t}\n\tsum += a\n}")
	run(t, s, "x := 1\nsum + x")
	if len(out.shows) != 1 || strings.Join(out.results, "|") != "7" {
		t.Fatalf("shows %d, results %q", len(out.shows), out.results)
	}
}

// Values of types the cells declared show as Go prints them, methods and
// String() included, as under GoNB.
func TestInterpretedValues(t *testing.T) {
	got := results(t,
		"type P struct{ X, Y int }\nfunc (p P) Sum() int { return p.X + p.Y }\ntype Temp float64\nfunc (t Temp) String() string { return fmt.Sprintf(\"%.1f°C\", float64(t)) }",
		"p := P{1, 2}\np", "Temp(21.5)", "&p", "p.Sum()")
	if strings.Join(got, "|") != "{1 2}|21.5°C|&{1 2}|3" {
		t.Fatalf("results %q", got)
	}
}

// Constants keep their value and kind from cell to cell, and min and max
// of constants keep the kind of their result.
func TestConstants(t *testing.T) {
	got := results(t, "const Half = 0.5\nconst E = 2.0\nconst R = 'x'\nconst F float32 = 0.1", "10 / Half", "fmt.Sprintf(\"%T %v\", E, E)", "fmt.Sprintf(\"%T\", R)", "1 / F", "min(1, 2.5) / 2")
	if strings.Join(got, "|") != `20|"float64 2"|"int32"|10|0.5` {
		t.Fatalf("results %q", got)
	}
}

// An earlier declaration that a later cell breaks (a function using a
// variable now of another type) is forgotten with a note, rather than
// failing every cell after; a variable of a type no cell can name is not
// kept.
func TestSessionStaysUsable(t *testing.T) {
	s, out := newSession(t)
	run(t, s, "x := 1")
	run(t, s, "func f() int { return x * 2 }")
	run(t, s, "x := \"s\"")
	run(t, s, "1 + 1")
	err := s.Run(context.Background(), "f()")
	var ce *front.CellError
	if !errors.As(err, &ce) || ce.Value != "cell line 1: undefined: f" {
		t.Fatalf("the forgotten function: %#v", err)
	}
	run(t, s, "import \"net/http\"\nb := http.NoBody\n_ = b")
	run(t, s, "len(x)")
	if strings.Join(out.results, "|") != "2|1" {
		t.Fatalf("results %q", out.results)
	}
}

// A cell may use what it declares further down, as a Go program may.
func TestDeclarationsBeforeUse(t *testing.T) {
	got := results(t, "x := P{1, 2}\nfmt.Println(f())\ntype P struct{ X, Y int }\nfunc f() int { return 7 }\nx.X + f()")
	if strings.Join(got, "|") != "8" {
		t.Fatalf("results %q", got)
	}
}

// What runs differently at a cell's top level is refused or handled as Go
// would: a defer or return there, a variable named like an imported
// package or main (yaegi ran it as package main's main), a method
// defined anew; os.Exit ends the cell; a package that
// only a type needs leaves its name free; a definition whose value fails
// still leaves its variable, typed.
func TestTopLevel(t *testing.T) {
	for _, c := range []struct{ cell, want string }{
		{"defer fmt.Println(\"bye\")\nfmt.Println(\"hi\")", "a defer at the top level of a cell"},
		{"x := 4\nif x > 3 {\n\treturn\n}", "a return at the top level of a cell"},
		{"import \"strings\"\nstrings := []string{\"a\"}\n_ = strings", "a variable named strings, like an imported package"},
		{"main := 3\n_ = main", "a variable named main"},
		{"type T int\nfunc (t T) Get() int { return int(t) }\n%%\nfunc (t T) Get() int { return int(t) * 100 }", "a new definition of the method T.Get"},
	} {
		s, _ := newSession(t)
		err := runLast(t, s, c.cell)
		var ce *front.CellError
		if !errors.As(err, &ce) || ce.Name != "Unsupported" || !strings.Contains(ce.Value, c.want) {
			t.Errorf("%q: %#v", c.cell, err)
		}
	}
	s, out := newSession(t)
	run(t, s, "fmt.Println(1)\nos.Exit(0)\nfmt.Println(2)")
	err := s.Run(context.Background(), "os.Exit(3)")
	var ce *front.CellError
	if !errors.As(err, &ce) || ce.Name != "Exit" || ce.Value != "exit status 3" {
		t.Fatalf("os.Exit(3): %#v", err)
	}
	run(t, s, "import \"crypto/sha256\"\nh := sha256.New()")
	run(t, s, "hash := fmt.Sprintf(\"%x\", h.Sum(nil))\nlen(hash)")
	run(t, s, "b := \"s\"\nfunc boom() int { panic(\"x\") }")
	if err := s.Run(context.Background(), "b := boom()"); err == nil {
		t.Fatal("boom did not panic")
	}
	run(t, s, "b + 1")
	if strings.Join(out.results, "|") != "64|1" {
		t.Fatalf("results %q", out.results)
	}
}

// Cells as students write them, in the articles' REPL style: a comment
// after the last expression, comments before it, declarations used before
// they are written, calls without a shape.
func TestCellsAsStudentsWriteThem(t *testing.T) {
	s, out := newSession(t)
	run(t, s, "import \"github.com/tensornb/tensornb/tensor\"\nx := tensor.Float32.Arange(24).View(2, 3, 4)\ny := x.Transpose(1, 2)\ny.Strides()   // (12, 1, 4)")
	run(t, s, "// the strides again\n\ny.Strides(); // (12, 1, 4)\n// that was it")
	run(t, s, "tensor.New([]float32{1, 2, 3, 4, 5, 6, 7, 8}).Shape()")
	run(t, s, "inc()\ninc()\nn\nvar n int\nfunc inc() { n++ }")
	run(t, s, "var m = twice(n)\nfunc twice(v int) int { return 2 * v }\nm")
	if got := strings.Join(out.results, "|"); got != "(12, 1, 4)|(12, 1, 4)|(8,)|2|4" {
		t.Fatalf("results %q", got)
	}
}

// An error names the line of the statement that failed, not the comment
// before it.
func TestErrorsNameTheCodeLine(t *testing.T) {
	s, _ := newSession(t)
	err := s.Run(context.Background(), "// a comment\n// another\npanic(\"boom\")")
	if err == nil || !strings.Contains(strings.Join(err.(*front.CellError).Traceback, "\n"), "cell line 3: panic(\"boom\")") {
		t.Fatalf("got %v", err)
	}
}

// A cell's functions and package-level variables may use the variables
// its statements define with :=, wherever in the cell they are written, as
// a Go program's functions use its package-level variables; a name that
// nothing defines is still Go's error.
func TestFunctionsUseTheCellsDefinitions(t *testing.T) {
	s, out := newSession(t)
	run(t, s, "w := \"s\"")
	run(t, s, "z := 5\nfunc k() int { return z }\nk()")
	run(t, s, "z = 7\nk()")
	run(t, s, "func both() string { return fmt.Sprintf(\"%d %s\", a, b) }\na, b := 1, \"x\"\nboth()")
	run(t, s, "n := 4\nvar sq = n * n\nsq")
	run(t, s, "w := 3\nfunc dbl() int { return w * 2 }\ndbl()")
	if got := strings.Join(out.results, "|"); got != `5|7|"1 x"|16|6` {
		t.Fatalf("results %q", got)
	}
	err := s.Run(context.Background(), "y := 1\nfunc k2() int { return nope + y }")
	var ce *front.CellError
	if !errors.As(err, &ce) || ce.Value != "cell line 2: undefined: nope" {
		t.Fatalf("an undefined name: %#v", err)
	}
}

// The kernel's hooks are no part of what a cell can use: the destination
// of display's pictures, the widgets' transport and the count of storages
// live in the module's internal packages, of which the engine has no
// table, and display, widget and tensor no longer export them. Before,
// display.SetSink(nil) in a cell turned every later picture of the
// session into plain text. (Package gonb's TestHooksAreOutOfCellsReach
// checks the compiled kernelspec.)
func TestHooksAreOutOfCellsReach(t *testing.T) {
	s, _ := newSession(t)
	for _, c := range []struct{ code, name, want string }{
		{"import \"github.com/tensornb/tensornb/display\"\ndisplay.SetSink(nil)", "CompileError", "cell line 2: undefined: display.SetSink"},
		{"import \"github.com/tensornb/tensornb/widget\"\nwidget.SetTransport(nil)", "CompileError", "cell line 2: undefined: widget.SetTransport"},
		{"import \"github.com/tensornb/tensornb/tensor\"\ntensor.StoragesAllocated()", "CompileError", "cell line 2: undefined: tensor.StoragesAllocated"},
		{"import \"github.com/tensornb/tensornb/internal/displaysink\"\ndisplaysink.Set(nil)", "Unsupported", "cell line 1: the instant engine cannot run package github.com/tensornb/tensornb/internal/displaysink, which it does not have compiled in"},
	} {
		err := s.Run(context.Background(), c.code)
		var ce *front.CellError
		if !errors.As(err, &ce) || ce.Name != c.name || !strings.HasPrefix(ce.Value, c.want) {
			t.Errorf("%q: %v, want %s %q", c.code, err, c.name, c.want)
		}
	}
}
