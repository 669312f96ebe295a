package rewrite

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/tensornb/tensornb/kernel/internal/interp/cell"
)

// Inside a function, the values an index read are gone once it failed,
// so the session cannot give Go's numbers (package interp's goWords). For an index or a
// slice expression whose operands are constants, the rewrite puts a
// guard before the statement (guards) that fails as Go would, message
// and numbers, before the interpreter fails in its words: if 2 >=
// len(s) { tensornbRuntime.Bounds(…, 2, len(s)) }; return s[2]
// (cell.PanicBounds). A guard
// is put only where it cannot fail when Go would not, nor first when Go
// would fail otherwise: the expression runs whenever the statement does
// (not after && or ||, not in a function literal), nothing before it in
// the statement calls, receives or can fail, and what it indexes is read
// again without effect.

// guards returns the guards that go before s, a statement in a function,
// for its index and slice expressions with constant operands; see above.
func (r *rewriter) guards(s ast.Stmt) []string {
	var parts []ast.Expr
	// rhs is where the right-hand side of an assignment starts: Go checks
	// the bounds of an index on the left after evaluating the right.
	rhs := token.NoPos
	switch s := s.(type) {
	case *ast.ExprStmt:
		parts = []ast.Expr{s.X}
	case *ast.IncDecStmt:
		parts = []ast.Expr{s.X}
	case *ast.SendStmt:
		parts = []ast.Expr{s.Chan, s.Value}
	case *ast.ReturnStmt:
		parts = s.Results
	case *ast.AssignStmt:
		parts = append(append(parts, s.Lhs...), s.Rhs...)
		rhs = s.Rhs[0].Pos()
	case *ast.DeclStmt:
		if gd, ok := s.Decl.(*ast.GenDecl); ok {
			for _, spec := range gd.Specs {
				if vs, ok := spec.(*ast.ValueSpec); ok {
					parts = append(parts, vs.Values...)
				}
			}
		}
	case *ast.IfStmt:
		if s.Init == nil {
			parts = []ast.Expr{s.Cond}
		}
	case *ast.SwitchStmt:
		if s.Init == nil && s.Tag != nil {
			parts = []ast.Expr{s.Tag}
		}
	case *ast.RangeStmt:
		parts = []ast.Expr{s.X}
	}
	// The statement's operations that can fail or have effects, and the
	// candidates for a guard, in the order written.
	var events []ast.Node
	var candidates []ast.Expr
	var walk func(n ast.Node, certain bool)
	walk = func(n ast.Node, certain bool) {
		ast.Inspect(n, func(n ast.Node) bool {
			switch e := n.(type) {
			case nil:
				return false
			case *ast.FuncLit:
				return false
			case *ast.BinaryExpr:
				if e.Op == token.LAND || e.Op == token.LOR {
					walk(e.X, certain)
					walk(e.Y, false)
					return false
				}
			case *ast.UnaryExpr:
				if e.Op == token.ARROW {
					events = append(events, e)
				}
			}
			if e, ok := n.(ast.Expr); ok && certain && r.guardable(e) {
				candidates = append(candidates, e)
			}
			if r.nodeMayFail(n, nil) {
				events = append(events, n)
			}
			return true
		})
	}
	for _, p := range parts {
		walk(p, true)
	}
	rhsEvents := false
	for _, ev := range events {
		if rhs.IsValid() && ev.Pos() >= rhs {
			rhsEvents = true
		}
	}
	var out []string
	var guarded []ast.Expr
	for _, c := range candidates {
		if rhs.IsValid() && c.Pos() < rhs && rhsEvents {
			continue
		}
		clear := true
		for _, ev := range events {
			if ev.End() <= c.Pos() && !inside(ev, guarded) {
				clear = false
				break
			}
		}
		if !clear {
			continue
		}
		guarded = append(guarded, c)
		out = append(out, r.guard(c))
	}
	return out
}

// inside reports whether n is one of exprs or inside one.
func inside(n ast.Node, exprs []ast.Expr) bool {
	for _, e := range exprs {
		if e.Pos() <= n.Pos() && n.End() <= e.End() {
			return true
		}
	}
	return false
}

// guardable reports whether e is an index of a slice or string by a
// constant, or a slice expression of one with constant bounds, whose
// operand can be read again without effect.
func (r *rewriter) guardable(e ast.Expr) bool {
	var x ast.Expr
	switch e := e.(type) {
	case *ast.IndexExpr:
		if !r.constant(e.Index) {
			return false
		}
		x = e.X
	case *ast.SliceExpr:
		if e.Low == nil && e.High == nil {
			return false
		}
		for _, b := range []ast.Expr{e.Low, e.High, e.Max} {
			if b != nil && !r.constant(b) {
				return false
			}
		}
		x = e.X
	default:
		return false
	}
	tv, ok := r.info.Types[x]
	if !ok || !tv.IsValue() || tv.Value != nil {
		return false
	}
	switch t := tv.Type.Underlying().(type) {
	case *types.Slice:
	case *types.Basic:
		if t.Info()&types.IsString == 0 {
			return false
		}
	default:
		return false
	}
	return cell.Pure(x, nil)
}

// guard returns the guard of e, which guardable accepts.
func (r *rewriter) guard(e ast.Expr) string {
	value := func(b ast.Expr) string { return r.info.Types[b].Value.ExactString() }
	check := func(bound, limit string, code cell.BoundsCode, x string) string {
		return fmt.Sprintf("if %s > %s(%s) { %s.Bounds(%d, %s, %s(%s)) }; ", bound, limit, x, cell.RuntimeName, code, bound, limit, x)
	}
	var x ast.Expr
	switch e := e.(type) {
	case *ast.IndexExpr:
		x = e.X
		text := r.apply(r.src, r.offset(x.Pos()), r.offset(x.End()))
		i := value(e.Index)
		return fmt.Sprintf("if %s >= len(%s) { %s.Bounds(%d, %s, len(%s)) }; ", i, text, cell.RuntimeName, cell.BoundsIndex, i, text)
	case *ast.SliceExpr:
		x = e.X
		text := r.apply(r.src, r.offset(x.Pos()), r.offset(x.End()))
		_, isString := r.info.TypeOf(x).Underlying().(*types.Basic)
		switch {
		case e.Slice3:
			return check(value(e.Max), "cap", cell.BoundsSlice3Acap, text)
		case e.High != nil && isString:
			return check(value(e.High), "len", cell.BoundsSliceAlen, text)
		case e.High != nil:
			return check(value(e.High), "cap", cell.BoundsSliceAcap, text)
		case e.Low != nil:
			return check(value(e.Low), "len", cell.BoundsSliceB, text)
		}
	}
	return ""
}
