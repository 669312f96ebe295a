package check

import (
	"go/types"

	"github.com/tensornb/tensornb/kernel/internal/interp/cell"
)

// TypeFor writes t as yaegi can read it in the session: its packages by
// the names the session or the cell imports them under, and others added
// to imports. It returns "" for a type that cannot be written: a package
// yaegi lacks, or an unexported type of a compiled package (looked for
// in t and its elements, but not in a struct's fields).
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
	s := types.TypeString(t, q)
	if !ok {
		return ""
	}
	return s
}
