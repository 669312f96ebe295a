package rewrite

import (
	"go/ast"
	"go/token"
)

// parallelLiterals puts in parentheses each composite literal among the
// values of a definition of several variables (a, b := f(), []int{1}, or
// var a, b = f(), []int{1}): yaegi v0.16.1 loses there the value of a
// call beside a composite literal, and a is empty; a literal in
// parentheses it reads right.
func (r *rewriter) parallelLiterals(values []ast.Expr) {
	if len(values) < 2 {
		return
	}
	for _, v := range values {
		lit := v
		if u, ok := v.(*ast.UnaryExpr); ok && u.Op == token.AND {
			lit = u.X
		}
		if _, ok := lit.(*ast.CompositeLit); ok {
			r.edits = append(r.edits, edit{r.offset(v.Pos()), r.offset(v.Pos()), "(", false},
				edit{r.offset(v.End()), r.offset(v.End()), ")", false})
		}
	}
}

// parallelCalls puts in parentheses each call among the values of an
// assignment of several (j, k = 7, dec(k), or i, e = i-1, e.Next() in a
// for loop's post statement): yaegi v0.16.1 leaves there the variables
// of the values beside a call as they were (j stays 2); a call in
// parentheses it reads right.
func (r *rewriter) parallelCalls(as *ast.AssignStmt) {
	if as.Tok != token.ASSIGN || len(as.Rhs) < 2 {
		return
	}
	for _, v := range as.Rhs {
		if _, ok := v.(*ast.CallExpr); ok {
			r.edits = append(r.edits, edit{r.offset(v.Pos()), r.offset(v.Pos()), "(", false},
				edit{r.offset(v.End()), r.offset(v.End()), ")", false})
		}
	}
}
