package interp

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
)

// Inside a function, the values an index read are gone once it failed,
// so goWords cannot give Go's numbers (runtimeerr.go). For an index or a
// slice expression whose operands are constants, the rewrite puts a
// guard before the statement (guards) that fails as Go would, message
// and numbers, before the interpreter fails in its words: if 2 >=
// len(s) { tensornbRuntime.Bounds(…, 2, len(s)) }; return s[2]. A guard
// is put only where it cannot fail when Go would not, nor first when Go
// would fail otherwise: the expression runs whenever the statement does
// (not after && or ||, not in a function literal), nothing before it in
// the statement calls, receives or can fail, and what it indexes is read
// again without effect.

// A boundsError is a failed guard's panic: Go's message for the bounds,
// a runtime.Error as Go's own is.
type boundsError string

// Error is the message, as Go's runtime writes it.
func (e boundsError) Error() string { return "runtime error: " + string(e) }

// RuntimeError marks a boundsError as a runtime.Error.
func (boundsError) RuntimeError() {}

// panicBounds is Bounds for yaegi (see runtimeSymbols): it panics with
// Go's message for a failed bounds check of kind code with operands x
// and y (boundsMessage).
func panicBounds(code, x, y int) {
	panic(boundsError(boundsMessage(boundsCode(code), int64(x), int64(y))))
}

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
	return pure(x, nil)
}

// guard returns the guard of e, which guardable accepts.
func (r *rewriter) guard(e ast.Expr) string {
	value := func(b ast.Expr) string { return r.info.Types[b].Value.ExactString() }
	check := func(bound, limit string, code boundsCode, x string) string {
		return fmt.Sprintf("if %s > %s(%s) { %s.Bounds(%d, %s, %s(%s)) }; ", bound, limit, x, runtimeName, code, bound, limit, x)
	}
	var x ast.Expr
	switch e := e.(type) {
	case *ast.IndexExpr:
		x = e.X
		text := r.apply(r.src, r.offset(x.Pos()), r.offset(x.End()))
		i := value(e.Index)
		return fmt.Sprintf("if %s >= len(%s) { %s.Bounds(%d, %s, len(%s)) }; ", i, text, runtimeName, boundsIndex, i, text)
	case *ast.SliceExpr:
		x = e.X
		text := r.apply(r.src, r.offset(x.Pos()), r.offset(x.End()))
		_, isString := r.info.TypeOf(x).Underlying().(*types.Basic)
		switch {
		case e.Slice3:
			return check(value(e.Max), "cap", boundsSlice3Acap, text)
		case e.High != nil && isString:
			return check(value(e.High), "len", boundsSliceAlen, text)
		case e.High != nil:
			return check(value(e.High), "cap", boundsSliceAcap, text)
		case e.Low != nil:
			return check(value(e.Low), "len", boundsSliceB, text)
		}
	}
	return ""
}
