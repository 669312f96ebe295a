package check

import (
	"fmt"
	"go/importer"
	"go/token"
	"maps"
	"slices"
	"testing"

	"github.com/tensornb/tensornb/kernel/internal/interp/cell"
)

// chain is a session of n functions, each calling the next, and a
// variable whose value calls the first.
func chain(n int) *Checker {
	c := New(token.NewFileSet(), importer.Default(), nothingCompiled{})
	for i := range n {
		c.Commit(cell.Step{Decls: []cell.Decl{{Name: fmt.Sprintf("f%d", i), Src: fmt.Sprintf("func f%d() int { return f%d() + v }", i, i+1)}}})
	}
	c.Commit(cell.Step{Decls: []cell.Decl{{Name: "v", Src: "var v = 1"}}})
	return c
}

// Reaches follows calls through the session's functions, and sees a
// function declared again with other uses, however often it read the
// old one.
func TestReachesSeesARedeclaredFunction(t *testing.T) {
	c := chain(3)
	want := map[string]bool{"f0": true, "f1": true, "f2": true, "v": true}
	for range 2 {
		if got := c.Reaches("_ = f0()"); !maps.Equal(got, want) {
			t.Fatalf("f0() reaches %v, want %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
		}
	}
	c.Commit(cell.Step{Decls: []cell.Decl{{Name: "f1", Src: "func f1() int { return 1 }"}}})
	want = map[string]bool{"f0": true, "f1": true, "v": true}
	if got := c.Reaches("_ = f0()"); !maps.Equal(got, want) {
		t.Fatalf("after f1 was declared again, f0() reaches %v, want %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
	}
	c.Reset()
	if got := c.Reaches("_ = f0()"); len(got) != 0 {
		t.Fatalf("after a reset, f0() reaches %v", got)
	}
}

// BenchmarkReaches asks what a value reaches through 50 functions, as a
// program of GoNB's kind asks for each variable in every cell.
func BenchmarkReaches(b *testing.B) {
	c := chain(50)
	for b.Loop() {
		c.Reaches("_ = f0()")
	}
}
