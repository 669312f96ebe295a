package rewrite

import (
	"go/ast"
	"go/types"
	"strings"
)

// funcResults converts, in the return statements of a function of
// type ft (sig, as checked) and body body, a function value returned as a result of
// a function type the cells wrote (return assert, with func assert()
// declared; return f, with f := assert) to that type:
//
//	return (func())(assert)      return F(assert), with type F func()
//
// yaegi v0.16.1 returns such a value as its own record of the function,
// and panics (reflect.Set: value of type *interp.node is not assignable
// to type func()); converted, it returns the function. A call, a
// function literal and nil are returned as they are.
func (r *rewriter) funcResults(ft *ast.FuncType, sig *types.Signature, body *ast.BlockStmt) {
	if sig == nil || body == nil || !r.anyInterpretedFunc(sig.Results()) {
		return
	}
	var written []ast.Expr // the results' types, as the function writes them
	for _, f := range ft.Results.List {
		for range max(1, len(f.Names)) {
			written = append(written, f.Type)
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // its own returns, with its own results
		case *ast.ReturnStmt:
			if len(n.Results) != sig.Results().Len() {
				return true // return f(), of several results, or a bare return
			}
			for i, e := range n.Results {
				t := sig.Results().At(i).Type()
				if !r.interpretedFunc(t) || !convertible(r.info, e) {
					continue
				}
				conv := r.source(ast.Unparen(written[i]))
				if strings.HasPrefix(conv, "func") {
					conv = "(" + conv + ")" // a named type in parentheses crashes yaegi
				}
				r.edits = append(r.edits, edit{r.offset(e.Pos()), r.offset(e.Pos()), conv + "(", false},
					edit{r.offset(e.End()), r.offset(e.End()), ")", false})
			}
		}
		return true
	})
}

// anyInterpretedFunc reports whether one of the results is of a function
// type yaegi interprets.
func (r *rewriter) anyInterpretedFunc(results *types.Tuple) bool {
	for i := range results.Len() {
		if r.interpretedFunc(results.At(i).Type()) {
			return true
		}
	}
	return false
}

// interpretedFunc reports whether t is a function type yaegi interprets:
// one written out, or one the cells declared, not one of a compiled
// package.
func (r *rewriter) interpretedFunc(t types.Type) bool {
	if _, ok := t.Underlying().(*types.Signature); !ok {
		return false
	}
	n, named := types.Unalias(t).(*types.Named)
	return !named || n.Obj().Pkg() == r.pkg
}

// convertible reports whether e, a returned function value, is one that
// yaegi may return as its record of a function: not a call, a function
// literal or nil.
func convertible(info *types.Info, e ast.Expr) bool {
	switch ast.Unparen(e).(type) {
	case *ast.CallExpr, *ast.FuncLit:
		return false
	}
	return !info.Types[e].IsNil()
}
