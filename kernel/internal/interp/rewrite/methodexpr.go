package rewrite

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"
)

// methodExpr lowers n if it is a method expression, T.M or (*T).M, to a
// function literal that calls the method on its first argument. yaegi
// v0.16.1 gets method expressions wrong, of compiled types and the
// cells' alike: (*strings.Reader).Len(r) panics "Method index out of
// range", time.Duration.String(d) "Call with too many input arguments",
// and f := P.Get "value of type func() int is not assignable".
func (r *rewriter) methodExpr(n *ast.SelectorExpr) {
	sel, ok := r.info.Selections[n]
	if !ok || sel.Kind() != types.MethodExpr {
		return
	}
	sig := sel.Type().(*types.Signature) // the receiver first
	write := func(t types.Type) string {
		s, _ := r.writable(t, n.Pos())
		return s
	}
	var params, args []string
	for i := 0; i < sig.Params().Len(); i++ {
		t := sig.Params().At(i).Type()
		name := fmt.Sprintf("tensornbA%d", i)
		variadic := sig.Variadic() && i == sig.Params().Len()-1
		if variadic {
			t = t.(*types.Slice).Elem()
		}
		text := write(t)
		if text == "" {
			r.refuse(n.Pos(), "the method expression "+types.ExprString(n)+", whose types the cell cannot write")
			return
		}
		if variadic {
			text, name = "..."+text, name+"..."
			params = append(params, strings.TrimSuffix(name, "...")+" "+text)
		} else {
			params = append(params, name+" "+text)
		}
		if i > 0 {
			args = append(args, name)
		}
	}
	var results []string
	for i := 0; i < sig.Results().Len(); i++ {
		text := write(sig.Results().At(i).Type())
		if text == "" {
			r.refuse(n.Pos(), "the method expression "+types.ExprString(n)+", whose types the cell cannot write")
			return
		}
		results = append(results, text)
	}
	call := fmt.Sprintf("tensornbA0.%s(%s)", n.Sel.Name, strings.Join(args, ", "))
	if self := selfResult(sel.Obj().Type().(*types.Signature)); self != nil {
		// The method returns any for a type that names itself (recursive.go).
		typ := types.TypeString(self, r.qualifier)
		call = "func(v any) " + typ + " { return v.(" + typ + ") }(" + call + ")"
	}
	if len(results) > 0 {
		call = "return " + call
	}
	text := fmt.Sprintf("func(%s) (%s) { %s }", strings.Join(params, ", "), strings.Join(results, ", "), call)
	r.edits = append(r.edits, edit{r.offset(n.Pos()), r.offset(n.End()), text, false})
}
