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
//	func(i fooer, v myint) bool { w, ok := i.(myint); return ok && w == v }(x, myint(5))
//
// with both operands evaluated once, in their order; an operand converted
// to an interface type (fooer(myint(6))) is compared as the value it
// converts. Two interface values
// holding values of the cells' types still compare wrongly: the types
// they hold are not known before the program runs.
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
	it, ct := "interface{}", types.TypeString(concrete, r.qualifier) // an interface type of its own reaches the function as yaegi's record, which fails the assertion
	params, holds := "i "+it+", v "+ct, "i"
	if iface == ty {
		params = "v " + ct + ", i " + it
	}
	result := "ok && w == v"
	if e.Op == token.NEQ {
		result = "!ok || w != v"
	}
	fn := fmt.Sprintf("func(%s) bool { w, ok := %s.(%s); return %s }(", params, holds, ct, result)
	r.late = append(r.late, edit{r.offset(e.Pos()), r.offset(x.Pos()), fn, false},
		edit{r.offset(x.End()), r.offset(y.Pos()), ", ", false},
		edit{r.offset(y.End()), r.offset(e.End()), ")", false})
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
