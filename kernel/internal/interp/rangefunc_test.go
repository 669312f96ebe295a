package interp_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/kernel/internal/front"
)

// A rangeProgram is a small Go program of loops over functions: decls,
// its package-level declarations, and body, statements that the session
// runs at a cell's top level and the program in a function. Both write
// with say, a fmt.Println to a buffer, and a panic ends the output with
// "panic: " and its value.
type rangeProgram struct {
	name, decls, body string
}

// rangeHelpers are declared before every rangeProgram's declarations.
const rangeHelpers = `var out strings.Builder

func say(a ...any) { fmt.Fprintln(&out, a...) }

func count(n int) func(func(int) bool) {
	return func(yield func(int) bool) {
		for i := 0; i < n; i++ {
			if !yield(i) {
				return
			}
		}
	}
}

func pairs(yield func(string, int) bool) {
	for i, s := range []string{"a", "b", "c"} {
		if !yield(s, i) {
			return
		}
	}
}
`

// rangePrograms exercise each rule of the Go spec's range over a
// function, and the runtime's checks of an iterator.
var rangePrograms = []rangeProgram{
	{"values", "", `for i := range count(3) {
	say("i", i)
}
for s, i := range pairs {
	say(s, i)
}
for s := range pairs {
	say(s)
}
for _, i := range pairs {
	say(i)
}
n := 0
for range count(4) {
	n++
}
say(n)
var never func(func() bool) = func(yield func() bool) { yield(); yield() }
for range never {
	say("twice")
}`},
	{"existing variables", "type P struct{ k string; v int }\nvar m = map[int]string{}", `var k string
var v int
for k, v = range pairs {
	say(k, v)
}
say("after", k, v)
p := &P{}
j := 0
xs := []int{0, 0, 0}
for xs[j] = range count(3) {
	j++
}
for p.k, p.v = range pairs {
}
say(xs, p.k, p.v)
for m[len(m)] = range pairs {
}
say(len(m), m[0], m[2])`},
	{"break and continue", "", `for i := range count(10) {
	if i%2 == 0 {
		continue
	}
	if i > 6 {
		break
	}
	say(i)
}
for i := range count(3) {
	switch i {
	case 1:
		break
	default:
		say("switch", i)
	}
	for j := range 3 {
		if j == 1 {
			break
		}
		if j == 0 {
			continue
		}
	}
	select {
	default:
		say("select", i)
		break
	}
	switch {
	case i == 1:
		continue
	}
	say("end", i)
}`},
	{"labeled break and continue through loops", "", `Outer:
for i := 0; i < 3; i++ {
	for a := range count(3) {
		for b := range count(3) {
			if b == 1 && i == 0 {
				continue Outer
			}
			if a == 1 && i == 1 {
				break Outer
			}
			say(i, a, b)
		}
	}
}
L:
for a := range count(3) {
	M:
	for b := range count(3) {
		for c := range count(3) {
			switch {
			case c == 1 && b == 0:
				continue M
			case c == 1 && b == 1:
				continue L
			case a == 2:
				break L
			}
			say("abc", a, b, c)
		}
	}
}
S:
switch {
default:
	for a := range count(5) {
		if a == 2 {
			break S
		}
		say("s", a)
	}
	say("not here")
}`},
	{"return", `func find(want int) (int, bool) {
	for i := range count(5) {
		for j := range count(5) {
			if i*j == want {
				return i*10 + j, true
			}
		}
	}
	return -1, false
}

func named(n int) (s string, err error) {
	defer func() { say("deferred sees", s) }()
	for x, i := range pairs {
		if i == n {
			s = x
			return
		}
		if i > 5 {
			return "never", nil
		}
	}
	return "none", nil
}

func blank() (_ int, e string) {
	for i := range count(3) {
		if i == 2 {
			return i * 100, "e"
		}
	}
	return
}

func plain() int {
	for i := range count(5) {
		for j := range count(5) {
			if j > i {
				return i + j
			}
		}
	}
	return 0
}

func noResults() {
	for i := range count(5) {
		say("noResults", i)
		if i == 1 {
			return
		}
	}
	say("not here")
}

var lit = func() int {
	for i := range count(4) {
		if i == 3 {
			return i
		}
	}
	return -1
}`, `say(find(6))
say(find(100))
say(named(1))
say(named(9))
say(blank())
say(plain())
noResults()
say(lit())`},
	{"defer", `func deferring() {
	defer say("first deferred")
	for i := range count(3) {
		defer say("body", i)
		for j := range count(2) {
			defer func() { say("inner", i, j) }()
		}
	}
	defer say("after the loop")
	say("returning")
}

type T struct{ n int }

func (t T) show(tag string) { say(tag, t.n) }

func fv(s ...string) { say("f", s) }

func pair() (int, string) { return 7, "seven" }

func two(a int, b string) { say("two", a, b) }

var m2 = map[int]bool{0: true, 1: true, 2: true}

func values() {
	t := T{1}
	for i := range count(2) {
		defer t.show("method value")
		defer fv("a", fmt.Sprint(i))
		defer fv([]string{"x", "y"}...)
		defer delete(m2, i)
		defer two(pair())
		t.n++
	}
	say("m2 before", len(m2))
}

func panics() (r string) {
	defer func() {
		if p := recover(); p != nil {
			r = fmt.Sprint("recovered ", p)
		}
	}()
	for i := range count(3) {
		defer say("deferred", i)
		if i == 1 {
			panic("in the body")
		}
	}
	return "no"
}

func twice() {
	for k := 0; k < 2; k++ {
		for i := range count(2) {
			defer say("twice", k, i)
		}
	}
	for _, k := range []int{5, 6} {
		for i := range count(2) {
			defer say("range", k, i)
		}
	}
	for i := range count(1) {
		for k := 0; k < 3; k++ {
			defer say("loop in the body", i, k)
			defer func() { say("literal in a loop in the body", i, k) }()
		}
	}
}

func deferPanics() {
	for i := range count(3) {
		defer func() {
			say("deferred", i)
			if i == 1 {
				panic("in a deferred call")
			}
		}()
	}
}`, `deferring()
twice()
values()
say("m2 after", len(m2))
say(panics())
deferPanics()`},
	{"control flow inside the body", `type Seq func(func(int) bool)

type List struct{ xs []int }

func (l List) All(yield func(int) bool) {
	for _, x := range l.xs {
		if !yield(x) {
			return
		}
	}
}

func inner() string {
	f := func() string {
		for i := range count(3) {
			if i == 1 {
				return "literal returns"
			}
		}
		return "no"
	}
	for i := range count(3) {
		g := func() int {
			for j := range count(3) {
				if j == 2 {
					return j
				}
			}
			return -1
		}
		if i == 1 {
			return f() + fmt.Sprint(g())
		}
	}
	return "none"
}

func inSwitch(n int) string {
	for i := range count(5) {
		switch {
		case i == n:
			for j := range count(5) {
				select {
				default:
					if j == 2 {
						return fmt.Sprint("found ", i, j)
					}
				}
			}
		}
	}
	return "not found"
}`, `L:
for i := range count(3) {
	for j := 0; j < 3; j++ {
		if j == 1 {
			continue L
		}
		say("L", i, j)
	}
}
for i := range count(4) {
	if i == 1 {
		goto skip
	}
	say("goto", i)
skip:
}
W:
for i := range count(3) {
	switch i {
	case 1:
		break W
	}
	say("W", i)
}
var s Seq = Seq(count(2))
for i := range s {
	say("Seq", i)
}
l := List{[]int{7, 8, 9}}
for x := range l.All {
	l.xs = nil
	say("All", x)
}
var stop func(func() bool) = func(yield func() bool) {
	for yield() {
	}
}
n := 0
for range stop {
	n++
	if n == 3 {
		break
	}
}
say("stop", n)
say(inner())
say(inSwitch(2), inSwitch(9))`},
	{"labels and blanks", `func again() int {
	n := 0
again:
	for x := range count(3) {
		n += x
	}
	if n < 9 {
		goto again
	}
	return n
}

func deep() (string, int) {
	for a := range count(3) {
	Middle:
		for b := range count(3) {
			for c := range count(3) {
				for d := range count(3) {
					switch {
					case d == 1 && c == 0:
						continue Middle
					case d == 2 && b == 2:
						break Middle
					case a == 2 && b == 1 && c == 1:
						return "deep", a*100 + b*10 + c
					}
				}
			}
		}
		say("a", a)
	}
	return "none", 0
}`, `say(again())
say(deep())
n := 0
for _, _ = range pairs {
	n++
}
for _ = range count(2) {
	n++
}
for range pairs {
	n++
}
say(n)
f := func() (int, error) {
	for i := range count(5) {
		if i == 3 {
			return i, nil
		}
	}
	return 0, nil
}
say(f())`},
	{"defer receivers", `type Counter struct{ n int }

func (c *Counter) Inc() { c.n++; say("inc", c.n) }

func (c Counter) Show() { say("show", c.n) }

type Outer struct {
	Counter
	label string
}

type Shower interface{ Show() }

func receivers() {
	o := Outer{label: "o"}
	p := &Counter{n: 10}
	for i := range count(2) {
		defer o.Inc()
		defer o.Show()
		defer p.Show()
		var sh Shower = Counter{n: i + 50}
		defer sh.Show()
		sh = nil
		o.n += 100
		p.n += 100
		p = &Counter{n: i}
	}
	say("returns", o.n)
}

func nilInterface() {
	defer say("deferred before")
	for range count(1) {
		var sh Shower
		defer sh.Show()
		say("not here")
	}
}`, `receivers()
nilInterface()`},
	{"variables per iteration", "", `var fs []func() int
for i := range count(3) {
	fs = append(fs, func() int { return i })
	i += 10
}
for _, f := range fs {
	say(f())
}
var ps []*int
for _, v := range pairs {
	ps = append(ps, &v)
}
say(*ps[0], *ps[1], *ps[2])
var gs []func() int
for j := 0; j < 2; j++ {
	for i := range count(2) {
		gs = append(gs, func() int { return j*10 + i })
	}
}
for _, g := range gs {
	say(g())
}`},
	{"range expression once", `var calls int

func seq() func(func(int) bool) {
	calls++
	say("seq called")
	return count(3)
}`, `for i := range seq() {
	say(i, calls)
}`},
	{"a panic in the body", "", `for i := range count(3) {
	say(i)
	if i == 1 {
		panic("boom")
	}
}`},
	{"yield after false", `func bad(yield func(int) bool) {
	yield(1)
	yield(2)
}`, `for i := range bad {
	say(i)
	break
}`},
	{"yield after the loop", `var saved func(int) bool

func keep(yield func(int) bool) {
	saved = yield
	yield(1)
}`, `for i := range keep {
	say(i)
}
saved(2)`},
	{"yield after a panic", `func recovering(yield func(int) bool) {
	defer func() {
		say("recovered", recover())
		yield(2)
	}()
	yield(1)
}`, `for i := range recovering {
	say(i)
	panic("body")
}`},
	{"a panic recovered by the iterator", `func swallow(yield func(int) bool) {
	defer func() {
		say("swallowed", recover())
	}()
	yield(1)
}`, `for i := range swallow {
	say(i)
	panic("body")
}`},
	{"a nil function", "", `var f func(func(int) bool)
say("before")
for x := range f {
	say(x)
}`},
	{"types of other packages", `func durations(yield func(time.Duration, *strings.Builder) bool) {
	var b strings.Builder
	yield(time.Second, &b)
}`, `for d, b := range durations {
	b.WriteString("x")
	say(d, b.String())
}`},
	{"recover in a body", `func recoverInBody() {
	defer func() {
		for range count(1) {
			say("recover in the body:", recover())
		}
	}()
	panic("boom")
}`, `recoverInBody()`},
	{"a runtime error in the body", "", `for i := range count(3) {
	say(10 / (i - 1))
}`},
	{"loops on one line", `func firstOver(n int) int { for i := range count(10) { if i > n { return i } }; return -1 }
func deferOnOneLine() { for i := range count(2) { defer say("deferred", i) } }`, `for i := range count(3) { say("i", i) }
for s, i := range pairs { say(s, i); if i == 1 { break } }
var k string; var v int; for k, v = range pairs { say(k, v) }; say("after", k, v)
for range count(2) { for j := range count(2) { if j == 0 { continue }; say("j", j) } }
Outer: for i := range count(3) { for j := range count(3) { if j > i { continue Outer }; say(i, j) } }
say(firstOver(4)); deferOnOneLine()`},
}

// TestRangeOverFunc runs each of rangePrograms in a session, and checks
// that it writes what Go writes running it as a program (go run, once
// for all of them).
func TestRangeOverFunc(t *testing.T) {
	want := goRangeOutputs(t)
	for i, p := range rangePrograms {
		t.Run(p.name, func(t *testing.T) {
			s, out := newSession(t)
			run(t, s, "import \"fmt\"\nimport \"strings\"\nimport \"time\"\n"+rangeHelpers+p.decls)
			got := ""
			err := s.Run(context.Background(), p.body)
			var ce *front.CellError
			switch {
			case err == nil:
			case errors.As(err, &ce) && ce.Name == "panic":
				got = "panic: " + ce.Value + "\n"
			default:
				t.Fatalf("the body: %v", err)
			}
			run(t, s, "out.String()")
			if len(out.results) != 1 {
				t.Fatalf("results %q", out.results)
			}
			var printed string
			if _, err := fmt.Sscanf(out.results[0], "%q", &printed); err != nil {
				t.Fatalf("result %s: %v", out.results[0], err)
			}
			got = printed + got
			if got != want[i] {
				t.Fatalf("the session wrote\n%s\nGo writes\n%s", got, want[i])
			}
		})
	}
}

// goRangeOutputs runs rangePrograms with go run, each as a package of its
// own imported by one main package, and returns what each writes.
func goRangeOutputs(t *testing.T) []string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to compare with")
	}
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module rangecases\n\ngo 1.23\n")
	var main strings.Builder
	main.WriteString("package main\n\nimport (\n\t\"fmt\"\n")
	for i := range rangePrograms {
		fmt.Fprintf(&main, "\tc%d \"rangecases/c%d\"\n", i, i)
	}
	main.WriteString(")\n\nfunc main() {\n")
	for i, p := range rangePrograms {
		write(fmt.Sprintf("c%d/c.go", i), "package c\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n\t\"time\"\n)\n\nvar _ = time.Second\n\n"+rangeHelpers+p.decls+
			"\n\nfunc Run() (written string) {\n\tdefer func() {\n\t\tif r := recover(); r != nil {\n\t\t\twritten = out.String() + \"panic: \" + fmt.Sprint(r) + \"\\n\"\n\t\t}\n\t}()\n"+
			p.body+"\n\treturn out.String()\n}\n")
		fmt.Fprintf(&main, "\tfmt.Printf(\"%%q\\n\", c%d.Run())\n", i)
	}
	main.WriteString("}\n")
	write("main.go", main.String())
	cmd := exec.Command(goTool, "run", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOTOOLCHAIN=local", "GOFLAGS=")
	b, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("go run: %v\n%s", err, stderr)
	}
	var outs []string
	for _, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		var s string
		if _, err := fmt.Sscanf(line, "%q", &s); err != nil {
			t.Fatalf("go run wrote %q: %v", line, err)
		}
		outs = append(outs, s)
	}
	if len(outs) != len(rangePrograms) {
		t.Fatalf("go run wrote %d outputs for %d programs:\n%s", len(outs), len(rangePrograms), b)
	}
	return outs
}

// A panic in the body of a loop over a function names the body's frame
// as Go does (f-range1, range1 at a cell's top level), the iterator's at
// its call of yield, and the loop's function's at the for. The lines
// are those of go run of the same code as a program, main's body the
// last cell.
func TestRangeOverFuncFrames(t *testing.T) {
	seq := numbered{1, "func seq(yield func(int) bool) {\n\tfor i := 0; i < 3; i++ {\n\t\tif !yield(i) {\n\t\t\treturn\n\t\t}\n\t}\n}"}
	t.Run("in a function", func(t *testing.T) {
		ce := runCells(t, seq, numbered{2, "func f() {\n\tfor x := range seq {\n\t\tg := func() int { return 10 / (x - 1) }\n\t\t_ = g()\n\t}\n}\nf()"})
		checkTraceback(t, ce, "panic: runtime error: integer divide by zero",
			"cell line 3, in f.func1: g := func() int { return 10 / (x - 1) }",
			"cell line 4, in f-range1: _ = g()",
			"Cell In[1], line 3, in seq: if !yield(i) {",
			"cell line 2, in f: for x := range seq {",
			"cell line 7: f()")
	})
	t.Run("after loops written on several lines", func(t *testing.T) {
		ce := runCells(t, seq, numbered{2, "func f() {\n\tfor x := range\n\t\tseq {\n\t\tdefer fmt.Sprint(x, // a comment\n\t\t\t1)\n\t}\n\tvar p *int\n\tfmt.Sprint(*p)\n}\nf()"})
		checkTraceback(t, ce, "panic: runtime error: invalid memory address or nil pointer dereference",
			"cell line 8, in f: fmt.Sprint(*p)",
			"cell line 10: f()")
	})
	t.Run("at the top level", func(t *testing.T) {
		ce := runCells(t, seq, numbered{2, "n := 1\nfor x := range seq {\n\t_ = 10 / (x - n)\n}"})
		checkTraceback(t, ce, "panic: runtime error: integer divide by zero",
			"cell line 3, in range1: _ = 10 / (x - n)",
			"Cell In[1], line 3, in seq: if !yield(i) {",
			"cell line 2: for x := range seq {")
	})
}

// What a loop over a function cannot run as Go does is refused, naming
// the construct, and nothing runs.
func TestRangeOverFuncRefusals(t *testing.T) {
	const seq = "func seq(yield func(int) bool) {\n\tyield(1)\n}\n"
	for _, c := range []struct {
		name, cell, want string
		line             int
	}{
		{"goto out of the body", seq + "func f() {\nagain:\n\tfor x := range seq {\n\t\tif x > 0 {\n\t\t\tgoto again\n\t\t}\n\t}\n}", "a goto out of the body of a range-over-func loop (goto again)", 8},
		{"goto out of a nested body", seq + "func f() {\n\tfor x := range seq {\n\tinner:\n\t\tfor range seq {\n\t\t\tif x > 0 {\n\t\t\t\tgoto inner\n\t\t\t}\n\t\t}\n\t}\n}", "a goto out of the body", 9},
		{"return at the top level", seq + "for x := range seq {\n\tif x > 0 {\n\t\treturn\n\t}\n}", "a return at the top level of a cell", 6},
		{"defer at the top level", seq + "for x := range seq {\n\tdefer println(x)\n}", "a defer in a range-over-func loop at the top level of a cell", 5},
		{"deferred literal that recovers", seq + "func f() {\n\tfor range seq {\n\t\tdefer func() { recover() }()\n\t}\n}", "a deferred function literal that calls recover", 6},
		{"deferred function that recovers", seq + "func h() { recover() }\nfunc f() {\n\tfor range seq {\n\t\tdefer h()\n\t}\n}", "a deferred call of h, which calls recover", 7},
		{"deferred function value", seq + "func f(g func()) {\n\tfor range seq {\n\t\tdefer g()\n\t}\n}", "a deferred call of the function value g", 6},
		{"return with a result shadowed", seq + "func f() (n int) {\n\tfor x := range seq {\n\t\tn := x\n\t\treturn n\n\t}\n\treturn\n}", "where the result n is shadowed", 7},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, _ := newSession(t)
			err := runLast(t, s, c.cell)
			var ce *front.CellError
			if !errors.As(err, &ce) || ce.Name != "Unsupported" || !strings.Contains(ce.Value, c.want) || !strings.HasPrefix(ce.Value, fmt.Sprintf("cell line %d:", c.line)) {
				t.Fatalf("error %#v", err)
			}
		})
	}
}
