package rewrite

import (
	"go/ast"
	"go/types"

	"github.com/tensornb/tensornb/kernel/internal/interp/cell"
)

// unsafePointer writes the type unsafe.Pointer, where a cell names it, as
// the runtime's UnsafePointer, which is that type: yaegi has no package
// unsafe. A conversion to or from the type, the only way to a pointer
// that is not nil, is refused, so that the cells' values of the type are
// nil, or what compiled code gives them.
func (r *rewriter) unsafePointer(n ast.Node) {
	switch n := n.(type) {
	case *ast.SelectorExpr:
		if id, ok := n.X.(*ast.Ident); ok && n.Sel.Name == "Pointer" && r.info.Types[n].IsType() {
			if pn, ok := r.info.Uses[id].(*types.PkgName); ok && pn.Imported().Path() == "unsafe" {
				r.edits = append(r.edits, edit{r.offset(n.Pos()), r.offset(n.End()), cell.RuntimeName + ".UnsafePointer", false})
			}
		}
	case *ast.CallExpr:
		if len(n.Args) != 1 || !r.info.Types[n.Fun].IsType() || r.info.Types[n.Args[0]].IsNil() {
			return
		}
		if isUnsafePointer(r.info.TypeOf(n.Fun)) || isUnsafePointer(r.info.TypeOf(n.Args[0])) {
			r.refuse(n.Pos(), "a conversion to or from unsafe.Pointer (the instant engine has the type, but no pointers without types)")
		}
	}
}

// isUnsafePointer reports whether t is unsafe.Pointer, or a type of it.
func isUnsafePointer(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.UnsafePointer
}
