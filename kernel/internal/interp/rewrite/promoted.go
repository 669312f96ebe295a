package rewrite

import (
	"go/ast"
	"go/types"
	"strings"
)

// promotedFromInterface writes out the path of embedded fields to a
// method promoted from an embedded interface field (b.m2, with B
// embedding the interface A2, becomes b.A2.m2), called or taken as a
// value: yaegi v0.16.1 calls such a method on the struct and panics
// (invalid interface value); the field's own method it calls right.
func (r *rewriter) promotedFromInterface(sel *ast.SelectorExpr) {
	s, ok := r.info.Selections[sel]
	if !ok || s.Kind() != types.MethodVal || len(s.Index()) < 2 {
		return
	}
	var names []string
	t := s.Recv()
	for _, i := range s.Index()[:len(s.Index())-1] {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok {
			return
		}
		f := st.Field(i)
		names = append(names, f.Name())
		t = f.Type()
	}
	if !types.IsInterface(t) {
		return
	}
	at := r.offset(sel.X.End())
	r.edits = append(r.edits, edit{at, at, "." + strings.Join(names, "."), false})
}
