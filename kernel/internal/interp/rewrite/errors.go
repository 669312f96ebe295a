package rewrite

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/interp/cell"
)

// errors.As is lowered to interpreted code: yaegi v0.16.1 passes a
// pointer to a variable of a type the cells declare to the compiled
// function as bare data, whose type has none of the type's methods
// (errors.As panics: "*target must be interface or implement error"),
// and a value of such a type reaches compiled code, as an error, in a
// wrapper with its Error method alone, so that compiled code sees no
// Unwrap or As method of the cells' types. In interpreted code a type
// assertion to a concrete type sees through the wrapper, and an assertion
// to an interface does not. So the lowered call walks the error's tree
// as errors.As's documentation says: depth first, each error matched
// against the target's type by a type assertion, then asked by its As
// method, then unwrapped; the methods of compiled errors are called by
// compiled helpers (cell.UnwrapError, cell.AsMethod), those of the cells'
// types through an assertion to each type that has one. A target whose
// type is an interface the cells declare or write is refused: neither
// kind of assertion can match it.

// errorsAs lowers call if it is a call of errors.As with a target of a
// pointer type: the callee becomes a function literal that takes the
// same arguments.
func (r *rewriter) errorsAs(call *ast.CallExpr) {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || len(call.Args) != 2 {
		return
	}
	fn, ok := r.info.Uses[sel.Sel].(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "errors" || fn.Name() != "As" {
		return
	}
	ptr, ok := r.info.Types[call.Args[1]].Type.Underlying().(*types.Pointer)
	if !ok {
		return // a target of type any: the compiled errors.As, as written
	}
	elem := ptr.Elem()
	typ, ok := r.writable(elem, call.Pos())
	if !ok {
		if !involvesMain(elem, r.pkg) {
			return // a type no cell can write: the compiled errors.As
		}
		r.refuse(call.Pos(), "errors.As with a target of type *"+types.TypeString(elem, r.qualifier)+", which the cell cannot write")
		return
	}
	errorType := types.Universe.Lookup("error").Type()
	iface, isInterface := elem.Underlying().(*types.Interface)
	if isInterface && !types.Identical(elem, errorType) && !r.compiled(elem) {
		r.refuse(call.Pos(), "errors.As with a target of type *"+typ+", an interface the cells declare (the interpreter cannot match an error against it)")
		return
	}
	errTypes := r.errorTypes()
	if what := structErrors(elem, errTypes, r.pkg); what != "" {
		r.refuse(call.Pos(), "errors.As while "+what+", which the interpreter cannot find in an error (it can a pointer to a struct: give the methods pointer receivers)")
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, `func(err error, target *%s) bool { if err == nil { return false }; if target == nil { panic("errors: target must be a non-nil pointer") }; `, typ)
	if !isInterface && !types.Implements(elem, errorType.Underlying().(*types.Interface)) {
		b.WriteString(`panic("errors: *target must be interface or implement error"); `)
	}
	b.WriteString("stack := []error{err}; for len(stack) > 0 { err := stack[len(stack)-1]; stack = stack[:len(stack)-1]; for err != nil { ")
	fmt.Fprintf(&b, "if v, ok := err.(%s); ok { *target = v; return true }; ", typ)
	if isInterface {
		// A wrapped value of the cells' types has the Error method
		// alone: those that implement the interface are asserted to.
		for _, t := range errTypes {
			if types.Implements(t.typ, iface) {
				fmt.Fprintf(&b, "if v, ok := err.(%s); ok { *target = v; return true }; ", t.name)
			}
		}
	}
	fmt.Fprintf(&b, "if %s.AsMethod(err, target) { return true }; next, all, many := %s.UnwrapError(err); ", cell.RuntimeName, cell.RuntimeName)
	for _, t := range errTypes {
		b.WriteString(t.methodCalls())
	}
	b.WriteString("if many { for i := len(all) - 1; i >= 0; i-- { stack = append(stack, all[i]) }; break }; err = next } }; return false }(")
	r.edits = append(r.edits, edit{r.offset(call.Fun.Pos()), r.offset(call.Lparen) + 1, b.String(), false})
}

// structErrors names what errors.As with a target of type *elem cannot
// match, if anything: yaegi v0.16.1's assertion of an error to a struct
// type the cells declare (not a pointer to one) fails, so elem cannot be
// one, nor can the chain pass through one that has an Unwrap or As
// method.
func structErrors(elem types.Type, errTypes []errorType, main *types.Package) string {
	if isMainStruct(elem, main) {
		return "the target's type is *" + types.TypeString(elem, types.RelativeTo(main)) + ", a struct type the cells declare"
	}
	for _, t := range errTypes {
		if isMainStruct(t.typ, main) && (t.unwrap || t.unwrapAll || t.asFn) {
			return "the cells declare " + t.name + ", a struct type with an Unwrap or As method"
		}
	}
	return ""
}

// isMainStruct reports whether t is a named struct type of package main,
// the cells'.
func isMainStruct(t types.Type, main *types.Package) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() != main {
		return false
	}
	_, isStruct := n.Underlying().(*types.Struct)
	return isStruct
}

// compiled reports whether t is a named type of a compiled package.
func (r *rewriter) compiled(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg() != r.pkg
}

// An errorType is a type the cells declare, or a pointer to one, that
// implements error: its name as the cell writes it, and which of the
// methods errors.As calls it has.
type errorType struct {
	typ                     types.Type
	name                    string
	unwrap, unwrapAll, asFn bool
}

// methodCalls returns the code that calls t's As and Unwrap methods on
// err, if err is a t.
func (t errorType) methodCalls() string {
	if !t.unwrap && !t.unwrapAll && !t.asFn {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "if x, ok := err.(%s); ok { ", t.name)
	if t.asFn {
		b.WriteString("if x.As(target) { return true }; ")
	}
	switch {
	case t.unwrap:
		b.WriteString("next = x.Unwrap(); ")
	case t.unwrapAll:
		// Two assignments: yaegi v0.16.1 leaves many as it was in
		// all, many = x.Unwrap(), true.
		b.WriteString("all = x.Unwrap(); many = true; ")
	}
	b.WriteString("}; ")
	return b.String()
}

// errorTypes returns the types the cells declare, and pointers to them,
// that implement error, in the order of their names: those of the
// session the checked file has, which are all those with an Unwrap or As
// method (check.Checker includes them for a cell that names As).
func (r *rewriter) errorTypes() []errorType {
	errorIface := types.Universe.Lookup("error").Type().Underlying().(*types.Interface)
	errorT := types.Universe.Lookup("error").Type()
	empty := types.NewInterfaceType(nil, nil)
	var out []errorType
	for _, name := range r.pkg.Scope().Names() {
		tn, ok := r.pkg.Scope().Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		if _, isInterface := tn.Type().Underlying().(*types.Interface); isInterface {
			continue
		}
		for _, t := range []types.Type{tn.Type(), types.NewPointer(tn.Type())} {
			if !types.Implements(t, errorIface) {
				continue
			}
			ms := types.NewMethodSet(t)
			has := func(name string, params []types.Type, result types.Type) bool {
				sel := ms.Lookup(r.pkg, name)
				if sel == nil {
					return false
				}
				sig := sel.Type().(*types.Signature)
				if sig.Params().Len() != len(params) || sig.Results().Len() != 1 || !types.Identical(sig.Results().At(0).Type(), result) {
					return false
				}
				for i, p := range params {
					if !types.Identical(sig.Params().At(i).Type(), p) {
						return false
					}
				}
				return true
			}
			out = append(out, errorType{typ: t, name: types.TypeString(t, r.qualifier),
				unwrap:    has("Unwrap", nil, errorT),
				unwrapAll: has("Unwrap", nil, types.NewSlice(errorT)),
				asFn:      has("As", []types.Type{empty}, types.Typ[types.Bool])})
		}
	}
	return out
}
