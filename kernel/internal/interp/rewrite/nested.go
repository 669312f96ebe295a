package rewrite

import (
	"fmt"
	"go/ast"
	"go/types"
	"strconv"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/interp/cell"
)

// yaegi v0.16.1 passes a value of the cells' types to a compiled function
// with its methods only where the value itself is the argument: inside a
// slice, a map, an array or a struct, a value of type P is passed without
// P's String method (fmt.Println([]P{…}) printed [{1} {2}], not [P1 P2]),
// and so is one an argument of an interface type without String holds
// (var x any = P{2}; fmt.Println(x) printed {2}); one that an interface
// inside the argument holds ([]any{P{1}}, the elements of a spread a...)
// it passes as the interpreter's own record of it ({0xc0001 {…}}). Such
// an argument fails the cell, with a message, where the call runs
// (cell.Stop; cell.Unrecorded looks through an argument for records): a
// call that never runs, as in an error's branch, does not stop the cell.

// fmtMethods are the methods by which compiled packages (fmt, errors,
// encoding/…) see a value differently from its fields.
var fmtMethods = []string{"String", "Error", "Format", "GoString", "MarshalJSON", "MarshalText"}

// nestedMethods stops, where it runs, or looks through, each argument of
// a call of a compiled function whose values may reach it without their
// methods.
func (r *rewriter) nestedMethods(call *ast.CallExpr) {
	if !r.compiledCallee(call.Fun) {
		return
	}
	sig, _ := r.info.TypeOf(call.Fun).(*types.Signature)
	for i, a := range call.Args {
		t := r.info.TypeOf(a)
		if t == nil || sig == nil {
			continue
		}
		spread := call.Ellipsis.IsValid() && i == len(call.Args)-1
		if !spread {
			name := r.source(call.Fun)
			if held := r.heldWithoutMethods(t); held != nil {
				r.stopIfHolds(a, t, name+" of a value of type "+types.TypeString(t, r.qualifier)+" that holds a "+types.TypeString(held, r.qualifier)+": the interpreter gives compiled code the value without its methods; pass it as a "+types.TypeString(held, r.qualifier)+", or as a fmt.Stringer or an error")
				continue
			}
			if inner := r.methodsInside(t); inner != nil {
				r.stopAt(a, paramType(sig, i, false), name+" of a "+types.TypeString(t, r.qualifier)+": the interpreter gives compiled code the values of type "+types.TypeString(inner, r.qualifier)+" inside it without their methods; pass each on its own")
				continue
			}
		}
		if r.mayHoldRecords(t, !spread) {
			r.lookThrough(a, t)
		}
	}
}

// stopAt replaces the argument a, for a parameter of type param, with a
// call that fails the cell with the message what, if it runs: a
// refusal where the argument is, as the cell runs (a call that never
// runs, as in an error's branch, stands). Where the parameter is not of
// an empty interface type, the cell is refused outright.
func (r *rewriter) stopAt(a ast.Expr, param types.Type, what string) {
	if it, ok := param.Underlying().(*types.Interface); !ok || !it.Empty() {
		r.refuse(a.Pos(), what)
		return
	}
	r.edits = append(r.edits, edit{from: r.offset(a.Pos()), to: r.offset(a.End()), text: cell.RuntimeName + ".Stop(" + strconv.Quote(what) + ")"})
}

// stopIfHolds passes the argument a, of the interface type t, through a
// function that fails the cell with the message what if a holds a value
// of one of the cells' types with fmtMethods.
func (r *rewriter) stopIfHolds(a ast.Expr, t types.Type, what string) {
	text, ok := r.writable(t, a.Pos())
	var cases []string
	for _, c := range r.sessionTypes().withFmt {
		for _, ct := range []types.Type{c, types.NewPointer(c)} {
			if types.AssignableTo(ct, t) {
				ctext, cok := r.writable(ct, a.Pos())
				cases, ok = append(cases, ctext), ok && cok
			}
		}
	}
	if !ok {
		r.refuse(a.Pos(), what)
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "func(v %s) %s { ", text, text)
	for _, c := range cases { // assertions: yaegi's type switch of several types in a case misses
		fmt.Fprintf(&b, "if _, ok := v.(%s); ok { %s.Stop(%s) }; ", c, cell.RuntimeName, strconv.Quote(what))
	}
	fn := b.String() + "return v }("
	from, to := r.offset(a.Pos()), r.offset(a.End())
	r.edits = append(r.edits, edit{from: from, to: from, text: fn}, edit{from: to, to: to, text: ")"})
}

// methodsInside returns a type of the cells' with one of fmtMethods
// inside t, below its top level (and below the pointers at the top), where
// t itself has none of them, or nil.
func (r *rewriter) methodsInside(t types.Type) types.Type {
	for {
		p, ok := t.Underlying().(*types.Pointer)
		if !ok {
			break
		}
		t = p.Elem() // fmt prints a pointer's struct as its own; errors.As writes through one
	}
	if r.hasMethodsFor(t) {
		return nil // the function sees the argument's own methods
	}
	var found types.Type
	r.inside(t.Underlying(), map[types.Type]bool{}, func(e types.Type) bool {
		if r.hasMethodsFor(e) {
			found = e
		}
		return found == nil
	})
	return found
}

// mayHoldRecords reports whether a value of type t may hold a value of a
// cells' type with methods in an interface: t is an empty interface type
// (top: an argument's own, which holds its value as compiled code sees
// it, unless the value is a composite), or an interface type inside t
// is one such a type implements.
func (r *rewriter) mayHoldRecords(t types.Type, top bool) bool {
	if it, ok := t.Underlying().(*types.Interface); ok && top {
		return it.Empty() && r.implementedWithMethods(it) != nil
	}
	found := false
	r.inside(t.Underlying(), map[types.Type]bool{}, func(e types.Type) bool {
		if it, ok := e.Underlying().(*types.Interface); ok && r.implementedWithMethods(it) != nil {
			found = true
		}
		return !found
	})
	return found
}

// lookThrough passes the argument a, of type t, through cell.Unrecorded.
func (r *rewriter) lookThrough(a ast.Expr, t types.Type) {
	after := ")"
	if it, ok := t.Underlying().(*types.Interface); !ok || !it.Empty() {
		text, ok := r.writable(t, a.Pos())
		if !ok {
			r.refuse(a.Pos(), "a value of type "+types.TypeString(t, r.qualifier)+" passed to compiled code, which may hold the interpreter's records of values of the cells' types")
			return
		}
		after = ").(" + text + ")"
	}
	from, to := r.offset(a.Pos()), r.offset(a.End())
	r.edits = append(r.edits, edit{from: from, to: from, text: cell.RuntimeName + ".Unrecorded("}, edit{from: to, to: to, text: after})
}

// inside calls visit with each type that a value of type t holds below
// its top level, through slices, arrays, maps, pointers and structs, and
// the cells' named types' underlying types, until visit returns false.
func (r *rewriter) inside(t types.Type, seen map[types.Type]bool, visit func(types.Type) bool) bool {
	if seen[t] {
		return true
	}
	seen[t] = true
	var elems []types.Type
	switch t := t.(type) {
	case *types.Pointer:
		elems = []types.Type{t.Elem()}
	case *types.Slice:
		elems = []types.Type{t.Elem()}
	case *types.Array:
		elems = []types.Type{t.Elem()}
	case *types.Map:
		elems = []types.Type{t.Key(), t.Elem()}
	case *types.Struct:
		for i := range t.NumFields() {
			elems = append(elems, t.Field(i).Type())
		}
	}
	for _, e := range elems {
		if !visit(e) || !r.inside(e.Underlying(), seen, visit) {
			return false
		}
	}
	return true
}

// heldWithoutMethods returns, for an interface type t without any of
// fmtMethods, a cells' type with one of them that t may hold, whose
// methods yaegi drops when it gives the value to compiled code (var x
// any = P{2}; fmt.Println(x) printed {2}, not P2); or nil.
func (r *rewriter) heldWithoutMethods(t types.Type) types.Type {
	it, ok := t.Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	for _, name := range fmtMethods {
		for i := range it.NumMethods() {
			if it.Method(i).Name() == name {
				return nil
			}
		}
	}
	for _, c := range r.sessionTypes().withFmt {
		if types.Implements(c, it) || types.Implements(types.NewPointer(c), it) {
			return c
		}
	}
	return nil
}

// hasMethodsFor reports whether t, a type of the cells', has one of
// fmtMethods.
func (r *rewriter) hasMethodsFor(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() != r.pkg {
		return false
	}
	for _, mt := range []types.Type{t, types.NewPointer(t)} {
		ms := types.NewMethodSet(mt)
		for _, name := range fmtMethods {
			if ms.Lookup(r.pkg, name) != nil {
				return true
			}
		}
	}
	return false
}

// implementedWithMethods returns one of the session's types that has
// methods and implements it, or nil.
func (r *rewriter) implementedWithMethods(it *types.Interface) types.Type {
	for _, t := range r.sessionTypes().withMethods {
		if types.Implements(t, it) {
			return t
		}
	}
	return nil
}
