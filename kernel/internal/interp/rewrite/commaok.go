package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
)

// commaOk rewrites an assignment of a comma-ok expression (a map's
// index, a receive, a type assertion) whose value is not of an interface
// type to a variable of one, v, ok = m[k], which yaegi v0.16.1 gets
// wrong: it sets v to nil where the value is the zero value (a map
// without the key: v != nil, and its methods, are Go's), and fails where
// there is a value ("reflect.Set: value of type int is not assignable to
// type interp.valueInterface"). The expression becomes a function
// literal's, which defines variables of its own and returns them as the
// interface, as yaegi does right:
//
//	v, ok = func() (Stringer, bool) { tensornbN1, tensornbN2 := m[k]; return tensornbN1, tensornbN2 }()
//
// The values of a var declaration with a type, var v, ok any = m[k], are
// rewritten alike.
func (r *rewriter) commaOk(n ast.Node) {
	var lhs types.Type
	var rhs ast.Expr
	switch n := n.(type) {
	case *ast.AssignStmt:
		if n.Tok != token.ASSIGN || len(n.Lhs) != 2 || len(n.Rhs) != 1 {
			return
		}
		lhs, rhs = r.info.TypeOf(n.Lhs[0]), n.Rhs[0]
	case *ast.ValueSpec:
		if n.Type == nil || len(n.Names) != 2 || len(n.Values) != 1 {
			return
		}
		lhs, rhs = r.info.TypeOf(n.Type), n.Values[0]
	}
	switch e := ast.Unparen(rhs).(type) {
	case *ast.IndexExpr, *ast.TypeAssertExpr:
	case *ast.UnaryExpr:
		if e.Op != token.ARROW {
			return
		}
	default:
		return
	}
	if lhs == nil || !types.IsInterface(lhs) {
		return
	}
	value := r.info.TypeOf(rhs)
	if t, ok := value.(*types.Tuple); ok {
		value = t.At(0).Type()
	}
	if value == nil || types.IsInterface(value) {
		return
	}
	typ, can := r.writable(lhs, rhs.Pos())
	if !can {
		r.refuse(rhs.Pos(), "a comma-ok value of type "+types.TypeString(value, r.qualifier)+" assigned to a variable of type "+types.TypeString(lhs, r.qualifier)+", which the cell cannot write")
		return
	}
	v, ok := r.temp(), r.temp()
	start, end := r.offset(rhs.Pos()), r.offset(rhs.End())
	r.edits = append(r.edits, edit{from: start, to: start, text: "func() (" + typ + ", bool) { " + v + ", " + ok + " := "},
		edit{from: end, to: end, text: "; return " + v + ", " + ok + " }()"})
}
