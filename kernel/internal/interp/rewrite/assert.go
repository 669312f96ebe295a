package rewrite

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/interp/cell"
)

// yaegi v0.16.1 asserts a value of a type the cells declared to an
// interface type wrongly when it must give the value as the interface
// (x.(I), v, ok := x.(I), a type switch's case I: with its variable): it
// panics, or gives nil. It asserts to a concrete type right, and converts
// a concrete value to an interface right. So such an assertion becomes
// one to each of the cells' types that have I's methods, converted to I,
// and only then, for the other types (the compiled packages'), to I
// itself:
//
//	func(x any) I { if v, ok := x.(myint); ok { return v }; …; return x.(I) }(x)
//
// From an empty interface type to an interface type the cells wrote, the
// value is asserted first as a compiled function returns it
// (assertsHeld): if v, ok := tensornbRuntime.Held(x).(I); ok { return v }.

// assertion rewrites a type assertion to an interface type that a value
// is taken from, alone or with its ok.
func (r *rewriter) assertion(n ast.Node) {
	switch n := n.(type) {
	case *ast.AssignStmt:
		if len(n.Lhs) == 2 && len(n.Rhs) == 1 {
			if ta, ok := ast.Unparen(n.Rhs[0]).(*ast.TypeAssertExpr); ok && ta.Type != nil {
				r.assertTo(ta, true)
			}
		}
	case *ast.ValueSpec:
		if len(n.Names) == 2 && len(n.Values) == 1 {
			if ta, ok := ast.Unparen(n.Values[0]).(*ast.TypeAssertExpr); ok && ta.Type != nil {
				r.assertTo(ta, true)
			}
		}
	}
}

// assertTo rewrites ta, if it asserts to a non-empty interface type that
// some of the cells' types have the methods of; with ok, as the value of
// an assignment of two.
func (r *rewriter) assertTo(ta *ast.TypeAssertExpr, ok bool) {
	text, rewritten := r.asInterface(r.source(ta.X), r.info.TypeOf(ta.X), ta.Type, ok)
	if rewritten {
		r.asserted[ta] = true
		r.late = append(r.late, edit{r.offset(ta.Pos()), r.offset(ta.X.Pos()), text + "(", false},
			edit{r.offset(ta.X.End()), r.offset(ta.End()), ")", false})
	}
}

// asInterface returns the function, to call with the value x of type xt,
// that gives it as the interface type e names (and whether it has it,
// with ok), if e is a non-empty interface type some of the cells' types
// implement.
func (r *rewriter) asInterface(x string, xt types.Type, e ast.Expr, ok bool) (string, bool) {
	it, isIface := r.info.TypeOf(e).Underlying().(*types.Interface)
	if !isIface || it.Empty() || xt == nil {
		return "", false
	}
	impls := r.implementations(r.info.TypeOf(e), it)
	held := r.assertsHeld(xt, r.info.TypeOf(e))
	if len(impls) == 0 && !held {
		return "", false
	}
	iface, from := r.source(e), types.TypeString(xt, r.qualifier)
	var b strings.Builder
	if ok {
		fmt.Fprintf(&b, "func(x %s) (%s, bool) { ", from, iface)
	} else {
		fmt.Fprintf(&b, "func(x %s) %s { ", from, iface)
	}
	if held {
		result := "v"
		if ok {
			result = "v, true"
		}
		fmt.Fprintf(&b, "if v, ok := %s.Held(x).(%s); ok { return %s }; ", cell.RuntimeName, iface, result)
	}
	for _, impl := range impls {
		if ok {
			fmt.Fprintf(&b, "if v, ok := x.(%s); ok { return v, true }; ", impl)
		} else {
			fmt.Fprintf(&b, "if v, ok := x.(%s); ok { return v }; ", impl)
		}
	}
	if ok {
		fmt.Fprintf(&b, "v, ok := x.(%s); return v, ok }", iface)
	} else {
		fmt.Fprintf(&b, "return x.(%s) }", iface)
	}
	return b.String(), true
}

// assertsHeld reports whether a value of type xt asserted to the type t
// is asserted first as a compiled function returns it: if xt is an empty
// interface type, and t an interface type the cells wrote. yaegi v0.16.1
// asserts a value of empty interface type to such a type wrongly when
// the value holds its own record of an interface value, as a value of a
// type the cells declared may be held (reflect.Set: value of type
// interface {} is not assignable to type interp.valueInterface); that a
// compiled function returns (tensornbRuntime.Held) it asserts right, a
// value of a basic type (type myint int) too, which an assertion to
// myint would take for an int.
func (r *rewriter) assertsHeld(xt, t types.Type) bool {
	xi, ok := xt.Underlying().(*types.Interface)
	return ok && xi.Empty() && r.interpretedInterface(t)
}

// implementations returns the cells' types, or pointers to them, that
// implement the interface t, as the cell writes them.
func (r *rewriter) implementations(t types.Type, it *types.Interface) []string {
	var out []string
	scope := r.pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) {
			continue
		}
		if n, ok := tn.Type().(*types.Named); ok && n.TypeParams().Len() > 0 {
			continue
		}
		if _, basic := tn.Type().Underlying().(*types.Basic); basic {
			// yaegi takes an int held in any for a myint, and the other
			// way round; its own assertion to the interface gets these.
			continue
		}
		switch {
		case types.Implements(tn.Type(), it):
			out = append(out, types.TypeString(tn.Type(), r.qualifier))
		case types.Implements(types.NewPointer(tn.Type()), it):
			out = append(out, "*"+types.TypeString(tn.Type(), r.qualifier))
		}
	}
	return out
}

// valueAssertion rewrites an assertion to an interface type whose value
// is used alone (x.(I).M()), once the assignments of two have had theirs.
func (r *rewriter) valueAssertion(ta *ast.TypeAssertExpr) {
	if ta.Type != nil && !r.asserted[ta] {
		r.assertTo(ta, false)
	}
}
