package interp_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/kernel/internal/front"
)

// A numbered cell is a cell's code and the execution count the front
// gives it (0: none, as for a cell run silently).
type numbered struct {
	count int
	code  string
}

// runCells runs cells in a new session, each under its execution count;
// all but the last must succeed. It returns the last one's error.
func runCells(t *testing.T, cells ...numbered) *front.CellError {
	t.Helper()
	s, _ := newSession(t)
	var err error
	for i, c := range cells {
		ctx := context.Background()
		if c.count > 0 {
			ctx = front.WithExecutionCount(ctx, c.count)
		}
		err = s.Run(ctx, c.code)
		if i < len(cells)-1 && err != nil {
			t.Fatalf("cell %q: %v", c.code, err)
		}
	}
	var ce *front.CellError
	if !errors.As(err, &ce) {
		t.Fatalf("the last cell: %#v, want a panic", err)
	}
	return ce
}

// checkTraceback fails unless ce is a panic whose traceback is want.
func checkTraceback(t *testing.T, ce *front.CellError, want ...string) {
	t.Helper()
	if ce.Name != "panic" || strings.Join(ce.Traceback, "\n") != strings.Join(want, "\n") {
		t.Fatalf("traceback:\n%s\nwant:\n%s", strings.Join(ce.Traceback, "\n"), strings.Join(want, "\n"))
	}
}

// A panic inside functions names each interpreted frame, innermost first,
// as Go's stack trace does: the function as Go names it, and its line in
// the cell that declared it, In[n] as IPython names a cell, or its first
// line for a cell run without a count. The lines are those of the same
// code compiled by Go (go run of it as a program, main's body the last
// cell): the statement that failed, and in each caller the line of its
// call.
func TestPanicNamesTheFrames(t *testing.T) {
	t.Run("a function of an earlier cell", func(t *testing.T) {
		// Go: main.third at the function's line, main.main at the call.
		ce := runCells(t, numbered{3, "func third(s []int) int { return s[2] }"}, numbered{4, "third([]int{1, 2})"})
		checkTraceback(t, ce, "panic: "+ce.Value,
			"Cell In[3], line 1, in third: func third(s []int) int { return s[2] }",
			"cell line 1: third([]int{1, 2})")
	})
	t.Run("recursion in this cell", func(t *testing.T) {
		// Go: main.fact at `return *p`, twice main.fact at the recursive
		// call, main.main at fact(2).
		ce := runCells(t, numbered{2, "func fact(n int) int {\n\tif n == 0 {\n\t\tvar p *int\n\t\treturn *p\n\t}\n\treturn n * fact(n-1)\n}\nfact(2)"})
		checkTraceback(t, ce, "panic: runtime error: invalid memory address or nil pointer dereference",
			"cell line 4, in fact: return *p",
			"cell line 6, in fact: return n * fact(n-1)",
			"cell line 6, in fact: return n * fact(n-1)",
			"cell line 8: fact(2)")
	})
	t.Run("a method of a cell run without a count", func(t *testing.T) {
		// Go: main.(*Grid).First at `return g.cells[0]`, main.main at
		// g.First().
		ce := runCells(t, numbered{0, "type Grid struct{ cells []float64 }\n\nfunc (g *Grid) First() float64 {\n\treturn g.cells[0]\n}"}, numbered{0, "g := &Grid{}\ng.First()"})
		checkTraceback(t, ce, "panic: "+ce.Value,
			`Cell "type Grid struct{ cells []float64 }", line 4, in (*Grid).First: return g.cells[0]`,
			"cell line 2: g.First()")
	})
	t.Run("after a panic recovered", func(t *testing.T) {
		// Go: main.h at `return a + *p`, main.main at h(nil); the frames
		// of k's panic, which g recovered, are not the failure's.
		ce := runCells(t, numbered{1, "func k(s []int) int { return s[9] }\nfunc g(s []int) (n int) {\n\tdefer func() {\n\t\tif r := recover(); r != nil {\n\t\t\tn = -1\n\t\t}\n\t}()\n\treturn k(s)\n}\nfunc h(s []int) int {\n\ta := g(s)\n\tvar p *int\n\treturn a + *p\n}\nh(nil)"})
		checkTraceback(t, ce, "panic: runtime error: invalid memory address or nil pointer dereference",
			"cell line 13, in h: return a + *p",
			"cell line 15: h(nil)")
	})
	t.Run("a function literal passed to an earlier cell's function", func(t *testing.T) {
		// Go: main.main.func1 at 10 / x, main.apply at its call of f,
		// main.main at apply(.
		ce := runCells(t,
			numbered{5, "func apply(xs []int, f func(int) int) {\n\tfor i := range xs {\n\t\txs[i] = f(xs[i])\n\t}\n}"},
			numbered{6, "xs := []int{1, 2, 0}\napply(xs, func(x int) int {\n\treturn 10 / x\n})"})
		checkTraceback(t, ce, "panic: runtime error: integer divide by zero",
			"cell line 3, in func1: return 10 / x",
			"Cell In[5], line 3, in apply: xs[i] = f(xs[i])",
			"cell line 2: apply(xs, func(x int) int {")
	})
}

// A panic inside a top-level block, loop or function literal names the
// line that failed, and its text as written, as Go does.
func TestPanicNamesTheLineInABlock(t *testing.T) {
	t.Run("a block", func(t *testing.T) {
		// Go: main.main at the Println.
		ce := runCells(t, numbered{1, "{\n\tvar p *struct{ A int }\n\tfmt.Println(p.A)\n}"})
		checkTraceback(t, ce, "panic: runtime error: invalid memory address or nil pointer dereference",
			"cell line 3: fmt.Println(p.A)")
	})
	t.Run("a function literal", func(t *testing.T) {
		// Go: main.main.func1 at the assignment, main.main at }().
		ce := runCells(t, numbered{1, "func() {\n\tvar m map[string]int\n\tm[\"a\"] = 1\n}()"})
		checkTraceback(t, ce, "panic: assignment to entry in nil map",
			"cell line 3, in func1: m[\"a\"] = 1",
			"cell line 4: }()")
	})
	t.Run("a range over an integer", func(t *testing.T) {
		// Go: main.main at the panic; the loop as written, not as the
		// interpreter runs it.
		ce := runCells(t, numbered{1, "for i := range 3 {\n\tif i == 2 {\n\t\tpanic(fmt.Sprint(\"at \", i))\n\t}\n}"})
		checkTraceback(t, ce, "panic: at 2",
			"cell line 3: panic(fmt.Sprint(\"at \", i))")
	})
}

// Code that runs on goroutines writes no marks, so that goroutines never
// write one variable at once (run with -race): a function literal
// started with go, the functions go statements reach, and an earlier
// cell's function that a go statement reaches later, declared again
// without its marks. A panic in it still names its frame.
func TestGoroutinesRunUnmarkedCode(t *testing.T) {
	s, out := newSession(t)
	run(t, s, "func square(n int) int {\n\treturn n * n\n}\nfunc work(n int, out chan<- int) {\n\tsum := 0\n\tfor i := 0; i < n; i++ {\n\t\tsum += square(i)\n\t}\n\tout <- sum\n}")
	run(t, s, "work(3, make(chan int, 1))")
	run(t, s, "total := 0\nresults := make(chan int)\nfor i := 0; i < 4; i++ {\n\tgo work(1000, results)\n}\nfor i := 0; i < 4; i++ {\n\ttotal += <-results\n}")
	run(t, s, "func twice(n int) int {\n\treturn 2 * square(n)\n}\ndone := make(chan int)\nfor i := 0; i < 4; i++ {\n\tgo func() {\n\t\tdone <- twice(i)\n\t}()\n}\nfor i := 0; i < 4; i++ {\n\ttotal += <-done\n}\ntotal")
	if got := strings.Join(out.results, "|"); got != "1331334028" {
		t.Fatalf("results %q", got)
	}
	ce := runCells(t, numbered{1, "func cube(n int) int {\n\tif n > 2 {\n\t\tvar p *int\n\t\treturn *p\n\t}\n\treturn n * n * n\n}"}, numbered{2, "done := make(chan int)\ngo func() { done <- cube(2) }()\n<-done\ncube(3)"})
	checkTraceback(t, ce, "panic: runtime error: invalid memory address or nil pointer dereference",
		"in cube (its line is not known)",
		"cell line 4: cube(3)")
}
