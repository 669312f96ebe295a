package check

import (
	"fmt"
	"go/importer"
	"go/token"
	"slices"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/kernel/internal/interp/cell"
)

// nothingCompiled is a Library with no package compiled in.
type nothingCompiled struct{}

func (nothingCompiled) Has(string) bool                 { return false }
func (nothingCompiled) HasSymbol(string, string) bool   { return false }
func (nothingCompiled) Elsewhere(string) bool           { return false }
func (nothingCompiled) Refuse(line int, p string) error { return fmt.Errorf("line %d: %s", line, p) }
func (nothingCompiled) Named(string) string             { return "" }

// noSteps is a lowering that runs nothing.
func noSteps(*Cell) ([]cell.Step, error) { return nil, nil }

// A cell is checked with the session's declarations it needs, not with
// all of them: before, every cell parsed and type-checked every name the
// session ever declared, and a long session's cells took longer and
// longer. Here a cell that uses f7 and v3 of 200 names is checked with
// f7, the v7 it reads, and v3 (the cell after a change is checked with
// what uses the names changed as well: here the cell "0").
func TestCellIsCheckedWithTheDeclarationsItNeeds(t *testing.T) {
	c := New(token.NewFileSet(), importer.Default(), nothingCompiled{})
	for i := range 100 {
		c.Commit(cell.Step{Decls: []cell.Decl{
			{Name: fmt.Sprintf("v%d", i), Src: fmt.Sprintf("var v%d int", i)},
			{Name: fmt.Sprintf("f%d", i), Src: fmt.Sprintf("func f%d() int { return v%d }", i, i)},
		}})
	}
	if _, _, err := c.Check("0", noSteps); err != nil {
		t.Fatal(err)
	}
	cc, err := c.read("f7() + v3")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, sp := range cc.File.SessionSpans {
		names = append(names, sp.Name)
	}
	slices.Sort(names)
	if got := strings.Join(names, " "); got != "f7 v3 v7" {
		t.Fatalf("the cell is checked with the session's %s, want f7 v3 v7", got)
	}
}
