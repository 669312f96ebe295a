package rewrite

import (
	"go/ast"
	"go/types"
)

// varType returns the text of the type that a var declaration of a
// definition (see definitions) gives the variable obj, and declarations
// to run before it; "" if there is none. The text is typ as the cell
// writes it, if it does, as rewritten, or else as check.Cell.TypeFor
// writes obj's type, with any where the rewrite writes it (recursive.go).
//
// yaegi v0.16.1 takes every name in a package-level var declaration that
// is a package-level variable's for a variable the declaration's value
// depends on (getVarDependencies, cfg.go): var up func(s string) string
// failed with "variable definition loop" in a session with a variable s,
// and so did var pts []struct{ x, y int } with a variable x. So a written
// type that names the parameters of a function type is written as
// TypeFor writes it, without the names, and a type with the fields of a
// struct or the methods of an interface in it is declared first as an
// alias (type tensornbType_pts = []struct{ x int; y int }), which no var
// declaration walks, and the variable is declared with it.
func (r *rewriter) varType(typ ast.Expr, obj *types.Var, imports map[string]string) (string, []string) {
	t := ""
	if typ != nil && !namesParams(typ) {
		t = r.rewritten(typ)
	} else if t = r.cc.TypeFor(anyForSelf(obj.Type()), imports); t == "" && typ != nil {
		t = r.rewritten(typ)
	}
	if t == "" || !hasMemberNames(obj.Type()) {
		return t, nil
	}
	alias := "tensornbType_" + obj.Name()
	return alias, []string{"type " + alias + " = " + t}
}

// namesParams reports whether typ has a function type that names its
// parameters or results.
func namesParams(typ ast.Expr) bool {
	found := false
	ast.Inspect(typ, func(n ast.Node) bool {
		if ft, ok := n.(*ast.FuncType); ok {
			for _, fl := range []*ast.FieldList{ft.Params, ft.Results} {
				if fl != nil {
					for _, f := range fl.List {
						found = found || len(f.Names) > 0
					}
				}
			}
		}
		return !found
	})
	return found
}

// hasMemberNames reports whether t, written out, names the fields of a
// struct or the methods of an interface: a literal of either, with
// members, in t or its elements, not behind a named type.
func hasMemberNames(t types.Type) bool {
	switch t := t.(type) {
	case *types.Struct:
		return t.NumFields() > 0
	case *types.Interface:
		return t.NumExplicitMethods() > 0 || t.NumEmbeddeds() > 0
	case *types.Pointer:
		return hasMemberNames(t.Elem())
	case *types.Slice:
		return hasMemberNames(t.Elem())
	case *types.Array:
		return hasMemberNames(t.Elem())
	case *types.Map:
		return hasMemberNames(t.Key()) || hasMemberNames(t.Elem())
	case *types.Chan:
		return hasMemberNames(t.Elem())
	case *types.Signature:
		for _, tuple := range []*types.Tuple{t.Params(), t.Results()} {
			for i := 0; i < tuple.Len(); i++ {
				if hasMemberNames(tuple.At(i).Type()) {
					return true
				}
			}
		}
	}
	return false
}

// rewritten is the text of typ, as rewritten.
func (r *rewriter) rewritten(typ ast.Expr) string {
	return r.apply(r.src, r.offset(typ.Pos()), r.offset(typ.End()))
}
