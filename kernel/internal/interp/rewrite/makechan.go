package rewrite

import (
	"go/ast"
	"go/types"
)

// makeDirectional rewrites the make of a channel type of one direction
// (make(chan<- int), make(Recv) of type Recv <-chan int), which yaegi
// v0.16.1 passes to reflect.MakeChan, which panics ("unidirectional
// channel type"), into the conversion of a channel of both directions
// to it: (chan<- int)(make(chan int)). The type and the arguments stay
// as written, with their own edits.
func (r *rewriter) makeDirectional(call *ast.CallExpr) {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok || id.Name != "make" || len(call.Args) == 0 {
		return
	}
	if _, builtin := r.info.Uses[id].(*types.Builtin); !builtin {
		return
	}
	t := r.info.Types[call.Args[0]].Type
	ch, ok := t.Underlying().(*types.Chan)
	if !ok || ch.Dir() == types.SendRecv {
		return
	}
	elem, ok := r.writable(ch.Elem(), call.Pos())
	if !ok {
		r.refuse(call.Pos(), "make of the channel type "+types.TypeString(t, r.qualifier)+", whose element type the cell cannot write")
		return
	}
	typ := call.Args[0]
	r.edits = append(r.edits,
		edit{from: r.offset(call.Fun.Pos()), to: r.offset(typ.Pos()), text: "("},
		edit{from: r.offset(typ.End()), to: r.offset(typ.End()), text: ")(make(chan " + elem},
		edit{from: r.offset(call.End()), to: r.offset(call.End()), text: ")"})
}
