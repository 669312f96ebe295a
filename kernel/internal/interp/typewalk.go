package interp

import "go/types"

// What the checker asks of the types of a cell's values: whether yaegi
// can be given one by name (typeFor), and whether one is the cells' own
// (involvesMain). Both look through a type's parts with inspectType.

// inspectType calls visit for t and, while visit returns true, for the
// types t is made of: the elements of pointers, slices, arrays and
// channels, the keys and elements of maps, the types of a struct's
// fields. A named type's parts are its own: they are not looked into.
// Each type is visited once.
func inspectType(t types.Type, visit func(types.Type) bool) {
	seen := map[types.Type]bool{}
	var walk func(types.Type)
	walk = func(t types.Type) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		if !visit(t) {
			return
		}
		switch t := t.(type) {
		case *types.Pointer:
			walk(t.Elem())
		case *types.Slice:
			walk(t.Elem())
		case *types.Array:
			walk(t.Elem())
		case *types.Map:
			walk(t.Key())
			walk(t.Elem())
		case *types.Chan:
			walk(t.Elem())
		case *types.Struct:
			for i := 0; i < t.NumFields(); i++ {
				walk(t.Field(i).Type())
			}
		}
	}
	walk(t)
}

// typeFor writes t as yaegi can read it in the session: its packages by
// the names the session or the cell imports them under, and others added
// to imports. It returns "" for a type that cannot be written: a package
// yaegi lacks, or an unexported type of a compiled package (looked for
// in t and its elements, but not in a struct's fields).
func (c *checker) typeFor(t types.Type, main *types.Package, cellImports, imports map[string]string) string {
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
		if !c.has(p.Path()) {
			ok = false
		}
		imports[p.Path()] = typeAlias(p)
		return typeAlias(p)
	}
	inspectType(t, func(t types.Type) bool {
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
	s := types.TypeString(t, q)
	if !ok {
		return ""
	}
	return s
}

// involvesMain reports whether t is, or is made of, types declared in
// package main, the cells' package.
func involvesMain(t types.Type, main *types.Package) bool {
	found := false
	inspectType(t, func(t types.Type) bool {
		if n, ok := t.(*types.Named); ok && n.Obj().Pkg() == main {
			found = true
		}
		return !found
	})
	return found
}
