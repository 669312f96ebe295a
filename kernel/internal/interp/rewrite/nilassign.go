package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
)

// nilAssign gives each untyped nil of an assignment of several values
// (line, s = s, nil) the type of what it is assigned to: yaegi v0.16.1
// panics on it ("reflect: New(nil)").
func (r *rewriter) nilAssign(as *ast.AssignStmt) {
	if as.Tok != token.ASSIGN || len(as.Lhs) < 2 || len(as.Lhs) != len(as.Rhs) {
		return
	}
	for i, rhs := range as.Rhs {
		if tv, ok := r.info.Types[rhs]; !ok || !tv.IsNil() {
			continue
		}
		t := r.info.TypeOf(as.Lhs[i])
		if t == nil || isUntypedNil(t) {
			continue // _ = nil is not Go
		}
		typ := types.TypeString(t, r.qualifier)
		r.edits = append(r.edits, edit{r.offset(rhs.Pos()), r.offset(rhs.End()), "(" + typ + ")(nil)", false})
	}
}

// isUntypedNil reports whether t is the type of an untyped nil.
func isUntypedNil(t types.Type) bool {
	b, ok := t.(*types.Basic)
	return ok && b.Kind() == types.UntypedNil
}
