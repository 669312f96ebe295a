package rewrite

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"
)

// namedResults gives a function's named results their zero values as its
// body starts: yaegi v0.16.1 may hand a call's named results the variable
// the call's value is assigned to (got = f(x) starts f's result ret with
// got's value, and ret = append(ret, v) then appends to it).
func (r *rewriter) namedResults(ft *ast.FuncType, body *ast.BlockStmt) {
	if ft.Results == nil || body == nil {
		return
	}
	var zero []string
	for _, f := range ft.Results.List {
		for _, n := range f.Names {
			if n.Name == "_" {
				continue
			}
			if obj := r.info.Defs[n]; obj != nil {
				zero = append(zero, fmt.Sprintf(" %s = *new(%s);", n.Name, types.TypeString(obj.Type(), r.qualifier)))
			}
		}
	}
	if len(zero) > 0 {
		at := r.offset(body.Lbrace) + 1
		r.edits = append(r.edits, edit{at, at, strings.Join(zero, ""), false})
	}
}
