package rewrite

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// selectAssign rewrites a case of a select that receives into existing
// variables (case v = <-c, case v, ok = <-c) into one that defines
// variables of its own and assigns them as the case's body starts, when
// Go assigns them (a field the rewrite declares as any, its value put
// in): yaegi v0.16.1 panics on such a case with no body
// ("reflect.Select: invalid Dir"), and with a body it leaves v = <-c's v
// as it was. The received ok of a variable of another boolean type than
// bool is converted to it.
func (r *rewriter) selectAssign(cc *ast.CommClause) {
	as, ok := cc.Comm.(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN {
		return
	}
	if r.comms == nil {
		r.comms = map[*ast.AssignStmt]bool{}
	}
	r.comms[as] = true
	var lhs, temps, values []string
	for i, e := range as.Lhs {
		t := r.temp()
		temps = append(temps, t)
		lhs = append(lhs, r.source(e))
		if typ := r.info.TypeOf(e); i == 1 && typ != nil && !types.Identical(typ, types.Typ[types.Bool]) {
			t = fmt.Sprintf("(%s)(%s)", types.TypeString(typ, r.qualifier), t)
		}
		if sel, ok := ast.Unparen(e).(*ast.SelectorExpr); ok {
			if to := r.boxedSelector(sel); to != nil { // a field declared as any (mutual.go)
				r.written[sel] = true
				t = r.boxer(to) + "(" + t + ")"
			}
		}
		values = append(values, t)
	}
	r.edits = append(r.edits, edit{r.offset(as.Pos()), r.offset(as.TokPos) + len(as.Tok.String()), strings.Join(temps, ", ") + " :=", false})
	at := r.offset(cc.Colon) + 1
	r.edits = append(r.edits, edit{at, at, fmt.Sprintf(" %s = %s;", strings.Join(lhs, ", "), strings.Join(values, ", ")), false})
}
