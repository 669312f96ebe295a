package rewrite

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strconv"
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
// itself, after a check for nil, which yaegi fails on (a nil
// dereference), where Go gives false, or panics with its
// TypeAssertionError:
//
//	func(x X) I { if x == nil { tensornbRuntime.NilAssertion("main.I") }; if v, ok := x.(myint); ok { return v }; …; return x.(I) }(x)
//
// From an empty interface type to an interface type the cells wrote, the
// value is asserted first as a compiled function returns it
// (assertsHeld): if v, ok := tensornbRuntime.Held(x).(I); ok { return v }.
//
// Otherwise, an assertion to an interface type that none of the cells' types
// implement stays as it is, nil or not: a function like this one fails,
// in the session, on a compiled value that is not of the type.

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
		// x in parentheses: a call's result is passed wrongly (callargs.go).
		r.late = append(r.late, edit{r.offset(ta.Pos()), r.offset(ta.X.Pos()), text + "((", false},
			edit{r.offset(ta.X.End()), r.offset(ta.End()), "))", false})
	}
}

// asInterface returns the function, to call with the value x of type xt,
// that gives it as the interface type e names (and whether it has it,
// with ok), if e is a non-empty interface type some of the cells' types
// implement.
func (r *rewriter) asInterface(x string, xt types.Type, e ast.Expr, ok bool) (string, bool) {
	t := r.info.TypeOf(e)
	it, isIface := t.Underlying().(*types.Interface)
	if !isIface || it.Empty() || xt == nil {
		return "", false
	}
	impls := r.implementations(t, it, xt)
	held := r.assertsHeld(xt, t)
	if len(impls) == 0 && !held {
		return "", false
	}
	iface, from := r.source(e), types.TypeString(xt, r.qualifier)
	var b strings.Builder
	if ok {
		fmt.Fprintf(&b, "func(x %s) (%s, bool) { if x == nil { return nil, false }; ", from, iface)
	} else {
		fmt.Fprintf(&b, "func(x %s) %s { if x == nil { %s.NilAssertion(%s) }; ", from, iface, cell.RuntimeName, strconv.Quote(runtimeName(t)))
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

// runtimeName is the name Go's runtime gives the type t in its messages:
// main.I, error, interface { M() int; main.m() } (the methods of an
// interface written out exported first, each by name, an unexported
// one's qualified by its package).
func runtimeName(t types.Type) string {
	qualifier := func(p *types.Package) string { return p.Name() }
	it, literal := types.Unalias(t).(*types.Interface)
	if !literal {
		return types.TypeString(t, qualifier)
	}
	if it.NumMethods() == 0 {
		return "interface {}"
	}
	methods := make([]*types.Func, it.NumMethods())
	for i := range methods {
		methods[i] = it.Method(i)
	}
	sort.SliceStable(methods, func(i, j int) bool {
		if methods[i].Exported() != methods[j].Exported() {
			return methods[i].Exported()
		}
		return methods[i].Name() < methods[j].Name()
	})
	names := make([]string, len(methods))
	for i, m := range methods {
		name := m.Name()
		if !m.Exported() && m.Pkg() != nil {
			name = m.Pkg().Name() + "." + name
		}
		sig := m.Type().(*types.Signature)
		unnamed := types.NewSignatureType(nil, nil, nil, unnamedVars(sig.Params()), unnamedVars(sig.Results()), sig.Variadic())
		names[i] = name + strings.TrimPrefix(types.TypeString(unnamed, qualifier), "func")
	}
	return "interface { " + strings.Join(names, "; ") + " }"
}

// unnamedVars is the tuple of the types of vars, without their names.
func unnamedVars(vars *types.Tuple) *types.Tuple {
	out := make([]*types.Var, vars.Len())
	for i := range out {
		out[i] = types.NewVar(token.NoPos, nil, "", vars.At(i).Type())
	}
	return types.NewTuple(out...)
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
// implement the interface t, as the cell writes them, and that a value of
// the interface type from can hold (an assertion to another is not Go).
func (r *rewriter) implementations(t types.Type, it *types.Interface, from types.Type) []string {
	fromIface, _ := from.Underlying().(*types.Interface)
	holds := func(t types.Type) bool { return fromIface == nil || types.AssertableTo(fromIface, t) }
	var out []string
	for _, t := range r.sessionTypes().all {
		if _, named := t.(*types.Named); !named {
			continue
		}
		if _, basic := t.Underlying().(*types.Basic); basic {
			// yaegi takes an int held in any for a myint, and the other
			// way round; its own assertion to the interface gets these.
			continue
		}
		switch {
		case types.Implements(t, it) && holds(t):
			out = append(out, types.TypeString(t, r.qualifier))
		case types.Implements(types.NewPointer(t), it) && holds(types.NewPointer(t)):
			out = append(out, "*"+types.TypeString(t, r.qualifier))
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
