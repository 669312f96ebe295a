package rewrite

import (
	"go/ast"
	"go/types"
)

// convertedReceiver rewrites the method of a conversion to an interface
// type (Stringer(v).String(), Stringer(v).String as a value) so that the
// conversion is a function's parameter:
//
//	func(v Stringer) Stringer { return v }(v).String()
//
// yaegi v0.16.1 calls the method of such a conversion on the converted
// value as if it were the interface's record of it, and panics (reflect:
// call of reflect.Value.NumField on int Value); the value passed as an
// argument of the interface type is that record.
func (r *rewriter) convertedReceiver(sel *ast.SelectorExpr) {
	s, ok := r.info.Selections[sel]
	if !ok || s.Kind() != types.MethodVal {
		return
	}
	call, ok := ast.Unparen(sel.X).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || !r.info.Types[call.Fun].IsType() || !types.IsInterface(r.info.TypeOf(call)) {
		return
	}
	if at := r.info.TypeOf(call.Args[0]); at == nil || types.IsInterface(at) {
		return
	}
	iface := r.source(ast.Unparen(call.Fun)) // as the cell names it: yaegi fails on a type in parentheses
	r.edits = append(r.edits, edit{r.offset(call.Fun.Pos()), r.offset(call.Lparen) + 1, "func(v " + iface + ") " + iface + " { return v }(", false})
}
