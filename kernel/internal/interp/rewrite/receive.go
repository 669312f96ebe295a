package rewrite

import (
	"go/ast"
	"go/token"
)

// receiveInPlace puts in parentheses a receive (<-c) that is a result of
// a return statement or the one value of an assignment to one variable
// (x = <-c): yaegi v0.16.1 receives it straight into the result's or the
// variable's slot, which it replaces with the value reflect gives, one it
// cannot set; the return then panics ("reflect.Value.Set using
// unaddressable value"), and so does the next assignment to the
// variable. A receive in parentheses goes to a slot of its own first.
// The assignment of a select's case is rewritten by selectAssign.
func (r *rewriter) receiveInPlace(n ast.Node) {
	var values []ast.Expr
	switch n := n.(type) {
	case *ast.ReturnStmt:
		values = n.Results
	case *ast.AssignStmt:
		if n.Tok == token.ASSIGN && len(n.Lhs) == 1 && len(n.Rhs) == 1 && !r.comms[n] {
			values = n.Rhs
		}
	}
	for _, v := range values {
		if u, ok := v.(*ast.UnaryExpr); ok && u.Op == token.ARROW {
			r.edits = append(r.edits, edit{r.offset(v.Pos()), r.offset(v.Pos()), "(", false},
				edit{r.offset(v.End()), r.offset(v.End()), ")", false})
		}
	}
}
