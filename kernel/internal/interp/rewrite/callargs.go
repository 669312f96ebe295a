package rewrite

import (
	"go/ast"
	"go/types"
)

// callArgs puts in parentheses the arguments of call, a call of an
// interpreted function, that are themselves calls of functions and go to
// parameters of an interface type with methods: yaegi v0.16.1 passes the
// result of such a call (not a conversion) as it is, or wraps it for the
// interface once more, wrongly. An interface value comes wrapped twice
// (hh(F()), F returning I, gives hh an I that is none of its dynamic
// types: an assertion fails, a method value is nil), a value of the
// cells' types comes with no methods (a method call through the
// parameter dereferences nil), and one of a compiled type, passed to an
// interpreted function's error, fails ("reflect.Set: value of type
// *struct {} is not assignable to type error"). An argument in
// parentheses is not a call to yaegi: it converts its value to the
// parameter's type as it does a variable's.
//
// A call's results passed as the arguments (f(g())) cannot be put in
// parentheses: yaegi passes them as they are if the first parameter is
// not such an interface, and otherwise wraps them all for it. The call
// is refused where that is wrong: if the first parameter is of an
// interface type with methods, or a later one is and its result is not of
// an interface type.
func (r *rewriter) callArgs(call *ast.CallExpr) {
	if call.Ellipsis.IsValid() || r.compiledCallee(call.Fun) {
		return // a slice passed on; a compiled function's arguments
	}
	fun := r.info.Types[call.Fun]
	if fun.IsType() || fun.IsBuiltin() || fun.Type == nil {
		return
	}
	sig, ok := fun.Type.Underlying().(*types.Signature)
	if !ok {
		return
	}
	if len(call.Args) == 1 {
		if results, ok := r.info.TypeOf(call.Args[0]).(*types.Tuple); ok {
			r.spreadResults(call, sig, results)
			return
		}
	}
	for i, a := range call.Args {
		inner, ok := a.(*ast.CallExpr)
		if !ok || !isMethodInterface(paramType(sig, i, false)) {
			continue
		}
		if tv := r.info.Types[inner.Fun]; tv.IsType() || tv.IsBuiltin() {
			continue // a conversion, which yaegi passes right; a builtin's call
		}
		start, end := r.offset(a.Pos()), r.offset(a.End())
		r.edits = append(r.edits, edit{from: start, to: start, text: "("}, edit{from: end, to: end, text: ")"})
	}
}

// spreadResults refuses call, f(g()), if yaegi passes g's results to f's
// parameters wrongly (see callArgs).
func (r *rewriter) spreadResults(call *ast.CallExpr, sig *types.Signature, results *types.Tuple) {
	for i := 0; i < results.Len(); i++ {
		if !isMethodInterface(paramType(sig, i, false)) {
			continue
		}
		if _, isInterface := results.At(i).Type().Underlying().(*types.Interface); i == 0 || !isInterface {
			r.refuse(call.Args[0].Pos(), "a call's results passed as the arguments of a call (f(g())) to a parameter of an interface type with methods: call it with variables (a, b := g(); f(a, b))")
			return
		}
	}
}

// isMethodInterface reports whether t is an interface type with methods.
func isMethodInterface(t types.Type) bool {
	if t == nil {
		return false
	}
	it, ok := t.Underlying().(*types.Interface)
	return ok && !it.Empty()
}
