package check

import (
	"go/types"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/interp/cell"
)

// TypeFor writes t as yaegi can read it in the session: its packages by
// the names the session or the cell imports them under, and others added
// to imports, and its function types without the names of their
// parameters and results (see withoutParamNames). It returns "" for a
// type that cannot be written: a package yaegi lacks, or an unexported
// type of a compiled package (looked for in t and its elements, but not
// in a struct's fields).
func (c *Checker) TypeFor(t types.Type, main *types.Package, cellImports, imports map[string]string) string {
	ok := true
	q := func(p *types.Package) string {
		if p == main {
			return ""
		}
		for _, known := range []map[string]string{c.imports, cellImports} {
			if n, found := known[p.Path()]; found {
				if n == "" {
					return p.Name()
				}
				return n
			}
		}
		if alias, found := c.typeImported[p.Path()]; found {
			return alias
		}
		if !c.lib.Has(p.Path()) {
			ok = false
		}
		imports[p.Path()] = cell.TypeAlias(p)
		return cell.TypeAlias(p)
	}
	cell.InspectType(t, func(t types.Type) bool {
		switch t := t.(type) {
		case *types.Named:
			if obj := t.Obj(); obj.Pkg() != nil && obj.Pkg() != main && !obj.Exported() {
				ok = false
			}
		case *types.Struct:
			return false
		}
		return true
	})
	s := types.TypeString(withoutParamNames(t), q)
	if !ok {
		return ""
	}
	// The interpreter has no package unsafe: the runtime has its Pointer.
	return strings.ReplaceAll(s, "unsafe.Pointer", cell.RuntimeName+".UnsafePointer")
}

// withoutParamNames returns t with the parameters and results of its
// function types, those of its interfaces' methods included, unnamed:
// func(string) string for strings.ToUpper's func(s string) string.
// yaegi v0.16.1 takes every name in a package-level var declaration that
// is a package-level variable's for a variable the declaration's value
// depends on (getVarDependencies, cfg.go), so that var up func(s string)
// string failed with "variable definition loop" in a session with a
// variable s. Named types are kept as named; the names of a struct's
// fields and an interface's methods stay.
func withoutParamNames(t types.Type) types.Type {
	switch t := t.(type) {
	case *types.Signature:
		return types.NewSignatureType(nil, nil, nil, unnamedTuple(t.Params()), unnamedTuple(t.Results()), t.Variadic())
	case *types.Pointer:
		return types.NewPointer(withoutParamNames(t.Elem()))
	case *types.Slice:
		return types.NewSlice(withoutParamNames(t.Elem()))
	case *types.Array:
		return types.NewArray(withoutParamNames(t.Elem()), t.Len())
	case *types.Map:
		return types.NewMap(withoutParamNames(t.Key()), withoutParamNames(t.Elem()))
	case *types.Chan:
		return types.NewChan(t.Dir(), withoutParamNames(t.Elem()))
	case *types.Struct:
		fields := make([]*types.Var, t.NumFields())
		tags := make([]string, t.NumFields())
		for i := range fields {
			f := t.Field(i)
			fields[i] = types.NewField(f.Pos(), f.Pkg(), f.Name(), withoutParamNames(f.Type()), f.Embedded())
			tags[i] = t.Tag(i)
		}
		return types.NewStruct(fields, tags)
	case *types.Interface:
		methods := make([]*types.Func, t.NumExplicitMethods())
		for i := range methods {
			m := t.ExplicitMethod(i)
			methods[i] = types.NewFunc(m.Pos(), m.Pkg(), m.Name(), withoutParamNames(m.Type()).(*types.Signature))
		}
		embedded := make([]types.Type, t.NumEmbeddeds())
		for i := range embedded {
			embedded[i] = t.EmbeddedType(i)
		}
		return types.NewInterfaceType(methods, embedded)
	}
	return t // a basic or named type, or an alias
}

// unnamedTuple returns the types of vars, unnamed, their function types
// without names too.
func unnamedTuple(vars *types.Tuple) *types.Tuple {
	out := make([]*types.Var, vars.Len())
	for i := range out {
		v := vars.At(i)
		out[i] = types.NewParam(v.Pos(), v.Pkg(), "", withoutParamNames(v.Type()))
	}
	return types.NewTuple(out...)
}
