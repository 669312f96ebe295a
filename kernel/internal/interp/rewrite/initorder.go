package rewrite

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/tensornb/tensornb/kernel/internal/interp/cell"
)

// initIndex returns the place of each package-level variable of the
// checked file in the order Go initializes them (types.Info.InitOrder):
// a variable whose value uses another, directly or through the functions
// it calls, comes after that one.
func (r *rewriter) initIndex() map[*types.Var]int {
	if r.initAt == nil {
		r.initAt = map[*types.Var]int{}
		for i, in := range r.info.InitOrder {
			for _, v := range in.Lhs {
				r.initAt[v] = i
			}
		}
	}
	return r.initAt
}

// specInit returns the place of a var spec's values in Go's
// initialization order, -1 if it has none.
func (r *rewriter) specInit(vs *ast.ValueSpec) int {
	at := -1
	for _, id := range vs.Names {
		if v, ok := r.info.Defs[id].(*types.Var); ok {
			if i, ok := r.initIndex()[v]; ok && (at < 0 || i < at) {
				at = i
			}
		}
	}
	return at
}

// initSorted returns the specs of a var declaration in the order Go
// gives them their values.
func (r *rewriter) initSorted(specs []ast.Spec) []ast.Spec {
	sorted := slices.Clone(specs)
	slices.SortStableFunc(sorted, func(a, b ast.Spec) int {
		return r.specInit(a.(*ast.ValueSpec)) - r.specInit(b.(*ast.ValueSpec))
	})
	return sorted
}

// unitInit returns the place of a var declaration unit's values in Go's
// initialization order: its first spec's, as initSorted orders them.
func (r *rewriter) unitInit(nodes []ast.Node) int {
	at := -1
	for _, n := range nodes {
		if gd, ok := n.(*ast.GenDecl); ok {
			for _, spec := range gd.Specs {
				if vs, ok := spec.(*ast.ValueSpec); ok {
					if i := r.specInit(vs); i >= 0 && (at < 0 || i < at) {
						at = i
					}
				}
			}
		}
	}
	return at
}

// initOrdered gives the values of the cell's var declarations in Go's
// initialization order, those of the declarations a lowering added
// (another package's, initialized before the cell's) first. The steps
// that give them take the places the
// cell's var declarations had among its statements, which keep theirs:
// only the declarations change places among themselves, and a cell of
// declarations alone, a program, initializes its variables as the
// program does (var c = d + 1 before var d = f() gives d first).
func initOrdered(steps []cell.Step) []cell.Step {
	var slots []int
	var values []cell.Step
	for i, st := range steps {
		if st.Kind == cell.DeclStep && st.Texts != nil {
			slots = append(slots, i)
			values = append(values, st)
		}
	}
	slices.SortStableFunc(values, func(a, b cell.Step) int { return a.InitOrder - b.InitOrder })
	for k, i := range slots {
		steps[i] = values[k]
	}
	return steps
}
