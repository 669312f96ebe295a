package lower

import (
	"go/ast"
	"go/token"
	"go/types"
)

// markKeys marks, in n, a case clause of an expression switch or a map's
// composite literal, the expressions that Go's compiler refuses to see
// twice when they are constants: the clause's cases, the literal's keys.
func (cl *cellLowering) markKeys(fr *from, n ast.Node) {
	switch n := n.(type) {
	case *ast.CaseClause:
		for _, e := range n.List {
			if tv := fr.info.Types[e]; !tv.IsType() {
				cl.keys[e] = true
			}
		}
	case *ast.CompositeLit:
		if _, ok := fr.info.TypeOf(n).Underlying().(*types.Map); !ok {
			return
		}
		for _, e := range n.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				cl.keys[kv.Key] = true
			}
		}
	}
}

// variableConversion returns, for a case or a map key that converts a
// literal to a type parameter (T(0)), an expression of the same value
// that is not a constant: in generic code T(0) is none, and two such
// cases or keys may have one value once instantiated (case int(0),
// T(0), with T int), which the generic code runs (the first case wins,
// the last key's element stays) but concrete code may not hold.
func (cl *cellLowering) variableConversion(fr *from, call *ast.CallExpr, env map[*types.TypeParam]types.Type) (string, bool, error) {
	if !cl.keys[call] || len(call.Args) != 1 || fr.info.Types[call].Value != nil {
		return "", false, nil
	}
	tp, ok := fr.info.TypeOf(call.Fun).(*types.TypeParam)
	if !ok || !fr.info.Types[call.Fun].IsType() {
		return "", false, nil
	}
	lit, ok := literal(call.Args[0])
	if !ok {
		return "", false, nil
	}
	t, err := cl.w.write(subst(tp, env))
	return "[...]" + t + "{" + lit + "}[0]", true, err
}

// literal returns the text of a basic literal, negated or not.
func literal(e ast.Expr) (string, bool) {
	e = ast.Unparen(e)
	sign := ""
	if u, ok := e.(*ast.UnaryExpr); ok && (u.Op == token.SUB || u.Op == token.ADD) {
		sign, e = u.Op.String(), ast.Unparen(u.X)
	}
	if b, ok := e.(*ast.BasicLit); ok {
		return sign + b.Value, true
	}
	return "", false
}
