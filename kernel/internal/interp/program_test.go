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

// printingSession opens a session whose cells' output, standard and
// error, goes to the buffer it returns.
func printingSession(t *testing.T) (*interp.Session, *bytes.Buffer) {
	t.Helper()
	var out bytes.Buffer
	s, err := interp.Open(worker.Host("../../.."), &out, &out, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s, &out
}

// A program cell is one cell of a series, each run as GoNB runs it: a new
// program of the declarations so far. Each case's cells run in one
// session, each printing what GoNB prints for it.
func TestCellsRunAsGoNBPrograms(t *testing.T) {
	for _, c := range []struct {
		name  string
		cells []string
		want  []string
	}{
		{"a variable starts from its declaration in every program (GoNB's tutorial)",
			[]string{"var startValue = float32(1)\n\n%%\nstartValue++\nfmt.Println(startValue)", "%%\nfmt.Println(startValue)"},
			[]string{"2\n", "1\n"}},
		{"a variable without a value starts from zero",
			[]string{"var count int\n%%\ncount++\nfmt.Println(count)", "%%\ncount++\nfmt.Println(count)"},
			[]string{"1\n", "1\n"}},
		{"values are given again, by dependency, then in the order of their names",
			[]string{"func note(s string) int { fmt.Println(s); return len(s) }\nvar z = note(\"z\")", "var a = note(\"a\")", "var y = note(\"y\") + b\nvar b = note(\"b\")"},
			[]string{"z\n", "a\nz\n", "a\nb\ny\nz\n"}},
		{"a value uses what a later cell declares again",
			[]string{"var a = 1", "var b = a + 1", "var a = 5\n\n%%\nfmt.Println(b)"},
			[]string{"", "", "6\n"}},
		{"func init runs in every program, declared again it is replaced, and %rm removes it (GoNB's init notebook)",
			[]string{"func init() { fmt.Println(\"init v0\") }", "func init() { fmt.Println(\"init v1\") }", "func init_a() { fmt.Println(\"init_a\") }", "%rm init", "%%\nfmt.Println(\"main\")"},
			[]string{"init v0\n", "init v1\n", "init v1\ninit_a\n", ". removed func init\n", "init_a\nmain\n"}},
		{"declaring one name of a tuple again forgets the others (GoNB's vartuple notebook)",
			[]string{"func three() (int, int, int) { return 3, 5, 7 }\nvar a, _, c = three()\n%%\nfmt.Println(a, c)", "var c = 1.5\n%%\nfmt.Println(c)", "%rm a"},
			[]string{"3 7\n", "1.5\n", ". key \"a\" not found in any definition, not removed\n"}},
		{"names of a spec with a value each are kept apart",
			[]string{"var p, q = 1, 2", "var q = 3\n%%\nfmt.Println(p, q)"},
			[]string{"", "1 3\n"}},
		{"a flag's variable defines it anew in every program (GoNB's tutorial)",
			[]string{"var who = flag.String(\"who\", \"\", \"your name\")\n\n%% --who=world\nfmt.Printf(\"Hello %s!\\n\", *who)", "%args --who=Wally\n\nfunc main() {\n\tflag.Parse()\n\tfmt.Printf(\"Where is %s?\\n\", *who)\n}"},
			[]string{"Hello world!\n", "Where is Wally?\n"}},
		{"a cell of statements keeps the variables from then on, and says so",
			[]string{"var n = 1\n%%\nn++", "n++\nfmt.Println(n)", "%%\nfmt.Println(n)", "func init() { fmt.Println(\"once\") }", "%%\nfmt.Println(n)"},
			[]string{"", "Note: this cell runs statements outside a function, which GoNB does not: from now on the session keeps its variables' values from cell to cell, as a Python notebook does, and no longer starts each cell as a new program (%reset, or a restart of the kernel, starts again).\n3\n", "3\n", "once\n", "3\n"}},
		{"a cell of statements first keeps the variables and says nothing",
			[]string{"var n = 1", "n++", "var m = 1", "fmt.Println(n, m)"},
			[]string{"", "", "", "2 1\n"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, out := printingSession(t)
			for i, code := range c.cells {
				if got := runPrinted(t, s, out, code); got != c.want[i] {
					t.Errorf("cell %d %q printed %q, want %q", i+1, code, got, c.want[i])
				}
			}
		})
	}
}

// After a tuple's other names are forgotten, a program that uses one
// fails to compile, as GoNB's does.
func TestForgottenTupleNameIsUndefined(t *testing.T) {
	s, out := printingSession(t)
	runPrinted(t, s, out, "func two() (int, int) { return 1, 2 }\nvar a, b = two()")
	runPrinted(t, s, out, "var b = 3")
	err := s.Run(context.Background(), "%%\nfmt.Println(a)")
	var ce *front.CellError
	if !errors.As(err, &ce) || !strings.Contains(ce.Value, "undefined: a") {
		t.Fatalf("a cell using a: %v, want undefined: a", err)
	}
}

// A panic in a value that an earlier cell declared names that cell's
// line, as a program's trace does.
func TestPanicInAnEarlierCellsValue(t *testing.T) {
	s, out := printingSession(t)
	runPrinted(t, s, out, "var fail = false\nfunc check() int {\n\tif fail {\n\t\tpanic(\"failing\")\n\t}\n\treturn 1\n}\nvar x = check()")
	runPrinted(t, s, out, "%%\nfmt.Println(x)")
	run(t, s, "func init() { fail = true }")
	// Programs start from the declarations: fail is false again before
	// init sets it, after x has its value, so nothing panics.
	if got := runPrinted(t, s, out, "%%\nfmt.Println(x, fail)"); got != "1 true\n" {
		t.Fatalf("printed %q, want %q", got, "1 true\n")
	}
	run(t, s, "%rm init")
	err := s.Run(context.Background(), "var fail = true\n%%\nfmt.Println(x)")
	var ce *front.CellError
	if !errors.As(err, &ce) || !strings.Contains(strings.Join(ce.Traceback, "\n"), "panic: failing") {
		t.Fatalf("got %v, want the panic of check", err)
	}
}

// A value of an earlier cell that no longer compiles, since a later cell
// changed the result type of the function it calls, forgets its
// variable, with a note, rather than failing every later program: GoNB
// would give the variable the new type, which the interpreter cannot.
func TestValueThatNoLongerCompilesIsForgotten(t *testing.T) {
	s, out := printingSession(t)
	runPrinted(t, s, out, "func f() int { return 1 }\nvar z = f()")
	got := runPrinted(t, s, out, "func f() string { return \"s\" }")
	if want := "Note: z forgotten: the value an earlier cell gave it no longer compiles (cannot use type string as type int in assignment); run that cell again to declare it anew.\n"; got != want {
		t.Errorf("the cell that changed f printed %q, want %q", got, want)
	}
	err := s.Run(context.Background(), "%%\nfmt.Println(z)")
	var ce *front.CellError
	if !errors.As(err, &ce) || !strings.Contains(ce.Value, "undefined: z") {
		t.Fatalf("a cell using z: %v, want undefined: z", err)
	}
	if got := runPrinted(t, s, out, "var z = f()\n%%\nfmt.Println(z)"); got != "s\n" {
		t.Errorf("z declared again printed %q, want %q", got, "s\n")
	}
}

// A parameter or a local named as a variable is not a use of it: the
// order of values stays GoNB's (by name), as Go's initialization order
// counts uses.
func TestShadowedNameIsNoDependency(t *testing.T) {
	s, out := printingSession(t)
	runPrinted(t, s, out, "func note(s string) float64 { fmt.Println(s); return 1 }\nfunc sq(x float64) float64 { y := x; return y * y }")
	runPrinted(t, s, out, "var x = note(\"x\")")
	if got := runPrinted(t, s, out, "var a = note(\"a\") + sq(2)"); got != "a\nx\n" {
		t.Errorf("printed %q, want %q: sq's parameter x is not the variable x", got, "a\nx\n")
	}
}

// What a review found: %rm of a blank variable (by the name %list gives
// it) and of a tuple's name drop their values, which ran in every cell;
// a name declared again as a constant replaces the variable's value; an
// os.Exit(0) in func init ends the cell quietly, as it ends a program.
func TestProgramsReviewed(t *testing.T) {
	for _, c := range []struct {
		name  string
		cells []string
		want  []string
	}{
		{"%rm of a blank variable", []string{"func note(s string) int { fmt.Println(s); return 0 }\nvar _ = note(\"blank\")", "%rm _~000001", "var y = 1"},
			[]string{"blank\n", ". removed var _~000001\n", ""}},
		{"%rm of a tuple's name", []string{"func two() (int, int) { fmt.Println(\"two\"); return 1, 2 }\nvar a, b = two()", "%rm a", "var y = 1"},
			[]string{"two\n", ". removed var a\n", ""}},
		{"a variable declared again as a constant", []string{"var limit = 10", "const limit = 20\n%%\nfmt.Println(limit)", "%%\nfmt.Println(limit)"},
			[]string{"", "20\n", "20\n"}},
		{"os.Exit(0) in func init", []string{"func init() { fmt.Println(\"bye\"); os.Exit(0) }", "%%\nfmt.Println(\"main\")"},
			[]string{"bye\n", "bye\n"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, out := printingSession(t)
			for i, code := range c.cells {
				if got := runPrinted(t, s, out, code); got != c.want[i] {
					t.Errorf("cell %d %q printed %q, want %q", i+1, code, got, c.want[i])
				}
			}
		})
	}
}
