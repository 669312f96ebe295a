package rewrite

import (
	"go/ast"
	"go/types"
)

// variadicArgs wraps the variadic arguments of call, a call of a compiled
// function whose variadic parameter is of an interface type with
// methods (errors.Join's ...error), that are of a type the cells
// declare: yaegi v0.16.1 passes them to the compiled function as their
// bare data, without the wrapper that gives compiled code their methods
// (errors.Join(&MyErr{4}) panics: "cannot use *struct { Code int } as
// type error"), as it does for a parameter that is not variadic. A value
// returned as the interface from an interpreted function literal has the
// wrapper: func(v error) error { return v }(&MyErr{4}).
func (r *rewriter) variadicArgs(call *ast.CallExpr) {
	if call.Ellipsis.IsValid() {
		return // a slice passed on, of the interface type already
	}
	sig, ok := r.info.Types[call.Fun].Type.(*types.Signature)
	if !ok || !sig.Variadic() || !r.compiledCallee(call.Fun) {
		return
	}
	elem := sig.Params().At(sig.Params().Len() - 1).Type().(*types.Slice).Elem()
	iface, ok := elem.Underlying().(*types.Interface)
	if !ok || iface.NumMethods() == 0 {
		return
	}
	for _, a := range call.Args[sig.Params().Len()-1:] {
		t := r.info.Types[a].Type
		if _, isInterface := t.Underlying().(*types.Interface); isInterface || !involvesMain(t, r.pkg) {
			continue
		}
		e, ok := r.writable(elem, a.Pos())
		if !ok {
			r.refuse(a.Pos(), "a value of type "+types.TypeString(t, r.qualifier)+" passed as "+types.TypeString(elem, r.qualifier)+", which the cell cannot write")
			return
		}
		start, end := r.offset(a.Pos()), r.offset(a.End())
		r.edits = append(r.edits, edit{from: start, to: start, text: "func(v " + e + ") " + e + " { return v }("}, edit{from: end, to: end, text: ")"})
	}
}

// compiledCallee reports whether fun names a function or method of a
// compiled package.
func (r *rewriter) compiledCallee(fun ast.Expr) bool {
	var id *ast.Ident
	switch f := ast.Unparen(fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		return false
	}
	fn, ok := r.info.Uses[id].(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg() != r.pkg
}
