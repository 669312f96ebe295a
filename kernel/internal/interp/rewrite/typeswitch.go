package rewrite

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"
)

// typeSwitch rewrites a type switch that has a case of an interface type
// (error, fmt.Stringer, any), of a struct type written out, or of a type
// the cells declared, which yaegi v0.16.1 matches wrongly: case error:
// never matches, nor case any:, nor the case of a cells' type with
// methods when the value is held in any, and a later case runs instead. The switch becomes one of conditions, in
// the same order, each a type assertion, which yaegi gets right:
//
//	switch v := x.(type) {      switch tensornbN1 := x; {
//	case error:                 case tensornbN1 != nil && (func() bool { _, ok := tensornbN1.(error); return ok }()): v := tensornbN1.(error); _ = v;
//	case int, string:           case …int… || …string…: v := tensornbN1; _ = v;
//
// on the lines they had, so that break still leaves the switch. A switch
// with an init statement is put in a block of its own after it. An empty
// interface's case is x != nil, a nil case x == nil; the case of another
// interface type checks x != nil first (yaegi fails on a nil value), then
// the cells' types that implement it (assert.go).
func (r *rewriter) typeSwitch(sw *ast.TypeSwitchStmt) {
	if !r.needsRewrite(sw) {
		return
	}
	var bound string
	var x ast.Expr
	switch a := sw.Assign.(type) {
	case *ast.AssignStmt:
		bound, x = a.Lhs[0].(*ast.Ident).Name, a.Rhs[0].(*ast.TypeAssertExpr).X
	case *ast.ExprStmt:
		x = a.X.(*ast.TypeAssertExpr).X
	}
	v := r.temp()
	if sw.Init != nil {
		r.edits = append(r.edits, edit{r.offset(sw.Switch), r.offset(sw.Init.Pos()), "{ ", false},
			edit{r.offset(sw.Init.End()), r.offset(sw.Assign.Pos()), "; switch ", false},
			edit{r.offset(sw.End()), r.offset(sw.End()), " }", false})
	}
	r.edits = append(r.edits, edit{r.offset(sw.Assign.Pos()), r.offset(x.Pos()), v + " := ", false},
		edit{r.offset(x.End()), r.offset(sw.Assign.End()), "; ", false})
	for _, st := range sw.Body.List {
		cc := st.(*ast.CaseClause)
		if cc.List == nil {
			if bound != "" {
				r.bind(cc, bound, v)
			}
			continue
		}
		conds := make([]string, len(cc.List))
		for i, e := range cc.List {
			conds[i] = r.isType(v, r.info.TypeOf(x), e)
		}
		r.edits = append(r.edits, edit{r.offset(cc.Case), r.offset(cc.Colon), "case " + strings.Join(conds, " || "), false})
		if bound == "" {
			continue
		}
		if len(cc.List) == 1 && !r.info.Types[cc.List[0]].IsNil() {
			r.bind(cc, bound, r.asType(v, r.info.TypeOf(x), cc.List[0]))
		} else {
			r.bind(cc, bound, v)
		}
	}
}

// needsRewrite reports whether a type switch has a case that yaegi
// matches wrongly: of an interface type, of a struct type written out, or
// of a type the cells declared.
func (r *rewriter) needsRewrite(sw *ast.TypeSwitchStmt) bool {
	for _, st := range sw.Body.List {
		for _, e := range st.(*ast.CaseClause).List {
			t := r.info.TypeOf(e)
			if t == nil || r.info.Types[e].IsNil() {
				continue
			}
			if involvesMain(t, r.pkg) {
				return true // a case of a cells' type with methods never matches a value held in any
			}
			switch t.Underlying().(type) {
			case *types.Interface:
				return true
			case *types.Struct:
				if _, named := types.Unalias(t).(*types.Named); !named {
					return true
				}
			}
		}
	}
	return false
}

// isType returns the condition that the value v, of type vt, holds has
// the type e of a case names.
func (r *rewriter) isType(v string, vt types.Type, e ast.Expr) string {
	if r.info.Types[e].IsNil() {
		return v + " == nil"
	}
	if it, ok := r.info.TypeOf(e).Underlying().(*types.Interface); ok && it.Empty() {
		return v + " != nil"
	}
	has := func(typ string) string { return fmt.Sprintf("func() bool { _, ok := %s.(%s); return ok }()", v, typ) }
	t := r.info.TypeOf(e)
	it, ok := t.Underlying().(*types.Interface)
	if !ok {
		return has(r.source(e))
	}
	// nil first, which yaegi fails on; then the cells' types that
	// implement the interface, which it does not match (assert.go); no
	// value taken, which it fails to give where the value is not of the
	// type.
	var conds []string
	for _, impl := range r.implementations(t, it, vt) {
		conds = append(conds, has(impl))
	}
	conds = append(conds, has(r.source(e)))
	return v + " != nil && (" + strings.Join(conds, " || ") + ")"
}

// asType returns the value v, of type vt, holds as the type e of a case
// names.
func (r *rewriter) asType(v string, vt types.Type, e ast.Expr) string {
	if it, ok := r.info.TypeOf(e).Underlying().(*types.Interface); ok && it.Empty() {
		return "interface{}(" + v + ")"
	}
	if f, ok := r.asInterface(v, vt, e, false); ok {
		return f + "(" + v + ")"
	}
	return v + ".(" + r.source(e) + ")"
}

// bind declares, at the start of a clause, the switch's variable with the
// value the clause gives it.
func (r *rewriter) bind(cc *ast.CaseClause, name, value string) {
	at := r.offset(cc.Colon) + 1
	r.edits = append(r.edits, edit{at, at, fmt.Sprintf(" %s := %s; _ = %s;", name, value, name), false})
}
