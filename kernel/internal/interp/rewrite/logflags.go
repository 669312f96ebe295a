package rewrite

import (
	"go/ast"
	"go/types"
)

// logFlags refuses n if it is log.Lshortfile or log.Llongfile: a logger
// with either flag writes the file and line of the Go source that called
// it, which cells run in the interpreter do not have (it would write a
// place in the interpreter's own code).
func (r *rewriter) logFlags(n *ast.SelectorExpr) {
	c, ok := r.info.Uses[n.Sel].(*types.Const)
	if !ok || c.Pkg() == nil || c.Pkg().Path() != "log" || (c.Name() != "Lshortfile" && c.Name() != "Llongfile") {
		return
	}
	r.refuse(n.Pos(), "log."+c.Name()+", the file and line of the code that logs, which the interpreter does not know")
}
