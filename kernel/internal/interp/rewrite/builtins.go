package rewrite

import (
	"go/ast"
	"go/types"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/interp/cell"
)

// builtinCall lowers a call of a builtin that yaegi v0.16.1 lacks or gets
// wrong, keeping its arguments as they are (with their own edits):
//
//   - clear (Go 1.21), which yaegi lacks ("undefined: clear"), becomes a
//     compiled helper's call, cell.Clear, which clears a map or zeroes a
//     slice's elements with reflect, as the builtin does;
//   - new of a value (Go 1.26: new(42) is a *int to 42), which yaegi took
//     for new of the value's type, zero (new(42) pointed to 0), becomes
//     the call of a function literal that returns a pointer to a copy of
//     its argument, of the type go/types gives the value;
//   - print and println, which yaegi writes to standard output, as fmt's
//     Print and Println write, become cell.WritePrint's, which writes to
//     standard error as Go's runtime does (println(1.5) is 1.5, print(1,
//     2) 12); of a value that is not of a basic type, which Go writes as
//     an address, they are refused;
//   - recover, which in yaegi returns the panic's value as a
//     reflect.Value (a recovered "x" was not a string: r.(string) failed),
//     has its result passed through cell.Recovered, which gives back the
//     value, and for panic(nil) Go 1.21's *runtime.PanicNilError;
//   - len and cap of an array or a pointer to one, which are constants
//     when the expression calls and receives nothing, become their
//     value: yaegi evaluates the expression, and fails on a nil pointer
//     ("reflect: call of reflect.Value.Len on zero Value"), which Go
//     does not dereference (var p *[16]byte; len(p) is 16).
func (r *rewriter) builtinCall(call *ast.CallExpr) {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return
	}
	if _, builtin := r.info.Uses[id].(*types.Builtin); !builtin {
		return
	}
	callee := edit{from: r.offset(call.Fun.Pos()), to: r.offset(call.Lparen) + 1}
	switch id.Name {
	case "clear":
		callee.text = cell.RuntimeName + ".Clear("
	case "new":
		if len(call.Args) != 1 || r.info.Types[call.Args[0]].IsType() {
			return // new(T), which yaegi has
		}
		elem := r.info.Types[call].Type.(*types.Pointer).Elem()
		t, ok := r.writable(elem, call.Pos())
		if !ok {
			r.refuse(call.Pos(), "new of a value of type "+types.TypeString(elem, r.qualifier)+", which the cell cannot write")
			return
		}
		callee.text = "func(v " + t + ") *" + t + " { return &v }("
	case "print", "println":
		for _, a := range call.Args {
			for _, t := range printed(r.info.Types[a].Type) {
				if b, ok := t.Underlying().(*types.Basic); !ok || b.Kind() == types.UnsafePointer || b.Kind() == types.UntypedNil {
					r.refuse(a.Pos(), id.Name+" of a value of type "+types.TypeString(t, r.qualifier)+", which it writes as an address")
					return
				}
			}
		}
		callee.text = cell.RuntimeName + ".Print("
		if id.Name == "println" {
			callee.text = cell.RuntimeName + ".Println("
		}
	case "len", "cap":
		if tv := r.info.Types[call]; tv.Value != nil {
			// The lines the call spans stay, after the parenthesis, where
			// no semicolon goes.
			lines := strings.Repeat("\n", strings.Count(r.source(call), "\n"))
			r.edits = append(r.edits, edit{from: r.offset(call.Pos()), to: r.offset(call.End()), text: "int(" + lines + tv.Value.ExactString() + ")"})
		}
		return
	case "recover":
		if r.deferred(call) {
			return // defer recover(), whose value nothing reads
		}
		callee.text = cell.RuntimeName + ".Recovered(recover("
		end := r.offset(call.End())
		r.edits = append(r.edits, edit{from: end, to: end, text: ")"})
	default:
		return
	}
	r.edits = append(r.edits, callee)
}

// printed returns the types of the values an argument of print gives:
// its own, or those of the results of a call that returns several
// (println(f()) prints each).
func printed(t types.Type) []types.Type {
	tuple, ok := t.(*types.Tuple)
	if !ok {
		return []types.Type{t}
	}
	ts := make([]types.Type, tuple.Len())
	for i := range ts {
		ts[i] = tuple.At(i).Type()
	}
	return ts
}

// deferred reports whether call is the call of a defer or go statement of
// the cell.
func (r *rewriter) deferred(call *ast.CallExpr) bool {
	found := false
	for _, sp := range r.cc.File.Spans {
		for _, n := range sp.Nodes {
			ast.Inspect(n, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.DeferStmt:
					found = found || n.Call == call
				case *ast.GoStmt:
					found = found || n.Call == call
				}
				return !found
			})
		}
	}
	return found
}
