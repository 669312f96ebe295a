package rewrite

import (
	"go/ast"
	"go/types"
)

// recursiveType refuses the declaration of a function or channel type
// that names itself (type Bar func() Bar, type Chan chan Chan), which
// yaegi v0.16.1 cannot build: it fails with "reflect.Type is nil" at its
// first use.
func (r *rewriter) recursiveType(spec *ast.TypeSpec) {
	tn, ok := r.info.Defs[spec.Name].(*types.TypeName)
	if !ok {
		return
	}
	named, ok := tn.Type().(*types.Named)
	if !ok {
		return
	}
	switch named.Underlying().(type) {
	case *types.Signature, *types.Chan:
		if mentions(named.Underlying(), named) {
			r.refuse(spec.Pos(), "the type "+spec.Name.Name+", a function or channel type that names itself, which the interpreter cannot build")
		}
	}
}

// mentions reports whether t, read up to the named types in it, holds
// the named type n.
func mentions(t types.Type, n *types.Named) bool {
	switch t := t.(type) {
	case *types.Named:
		return t == n || t.Origin() == n.Origin() && n.TypeArgs().Len() == 0
	case *types.Pointer:
		return mentions(t.Elem(), n)
	case *types.Slice:
		return mentions(t.Elem(), n)
	case *types.Array:
		return mentions(t.Elem(), n)
	case *types.Map:
		return mentions(t.Key(), n) || mentions(t.Elem(), n)
	case *types.Chan:
		return mentions(t.Elem(), n)
	case *types.Signature:
		for _, tuple := range []*types.Tuple{t.Params(), t.Results()} {
			for i := 0; i < tuple.Len(); i++ {
				if mentions(tuple.At(i).Type(), n) {
					return true
				}
			}
		}
	}
	return false
}
