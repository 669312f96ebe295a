package rewrite

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
)

// compare rewrites the comparison of an interface value with a value of
// a type the cells declared (x == myint(5), with x a fooer holding
// myint(5)), which yaegi v0.16.1 gets wrong: it compares its own record
// of the interface's value, which never equals the other. The comparison
// becomes a type assertion, which yaegi gets right, then a comparison of
// values of the one type:
//
//	func(i interface{}, v myint) bool { if i == nil { return false }; w, ok := i.(myint); return ok && w == v }(x, myint(5))
//
// with both operands evaluated once, in their order (yaegi panics on the
// assertion of a nil interface value, which the check of nil spares it);
// an operand converted to an interface type (fooer(myint(6))) is
// compared as the value it converts. Two interface values holding values
// of the cells' types still compare wrongly: the types they hold are not
// known before the program runs.
func (r *rewriter) compare(e *ast.BinaryExpr) {
	if e.Op != token.EQL && e.Op != token.NEQ {
		return
	}
	x, y := r.unconverted(e.X), r.unconverted(e.Y)
	tx, ty := r.info.TypeOf(x), r.info.TypeOf(y)
	if tx == nil || ty == nil || isUntypedNil(tx) || isUntypedNil(ty) {
		return
	}
	iface, concrete := tx, ty
	if !types.IsInterface(iface) {
		iface, concrete = ty, tx
	}
	if !types.IsInterface(iface) || types.IsInterface(concrete) || !involvesMain(concrete, r.pkg) {
		return
	}
	fn := r.equalityFunc(concrete, iface == tx, e.Op == token.NEQ)
	r.late = append(r.late, edit{r.offset(e.Pos()), r.offset(x.Pos()), fn, false},
		edit{r.offset(x.End()), r.offset(y.Pos()), ", ", false},
		edit{r.offset(y.End()), r.offset(e.End()), ")", false})
}

// equalityFunc returns the start of the call that compares an interface
// value with a value of the type concrete, the interface value first if
// ifaceFirst, for inequality if neq: the function, then the call's
// parenthesis, which the operands and a parenthesis follow.
func (r *rewriter) equalityFunc(concrete types.Type, ifaceFirst, neq bool) string {
	it, ct := "interface{}", types.TypeString(concrete, r.qualifier) // an interface type of its own reaches the function as yaegi's record, which fails the assertion
	params := "v " + ct + ", i " + it
	if ifaceFirst {
		params = "i " + it + ", v " + ct
	}
	result := "ok && w == v"
	if neq {
		result = "!ok || w != v"
	}
	return fmt.Sprintf("func(%s) bool { if i == nil { return %t }; w, ok := i.(%s); return %s }(", params, neq, ct, result)
}

// unconverted returns the value an operand converts to an interface type
// (fooer(myint(6)): myint(6)), whose type is the dynamic type the
// interface value has, or the operand itself.
func (r *rewriter) unconverted(x ast.Expr) ast.Expr {
	call, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || !r.info.Types[call.Fun].IsType() || !types.IsInterface(r.info.TypeOf(call)) {
		return x
	}
	if t := r.info.TypeOf(call.Args[0]); t == nil || types.IsInterface(t) {
		return x
	}
	return call.Args[0]
}
