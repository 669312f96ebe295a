package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
)

// literalToInterface converts, in an assignment, a composite literal
// assigned to a field, an element or a pointer's target of a non-empty
// interface type the cells wrote (s.it = myIterator{}, m[k] = W{3}) to
// that interface type:
//
//	s.it = It(myIterator{})
//
// yaegi v0.16.1 builds such a literal in the place it is assigned to, as
// if that had the literal's type, and panics (reflect.Set: value of type
// interp.valueInterface is not assignable to type struct {}); a literal
// converted first it assigns right, alone or among several, and alone
// in parentheses (which the rewrite writes if the interface type names a
// compiled package's type, and leaves among several). (A compiled
// interface type, error or fmt.Stringer, takes the literal itself, but
// not the literal converted.)
func (r *rewriter) literalToInterface(n *ast.AssignStmt) {
	if n.Tok != token.ASSIGN || len(n.Lhs) != len(n.Rhs) {
		return
	}
	for i, lhs := range n.Lhs {
		if _, ok := ast.Unparen(lhs).(*ast.Ident); ok {
			continue
		}
		lt := r.info.TypeOf(lhs)
		if _, ok := ast.Unparen(n.Rhs[i]).(*ast.CompositeLit); !ok || !r.interpretedInterface(lt) {
			continue
		}
		conv, ok := r.localTypeText(lt)
		if !ok {
			// It names a compiled package's type, which the cell may not
			// import: a literal alone in parentheses yaegi assigns right.
			if len(n.Lhs) > 1 {
				continue
			}
			conv = ""
		}
		r.edits = append(r.edits, edit{r.offset(n.Rhs[i].Pos()), r.offset(n.Rhs[i].Pos()), conv + "(", false},
			edit{r.offset(n.Rhs[i].End()), r.offset(n.Rhs[i].End()), ")", false})
	}
}

// interpretedInterface reports whether t is a non-empty interface type
// that yaegi interprets: one the cells declared, or an interface type
// written out, not error nor one of a compiled package.
func (r *rewriter) interpretedInterface(t types.Type) bool {
	it, ok := types.Unalias(t).Underlying().(*types.Interface)
	if !ok || it.Empty() {
		return false
	}
	n, named := types.Unalias(t).(*types.Named)
	return !named || n.Obj().Pkg() == r.pkg // error's package is nil
}

// localTypeText returns t as the cells write it, and whether it names no
// types but theirs and the predeclared ones.
func (r *rewriter) localTypeText(t types.Type) (string, bool) {
	local := true
	text := types.TypeString(t, func(p *types.Package) string {
		if p != r.pkg {
			local = false
		}
		return ""
	})
	return text, local
}
