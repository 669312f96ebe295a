package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// A select with a case that receives a value and whether it came
// (v, ok := <-x, v, ok = <-x) from a channel that is not a variable
// (<-r.values, <-f()) never evaluates that channel in yaegi v0.16.1,
// which waits on a nil channel instead: the select blocks forever. Its
// operands, the channel of each case and the value of each send, are
// evaluated by the rewrite into variables of its own, once and in the
// order of the source as Go evaluates them, in a block around the select
// (hoistOperands). A labeled select that needs it is refused: the block
// would move its label out of reach of a goto, or away from its break.

// recvOKFromExpr reports whether s has a case that receives a value and
// whether it came from a channel that is not a variable.
func recvOKFromExpr(s *ast.SelectStmt) bool {
	for _, c := range s.Body.List {
		as, ok := c.(*ast.CommClause).Comm.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != 2 {
			continue
		}
		if u, ok := ast.Unparen(as.Rhs[0]).(*ast.UnaryExpr); ok {
			if _, isVar := u.X.(*ast.Ident); !isVar {
				return true
			}
		}
	}
	return false
}

// selectOperands notes a select whose operands hoistOperands evaluates
// first, and refuses a labeled one.
func (r *rewriter) selectOperands(n ast.Stmt) {
	if l, ok := n.(*ast.LabeledStmt); ok {
		if s, ok := l.Stmt.(*ast.SelectStmt); ok && recvOKFromExpr(s) {
			r.refuse(l.Pos(), "the labeled select "+l.Label.Name+", which receives a value and whether it came from a channel that is not a variable (a variable for the channel and no label would run)")
		}
		return
	}
	if s, ok := n.(*ast.SelectStmt); ok && recvOKFromExpr(s) {
		r.hoisted = append(r.hoisted, s)
	}
}

// hoistOperands evaluates the operands of the selects selectOperands
// noted into variables of their own, in a block around each, with the
// edits made inside them; the edits must be all made and sorted.
func (r *rewriter) hoistOperands() {
	if len(r.hoisted) == 0 {
		return // no edits to sort again
	}
	for _, s := range r.hoisted {
		var decls []string
		var edits []edit
		for _, c := range s.Body.List {
			for _, op := range r.operands(c.(*ast.CommClause).Comm) {
				if tv := r.info.Types[op.x]; tv.Value != nil || tv.IsNil() {
					continue // a constant, which has no effect
				}
				if hasFuncLit(op.x) {
					r.refuse(op.x.Pos(), "a function literal in a channel or a value sent of a select that receives a value and ok from a channel that is not a variable (the rewrite would move it)")
					return
				}
				t := r.temp()
				text := r.apply(r.src, r.offset(op.x.Pos()), r.offset(op.x.End()))
				if op.sent == nil {
					decls = append(decls, t+" := "+text+";")
				} else {
					typ, ok := r.writable(op.sent, op.x.Pos())
					if !ok {
						r.refuse(op.x.Pos(), "a value of type "+types.TypeString(op.sent, r.qualifier)+" sent in a select, which the cell cannot write")
						return
					}
					decls = append(decls, "var "+t+" "+typ+" = "+text+";")
				}
				edits = append(edits, edit{r.offset(op.x.Pos()), r.offset(op.x.End()), t, false})
			}
		}
		for _, e := range edits {
			r.dropEditsIn(e.from, e.to)
		}
		start, end := r.offset(s.Pos()), r.offset(s.End())
		r.edits = append(r.edits, edits...)
		r.edits = append(r.edits, edit{start, start, "{ " + strings.Join(decls, " ") + " ", false}, edit{end, end, " }", false})
	}
	r.sortEdits()
}

// An operand of a select's case: a channel, or with sent the type of
// the channel's elements, a value sent.
type operand struct {
	x    ast.Expr
	sent types.Type
}

// operands returns the operands of a select's case, comm, in the order
// of the source.
func (r *rewriter) operands(comm ast.Stmt) []operand {
	var recv ast.Expr
	switch comm := comm.(type) {
	case *ast.SendStmt:
		ch := r.info.TypeOf(comm.Chan).Underlying().(*types.Chan)
		return []operand{{comm.Chan, nil}, {comm.Value, ch.Elem()}}
	case *ast.ExprStmt:
		recv = comm.X
	case *ast.AssignStmt:
		recv = comm.Rhs[0]
	}
	if u, ok := ast.Unparen(recv).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
		return []operand{{u.X, nil}}
	}
	return nil // the default case
}

// hasFuncLit reports whether x has a function literal.
func hasFuncLit(x ast.Expr) bool {
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		_, lit := n.(*ast.FuncLit)
		found = found || lit
		return !found
	})
	return found
}

// dropEditsIn drops the edits inside the file's bytes [from, to), which
// an edit of them all replaces.
func (r *rewriter) dropEditsIn(from, to int) {
	kept := r.edits[:0]
	for _, e := range r.edits {
		if e.from < from || e.to > to {
			kept = append(kept, e)
		}
	}
	r.edits = kept
}
