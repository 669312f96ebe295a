package interp_test

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/kernel/internal/front"
)

// redefiningCell only defines again the names it defined the time
// before: the cell of the measurement, with a tensor of 64 KiB
// made on the way and another one kept.
const redefiningCell = `import (
	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/tensor"
)
x := tensor.Float32.Arange(24).View(2, 3, 4)
y := x.Transpose(0, 1).Contiguous()
display.Show(display.Layout(y))
big := tensor.Float32.Zeros(16, 1024).Add(1)
y.Sum()`

// liveHeap returns the bytes the heap holds after collecting garbage.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// A cell run again and again keeps no more memory than it did the first
// times: not the tensors it made on its way (yaegi gave each top-level
// expression a slot of its package's frame, freed never), not the old
// values of the names it defines again (a new variable each time), not
// its syntax trees and scopes (which yaegi listed for nobody to read),
// not the files of positions of what yaegi evaluated and the checker
// parsed, not the sites of its statements and the text they name.
// Before, 250 runs kept about 45 MiB, and then, with the files and the
// sites, about 1 MiB (4 KB a cell); now some tens of bytes a cell. The
// test's display sink is emptied as the cells run: it is no part of the
// session. Heap sizes, not times, are compared.
func TestRedefiningKeepsNoMemory(t *testing.T) {
	s, out := newSession(t)
	ctx := context.Background()
	runs := func(from, to int) {
		for i := from; i <= to; i++ {
			if err := s.Run(front.WithExecutionCount(ctx, i), redefiningCell); err != nil {
				t.Fatalf("run %d: %v", i, err)
			}
			out.mu.Lock()
			out.results, out.shows = nil, nil
			out.mu.Unlock()
		}
	}
	runs(1, 300)
	before := liveHeap()
	runs(301, 550)
	after := liveHeap()
	runtime.KeepAlive(s)
	const most = 256 << 10
	t.Logf("250 runs: heap %.1f MiB -> %.1f MiB", float64(before)/(1<<20), float64(after)/(1<<20))
	if grew := int64(after) - int64(before); grew > most {
		t.Errorf("250 more runs of a cell that only defines its names again grew the heap by %.0f KiB (from %.1f MiB), more than %d KiB",
			float64(grew)/(1<<10), float64(before)/(1<<20), most>>10)
	}
}

// A variable defined again with the same type is the same variable: the
// functions of earlier cells see its new value, as they would in a Go
// program of all the cells (GoNB's, on the compiled kernelspec). Before,
// they kept seeing the first value, which stayed in memory for them.
func TestRedefinedVariableIsTheFunctionsToo(t *testing.T) {
	s, out := newSession(t)
	run(t, s, "x := 1")
	run(t, s, "func f() int { return x }\ng := func() int { return x }")
	run(t, s, "x := 2")
	run(t, s, "f()")
	run(t, s, "g()")
	run(t, s, "x = x + 1\nf()")
	run(t, s, `var x = "s"`)
	run(t, s, "x")
	if got := strings.Join(out.results, "|"); got != `2|2|3|"s"` {
		t.Fatalf("results %s, want 2|2|3|\"s\"", got)
	}
	// And one of another type is another variable: f no longer
	// compiles, and is forgotten.
	err := s.Run(context.Background(), "f()")
	if err == nil || !strings.Contains(fmt.Sprint(err), "undefined: f") {
		t.Fatalf("f() after x became a string: %v", err)
	}
}

// A var declaration without a value gives the variable its zero value,
// even when the session had it, with the same type, and a value.
func TestVarDeclaredAgainIsZero(t *testing.T) {
	s, out := newSession(t)
	run(t, s, "var n int\nfunc inc() { n++ }\ninc()\ninc()\nn")
	run(t, s, "var n int\nfunc inc() { n++ }\ninc()\ninc()\nn")
	run(t, s, "import \"github.com/tensornb/tensornb/tensor\"\nvar t *tensor.Tensor = tensor.Float32.Zeros(2)\nt == nil")
	run(t, s, "var t *tensor.Tensor\nt == nil")
	if got := strings.Join(out.results, "|"); got != "2|2|false|true" {
		t.Fatalf("results %s, want 2|2|false|true", got)
	}
}

// What a cell's top level leaves behind is dropped once it ran (the
// sites of its statements, yaegi's files of their positions), but not
// what its functions need: a literal kept in a variable, and a function
// of a later cell that calls it, still name their cells and lines when
// they fail cells later.
func TestDroppedSitesKeepTheFunctionsLines(t *testing.T) {
	ce := runCells(t,
		numbered{1, "s := []int{1}\ng := func(i int) int {\n\treturn s[i]\n}"},
		numbered{2, "x := 1\nx + 1"},
		numbered{3, "y := 2\ny"},
		numbered{4, "func h() int { return g(5) }"},
		numbered{5, "z := 3\nh() + z"})
	checkTraceback(t, ce,
		"panic: runtime error: index out of range",
		"Cell In[1], line 3, in func1: return s[i]",
		"Cell In[4], line 1, in h: func h() int { return g(5) }",
		"cell line 2: h() + z")
}
