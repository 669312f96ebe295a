package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
)

// exprSwitch rewrites a switch whose tag is of an interface type and a
// case's value of another, or the other way round (switch i { case t: },
// with i an any and t an int; switch i { case 1: }), into a switch of
// conditions that compare the tag, evaluated once, with each value in
// turn, as Go does:
//
//	switch f() {     switch tensornbN1 := f(); {
//	case t, 2:       case tensornbN1 == t || tensornbN1 == 2:
//
// yaegi v0.16.1 converts the tag to the case's type, or the case's value
// to the tag's, and panics (reflect.Value.Convert: value of type
// interface {} cannot be converted to type int); a comparison it makes
// right, or, of an interface value with a value of a type the cells
// declared, as compare.go rewrites it. A tag that is a literal, or a
// name that no case's value may change, is compared as it is; a switch
// with an init statement and another tag goes in a block of its own,
// after the init statement.
func (r *rewriter) exprSwitch(sw *ast.SwitchStmt) {
	if sw.Tag == nil || !r.mixesInterfaces(sw) {
		return
	}
	tag, tt := r.source(sw.Tag), r.info.TypeOf(sw.Tag)
	if readAsIs(sw) {
		r.edits = append(r.edits, edit{r.offset(sw.Tag.Pos()), r.offset(sw.Tag.End()), "", false})
	} else {
		tag = r.temp()
		if sw.Init != nil {
			r.edits = append(r.edits, edit{r.offset(sw.Switch), r.offset(sw.Init.Pos()), "{ ", false},
				edit{r.offset(sw.Init.End()), r.offset(sw.Tag.Pos()), "; switch " + tag + " := ", false},
				edit{r.offset(sw.End()), r.offset(sw.End()), " }", false})
		} else {
			r.edits = append(r.edits, edit{r.offset(sw.Switch), r.offset(sw.Tag.Pos()), "switch " + tag + " := ", false})
		}
		r.edits = append(r.edits, edit{r.offset(sw.Tag.End()), r.offset(sw.Tag.End()), ";", false})
	}
	for _, st := range sw.Body.List {
		cc := st.(*ast.CaseClause)
		from, text := r.offset(cc.Case), "case "
		for _, e := range cc.List {
			start, end := r.equalTo(tag, tt, e)
			r.edits = append(r.edits, edit{from, r.offset(e.Pos()), text + start, false})
			from, text = r.offset(e.End()), end+" || "
		}
		if len(cc.List) > 0 {
			r.edits = append(r.edits, edit{from, r.offset(cc.Colon), text[:len(text)-len(" || ")], false})
		}
	}
}

// readAsIs reports whether the tag of sw reads, at each case, what it
// read before the first: it is a literal, or a name and no case's value
// calls a function or receives.
func readAsIs(sw *ast.SwitchStmt) bool {
	switch ast.Unparen(sw.Tag).(type) {
	case *ast.BasicLit:
		return true
	case *ast.Ident:
	default:
		return false
	}
	still := true
	for _, st := range sw.Body.List {
		for _, e := range st.(*ast.CaseClause).List {
			ast.Inspect(e, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.CallExpr:
					still = false
				case *ast.UnaryExpr:
					still = still && n.Op != token.ARROW
				}
				return still
			})
		}
	}
	return still
}

// mixesInterfaces reports whether a case of sw has a value of an
// interface type and the tag not, or the other way round.
func (r *rewriter) mixesInterfaces(sw *ast.SwitchStmt) bool {
	tagIface := types.IsInterface(r.info.TypeOf(sw.Tag))
	for _, st := range sw.Body.List {
		for _, e := range st.(*ast.CaseClause).List {
			if t := r.info.TypeOf(e); t != nil && !r.info.Types[e].IsNil() && types.IsInterface(t) != tagIface {
				return true
			}
		}
	}
	return false
}

// equalTo returns the text before and after the case's value e in the
// condition that tag, of type tt, equals it. e goes in parentheses only
// if it needs them: yaegi fails on a constant in parentheses compared
// with an interface value among others (i == (1) || i == ("one")).
func (r *rewriter) equalTo(tag string, tt types.Type, e ast.Expr) (string, string) {
	et := r.info.TypeOf(e)
	switch {
	case types.IsInterface(tt) && !types.IsInterface(et):
		if involvesMain(et, r.pkg) {
			return r.equalityFunc(et, true, false) + tag + ", ", ")"
		}
	case !types.IsInterface(tt) && types.IsInterface(et):
		if involvesMain(tt, r.pkg) {
			return r.equalityFunc(tt, false, false) + tag + ", ", ")"
		}
	}
	if b, ok := e.(*ast.BinaryExpr); ok && b.Op.Precedence() <= token.EQL.Precedence() {
		return tag + " == (", ")"
	}
	return tag + " == ", ""
}
