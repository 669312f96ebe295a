package rewrite

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/interp/cell"
	"github.com/tensornb/tensornb/kernel/internal/interp/check"
)

// The rewrite marks the cells' code for the frames of a panic (see
// cell.Sites): before each statement of a function body, a function
// literal or a cell's top-level compound statement that can fail (it
// calls a function, indexes, divides, dereferences, …), an assignment of
// its site to the variable of the function's frames, on the statement's
// own line, so that lines stay where they were. A statement that cannot
// fail writes nothing: a frame is left only through a statement that
// calls, and fails only in one that can. A loop with one statement that
// can fail, and none that calls, has that statement's site written once,
// before it (markEarly). A for loop whose condition or post statement
// can fail writes its own site again at the end of its body and before a
// continue, where they run next. A range over a function calls it: its
// site is written before it, and its body, which the rewrite makes a
// function literal (rangefunc.go), is marked as one, named as Go names
// it (f-range1).
//
// Code that runs on goroutines is not marked, so that two goroutines
// never write one variable: function literals started with go, and the
// functions their calls and go statements reach (goroutineCode); an
// earlier cell's marked function that a go statement now reaches is
// declared again without the marks (steps.go).

// A fnScope is a function whose statements are being marked.
type fnScope struct {
	fn *cell.Func // nil at a cell's top level
	v  string     // the variable its statements write (lineVar of its key)
	// key is yaegi's name of its frames, and name Go's prefix for the
	// literals inside it: third (literals third.func1, …), "" at a cell's
	// top level (func1, …), init in package-level variables' values.
	key, name string
	literal   bool // a function literal: its own literals are name.1, …
	lits      int  // the literals numbered so far directly inside
	// ranges counts the bodies of range-over-func loops numbered so far
	// (name-range1, …). names is set for such a body: the scope of its
	// function, which numbers the literals and loops inside it, as Go
	// does.
	ranges int
	names  *fnScope
	// plain is set for code that runs on goroutines: no marks.
	plain bool
	loops []loopMark
	// early are statements whose site is written before their loop
	// (see markEarly), not before them.
	early map[ast.Stmt]bool
}

// A loopMark is a loop around the statements being marked: its label,
// and for a for loop whose condition or post statement can fail, the
// site that a continue writes (0 if none).
type loopMark struct {
	label string
	site  int
}

// literalScope returns the scope of lit, a function literal inside sc,
// numbered as Go numbers closures.
func (sc *fnScope) literalScope(lit *ast.FuncLit) *fnScope {
	ns := sc.namer()
	ns.lits++
	var name string
	switch {
	case ns.literal:
		name = fmt.Sprintf("%s.%d", ns.name, ns.lits)
	case ns.name == "":
		name = fmt.Sprintf("func%d", ns.lits)
	default:
		name = fmt.Sprintf("%s.func%d", ns.name, ns.lits)
	}
	key := sc.innerKey()
	return &fnScope{fn: &cell.Func{Name: name, Key: key}, v: cell.LineVar(key), key: key, name: name, literal: true, plain: sc.plain}
}

// rangeScope returns the scope of the body of a range-over-func loop
// inside sc, which the rewrite makes a function literal (rangefunc.go):
// Go names it f-range1, range1 at a cell's top level (main-range1 in a
// program), counting the loops of the function; the literals and loops
// inside it are numbered as the function's.
func (sc *fnScope) rangeScope() *fnScope {
	ns := sc.namer()
	ns.ranges++
	name := fmt.Sprintf("range%d", ns.ranges)
	if ns.name != "" {
		name = fmt.Sprintf("%s-range%d", ns.name, ns.ranges)
	}
	key := sc.innerKey()
	return &fnScope{fn: &cell.Func{Name: name, Key: key}, v: cell.LineVar(key), key: key, name: name, plain: sc.plain, names: ns}
}

// namer is the scope that numbers the literals and loops inside sc.
func (sc *fnScope) namer() *fnScope {
	if sc.names != nil {
		return sc.names
	}
	return sc
}

// innerKey is yaegi's name of the frames of a function literal inside
// sc.
func (sc *fnScope) innerKey() string {
	if sc.key == "" {
		return "func"
	}
	return sc.key + ".func"
}

// instrument marks the cell's code: its functions, the function
// literals anywhere in it, the statements inside its top-level compound
// statements; and it gives each top-level statement and var declaration
// a site of its own (unitSite), which the session writes for a
// statement as it runs it.
func (r *rewriter) instrument(spans []check.Span) {
	r.concurrent = r.goroutineCode(spans)
	top := &fnScope{v: cell.LineVar("")}
	init := &fnScope{v: cell.LineVar(""), name: "init"}
	for _, sp := range spans {
		for _, n := range sp.Nodes {
			switch n := n.(type) {
			case *ast.FuncDecl:
				if n.Body == nil {
					continue
				}
				key := n.Name.Name
				sc := &fnScope{fn: &cell.Func{Name: goFuncName(n), Key: key}, v: cell.LineVar(key), key: key, name: goFuncName(n), plain: r.concurrent[n]}
				r.marked[n] = !sc.plain
				r.stmtList(n.Body.List, sc)
			case *ast.GenDecl:
				if n.Tok != token.VAR {
					continue
				}
				var values []ast.Node
				for _, spec := range n.Specs {
					for _, v := range spec.(*ast.ValueSpec).Values {
						values = append(values, v)
					}
				}
				r.literals(values, init)
				r.unitSite[n] = r.newSite(n.Pos(), nil, values)
			case ast.Stmt:
				head := header(n)
				r.literals(head, top)
				r.unitSite[n] = r.newSite(n.Pos(), nil, head)
				inner, label := unlabel(n)
				if !r.mayFail(inner, header(inner)) {
					r.insert(n.Pos(), r.markEarly(inner, top), true)
				}
				r.blocks(inner, top, label)
			}
		}
	}
}

// goFuncName is Go's name of a declared function: f, T.M, (*T).M.
func goFuncName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return d.Name.Name
	}
	recv := d.Recv.List[0].Type
	if star, ok := recv.(*ast.StarExpr); ok {
		return "(*" + types.ExprString(star.X) + ")." + d.Name.Name
	}
	return types.ExprString(recv) + "." + d.Name.Name
}

// newSite records a site at pos, in fn, whose statement's own parts
// (see header) are head, and returns its number.
func (r *rewriter) newSite(pos token.Pos, fn *cell.Func, head []ast.Node) int {
	line, _ := r.cellLine(pos)
	site := cell.Site{Cell: r.running, Line: line, Fn: fn}
	inspectHead(head, func(n ast.Node) {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return
		}
		c := cell.Call{Line: r.cellLineOf(call.Lparen)}
		switch f := ast.Unparen(call.Fun).(type) {
		case *ast.Ident:
			if _, ok := r.info.Uses[f].(*types.Func); ok {
				c.Name = f.Name
			}
		case *ast.SelectorExpr:
			if sel, ok := r.info.Selections[f]; ok && sel.Kind() != types.FieldVal {
				c.Name = f.Sel.Name
			}
		case *ast.FuncLit:
			c.Lit = r.litFuncs[f]
		}
		if c.Name != "" || c.Lit != nil {
			site.Calls = append(site.Calls, c)
		}
	})
	id := r.sites.Add(site)
	if fn != nil {
		fn.Sites = append(fn.Sites, id)
	}
	return id
}

// cellLineOf is the cell line of pos, or 0.
func (r *rewriter) cellLineOf(pos token.Pos) int {
	l, _ := r.cellLine(pos)
	return l
}

// literals marks the function literals in head, the parts of a
// statement of sc, in the order written; those started with go are
// numbered but not marked.
func (r *rewriter) literals(head []ast.Node, sc *fnScope) {
	started := map[*ast.FuncLit]bool{}
	for _, n := range head {
		if g, ok := n.(*ast.GoStmt); ok {
			if lit, ok := g.Call.Fun.(*ast.FuncLit); ok {
				started[lit] = true
			}
		}
	}
	for _, n := range head {
		ast.Inspect(n, func(n ast.Node) bool {
			lit, ok := n.(*ast.FuncLit)
			if !ok {
				return true
			}
			inner := sc.literalScope(lit)
			r.litFuncs[lit] = inner.fn
			if !started[lit] {
				r.stmtList(lit.Body.List, inner)
			}
			return false
		})
	}
}

// stmtList marks the statements of a block of sc.
func (r *rewriter) stmtList(list []ast.Stmt, sc *fnScope) {
	for _, s := range list {
		r.stmt(s, sc)
	}
}

// unlabel returns the statement s labels, if it is a labeled statement,
// and its label; or s and "".
func unlabel(s ast.Stmt) (ast.Stmt, string) {
	label := ""
	for {
		ls, ok := s.(*ast.LabeledStmt)
		if !ok {
			return s, label
		}
		s, label = ls.Stmt, ls.Label.Name
	}
}

// stmt marks s, a statement of a block of sc, and what it holds.
func (r *rewriter) stmt(s ast.Stmt, sc *fnScope) {
	at := s.Pos()
	inner, label := unlabel(s)
	switch inner.(type) {
	case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
		// Before the label, which break and continue name.
	default:
		at = inner.Pos() // after it, where a goto arrives
	}
	mark, guards := r.marks(inner, sc)
	if mark == "" {
		mark = r.markEarly(inner, sc)
	}
	r.insert(at, mark, true)
	r.insert(at, guards, false)
	r.blocks(inner, sc, label)
}

// markEarly returns the write of the site of the one statement of the
// loop s that can fail, before the loop rather than at each iteration,
// if that statement calls no function (which could write the variable
// again): in a tight loop (total += s[i]) the write would cost as much
// as the statement. It returns "" for a loop whose statements have
// another number of marks, and for other statements.
func (r *rewriter) markEarly(s ast.Stmt, sc *fnScope) string {
	var body *ast.BlockStmt
	switch s := s.(type) {
	case *ast.ForStmt:
		if s.Cond != nil && r.mayFail(nil, []ast.Node{s.Cond}) || s.Post != nil && r.mayFail(s.Post, header(s.Post)) {
			return ""
		}
		body = s.Body
	case *ast.RangeStmt:
		body = s.Body
	default:
		return ""
	}
	if sc.plain {
		return ""
	}
	var marked []ast.Stmt
	calls := false
	var visit func(list []ast.Stmt)
	var visitOne func(st ast.Stmt)
	visitOne = func(st ast.Stmt) {
		st, _ = unlabel(st)
		head := header(st)
		fails := r.mayFail(st, head)
		if f, ok := st.(*ast.ForStmt); ok && (f.Cond != nil && r.mayFail(nil, []ast.Node{f.Cond}) || f.Post != nil && r.mayFail(f.Post, header(f.Post))) {
			fails = true
		}
		if fails {
			marked = append(marked, st)
			inspectHead(head, func(n ast.Node) {
				if call, ok := n.(*ast.CallExpr); ok && !r.conversionOrBuiltin(call) {
					calls = true
				}
			})
		}
		if rs, ok := st.(*ast.RangeStmt); ok && r.overFunc(rs) {
			calls = true // its function, and its body is a function of its own
			return
		}
		switch st := st.(type) {
		case *ast.BlockStmt:
			visit(st.List)
		case *ast.IfStmt:
			visit(st.Body.List)
			if st.Else != nil {
				visitOne(st.Else)
			}
		case *ast.ForStmt:
			visit(st.Body.List)
		case *ast.RangeStmt:
			visit(st.Body.List)
		case *ast.SwitchStmt:
			for _, c := range st.Body.List {
				visit(c.(*ast.CaseClause).Body)
			}
		case *ast.TypeSwitchStmt:
			for _, c := range st.Body.List {
				visit(c.(*ast.CaseClause).Body)
			}
		case *ast.SelectStmt:
			for _, c := range st.Body.List {
				visit(c.(*ast.CommClause).Body)
			}
		}
	}
	visit = func(list []ast.Stmt) {
		for _, st := range list {
			visitOne(st)
		}
	}
	visit(body.List)
	if len(marked) != 1 || calls {
		return ""
	}
	if sc.early == nil {
		sc.early = map[ast.Stmt]bool{}
	}
	sc.early[marked[0]] = true
	r.lineVars[sc.v] = true
	return fmt.Sprintf("%s = %d; ", sc.v, r.newSite(marked[0].Pos(), sc.fn, header(marked[0])))
}

// conversionOrBuiltin reports whether call is a conversion or a call of
// a builtin function.
func (r *rewriter) conversionOrBuiltin(call *ast.CallExpr) bool {
	fun := ast.Unparen(call.Fun)
	if tv, ok := r.info.Types[fun]; ok && tv.IsType() {
		return true
	}
	if id, ok := fun.(*ast.Ident); ok {
		_, builtin := r.info.Uses[id].(*types.Builtin)
		return builtin
	}
	return false
}

// marks returns what goes before s, a statement of sc: the write of its
// site if it can fail and the note of a recover (see cell.RuntimeName),
// then the guards of its constant indexes (bounds.go). It marks the
// function literals s holds outside its blocks.
func (r *rewriter) marks(s ast.Stmt, sc *fnScope) (mark, guards string) {
	head := header(s)
	r.literals(head, sc)
	var b strings.Builder
	if !sc.plain {
		if br, ok := s.(*ast.BranchStmt); ok && br.Tok == token.CONTINUE {
			if site := sc.continueSite(br); site != 0 {
				fmt.Fprintf(&b, "%s = %d; ", sc.v, site)
				r.lineVars[sc.v] = true
			}
		} else if r.mayFail(s, head) && !sc.early[s] {
			fmt.Fprintf(&b, "%s = %d; ", sc.v, r.newSite(s.Pos(), sc.fn, head))
			r.lineVars[sc.v] = true
		}
		if r.recovers(head) {
			b.WriteString(cell.RuntimeName + ".Recovering(); ")
		}
	}
	return b.String(), strings.Join(r.guards(s), "")
}

// continueSite returns the site that a continue statement of sc writes:
// that of the for loop it continues, if the loop has one.
func (sc *fnScope) continueSite(br *ast.BranchStmt) int {
	for i := len(sc.loops) - 1; i >= 0; i-- {
		if br.Label == nil || sc.loops[i].label == br.Label.Name {
			return sc.loops[i].site
		}
	}
	return 0
}

// insert adds text, a mark or not, at pos.
func (r *rewriter) insert(pos token.Pos, text string, mark bool) {
	if text != "" {
		r.edits = append(r.edits, edit{from: r.offset(pos), to: r.offset(pos), text: text, mark: mark})
	}
}

// blocks marks the statements in the blocks of s, a statement of sc
// labelled label ("" if not).
func (r *rewriter) blocks(s ast.Stmt, sc *fnScope, label string) {
	switch s := s.(type) {
	case *ast.BlockStmt:
		r.stmtList(s.List, sc)
	case *ast.IfStmt:
		r.stmtList(s.Body.List, sc)
		switch e := s.Else.(type) {
		case *ast.BlockStmt:
			r.stmtList(e.List, sc)
		case *ast.IfStmt:
			// else if: in a block of its own if it needs marks.
			if mark, guards := r.marks(e, sc); mark != "" || guards != "" {
				r.insert(e.Pos(), "{ ", false)
				r.insert(e.Pos(), mark, true)
				r.insert(e.Pos(), guards, false)
				r.blocks(e, sc, "")
				r.insert(e.End(), " }", false)
			} else {
				r.blocks(e, sc, "")
			}
		}
	case *ast.ForStmt:
		loop := loopMark{label: label}
		if !sc.plain && (s.Cond != nil && r.mayFail(nil, []ast.Node{s.Cond}) || s.Post != nil && r.mayFail(s.Post, header(s.Post))) {
			loop.site = r.newSite(s.Pos(), sc.fn, header(s))
		}
		sc.loops = append(sc.loops, loop)
		r.stmtList(s.Body.List, sc)
		sc.loops = sc.loops[:len(sc.loops)-1]
		if loop.site != 0 && !terminates(s.Body.List) {
			r.insert(s.Body.Rbrace, fmt.Sprintf("; %s = %d; ", sc.v, loop.site), true)
			r.lineVars[sc.v] = true
		}
	case *ast.RangeStmt:
		if r.overFunc(s) {
			r.stmtList(s.Body.List, sc.rangeScope())
			break
		}
		sc.loops = append(sc.loops, loopMark{label: label})
		r.stmtList(s.Body.List, sc)
		sc.loops = sc.loops[:len(sc.loops)-1]
	case *ast.SwitchStmt:
		for _, c := range s.Body.List {
			r.stmtList(c.(*ast.CaseClause).Body, sc)
		}
	case *ast.TypeSwitchStmt:
		for _, c := range s.Body.List {
			r.stmtList(c.(*ast.CaseClause).Body, sc)
		}
	case *ast.SelectStmt:
		for _, c := range s.Body.List {
			r.stmtList(c.(*ast.CommClause).Body, sc)
		}
	}
}

// terminates reports whether a block of list ends in a statement after
// which nothing of it runs: a return, a branch, a panic.
func terminates(list []ast.Stmt) bool {
	if len(list) == 0 {
		return false
	}
	switch s := list[len(list)-1].(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		return true
	case *ast.ExprStmt:
		if call, ok := s.X.(*ast.CallExpr); ok {
			if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "panic" {
				return true
			}
		}
	}
	return false
}

// header returns the parts of s that run when it starts, before any of
// its blocks: the expressions of a simple statement, the init, condition
// and post statement of a for loop, the init, tag and case expressions of
// a switch, the channel operations of a select's cases.
func header(s ast.Stmt) []ast.Node {
	var out []ast.Node
	add := func(ns ...ast.Node) {
		for _, n := range ns {
			if n != nil {
				out = append(out, n)
			}
		}
	}
	switch s := s.(type) {
	case *ast.ExprStmt:
		add(s.X)
	case *ast.SendStmt:
		add(s.Chan, s.Value)
	case *ast.IncDecStmt:
		add(s.X)
	case *ast.AssignStmt:
		for _, e := range s.Lhs {
			add(e)
		}
		for _, e := range s.Rhs {
			add(e)
		}
	case *ast.GoStmt:
		add(s)
	case *ast.DeferStmt:
		add(s.Call)
	case *ast.ReturnStmt:
		for _, e := range s.Results {
			add(e)
		}
	case *ast.DeclStmt:
		if gd, ok := s.Decl.(*ast.GenDecl); ok {
			for _, spec := range gd.Specs {
				if vs, ok := spec.(*ast.ValueSpec); ok {
					for _, v := range vs.Values {
						add(v)
					}
				}
			}
		}
	case *ast.LabeledStmt:
		return header(s.Stmt)
	case *ast.IfStmt:
		add(s.Init, s.Cond)
	case *ast.ForStmt:
		add(s.Init, s.Cond, s.Post)
	case *ast.RangeStmt:
		add(s.X)
	case *ast.SwitchStmt:
		add(s.Init, s.Tag)
		for _, c := range s.Body.List {
			for _, e := range c.(*ast.CaseClause).List {
				add(e)
			}
		}
	case *ast.TypeSwitchStmt:
		add(s.Init, s.Assign)
	case *ast.SelectStmt:
		for _, c := range s.Body.List {
			add(c.(*ast.CommClause).Comm)
		}
	}
	return out
}

// inspectHead calls f for each node of head, but not inside function
// literals, whose statements are their own, nor inside a go statement's
// call, which runs elsewhere, other than its operands.
func inspectHead(head []ast.Node, f func(ast.Node)) {
	for _, n := range head {
		ast.Inspect(n, func(n ast.Node) bool {
			if n == nil {
				return false
			}
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.GoStmt:
				// The function and its arguments are evaluated here; the
				// call runs on the new goroutine.
				if _, lit := n.Call.Fun.(*ast.FuncLit); !lit {
					inspectHead([]ast.Node{n.Call.Fun}, f)
				}
				inspectHead(exprNodes(n.Call.Args), f)
				return false
			}
			f(n)
			return true
		})
	}
}

// exprNodes returns es as nodes.
func exprNodes(es []ast.Expr) []ast.Node {
	out := make([]ast.Node, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// recovers reports whether head calls the builtin recover.
func (r *rewriter) recovers(head []ast.Node) bool {
	found := false
	inspectHead(head, func(n ast.Node) {
		if call, ok := n.(*ast.CallExpr); ok {
			if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
				if b, ok := r.info.Uses[id].(*types.Builtin); ok && b.Name() == "recover" {
					found = true
				}
			}
		}
	})
	return found
}

// mayFail reports whether the statement s, whose parts are head, can
// fail, or call a function that does: a call that is not of a builtin
// that cannot fail or a conversion that cannot; an index, unless of an
// array by a constant; a slice expression; a dereference, explicit or
// of a field through a pointer; a type assertion other than v, ok :=;
// an integer division by a variable; a shift by a signed variable; a
// comparison of interfaces (their dynamic types may not compare); a
// send; a range over a pointer; a range over a function, which calls it.
// Function literals' bodies are their own.
func (r *rewriter) mayFail(s ast.Stmt, head []ast.Node) bool {
	commaOK := map[ast.Expr]bool{}
	switch s := s.(type) {
	case *ast.SendStmt:
		return true
	case *ast.AssignStmt:
		if len(s.Lhs) == 2 && len(s.Rhs) == 1 {
			commaOK[ast.Unparen(s.Rhs[0])] = true
		}
		switch s.Tok {
		case token.QUO_ASSIGN, token.REM_ASSIGN:
			if r.integer(s.Lhs[0]) && !r.constant(s.Rhs[0]) {
				return true
			}
		case token.SHL_ASSIGN, token.SHR_ASSIGN:
			if r.signed(s.Rhs[0]) && !r.constant(s.Rhs[0]) {
				return true
			}
		}
	case *ast.RangeStmt:
		if t := r.info.TypeOf(s.X); t != nil {
			if _, ok := t.Underlying().(*types.Pointer); ok {
				return true
			}
		}
		if r.overFunc(s) {
			return true // it calls the function
		}
	case *ast.DeclStmt:
		if gd, ok := s.Decl.(*ast.GenDecl); ok {
			for _, spec := range gd.Specs {
				if vs, ok := spec.(*ast.ValueSpec); ok && len(vs.Names) == 2 && len(vs.Values) == 1 {
					commaOK[ast.Unparen(vs.Values[0])] = true
				}
			}
		}
	}
	fails := false
	inspectHead(head, func(n ast.Node) {
		if !fails {
			fails = r.nodeMayFail(n, commaOK)
		}
	})
	return fails
}

// nodeMayFail reports whether evaluating n itself, its operands aside,
// can fail; see mayFail.
func (r *rewriter) nodeMayFail(n ast.Node, commaOK map[ast.Expr]bool) bool {
	switch n := n.(type) {
	case *ast.SendStmt:
		return true
	case *ast.CallExpr:
		fun := ast.Unparen(n.Fun)
		if tv, ok := r.info.Types[fun]; ok && tv.IsType() {
			// A conversion fails only from a slice to an array or a
			// pointer to one.
			to := tv.Type.Underlying()
			if p, ok := to.(*types.Pointer); ok {
				to = p.Elem().Underlying()
			}
			_, array := to.(*types.Array)
			return array
		}
		if id, ok := fun.(*ast.Ident); ok {
			if b, ok := r.info.Uses[id].(*types.Builtin); ok {
				switch b.Name() {
				case "panic", "close":
					return true
				case "make":
					for _, a := range n.Args[1:] {
						if !r.constant(a) {
							return true
						}
					}
					return false
				}
				return false
			}
		}
		return true
	case *ast.IndexExpr:
		if tv, ok := r.info.Types[n.X]; ok && !tv.IsValue() {
			return false // an instantiation
		}
		t := r.info.TypeOf(n.X)
		if t == nil {
			return true
		}
		if a, ok := t.Underlying().(*types.Array); ok {
			return !r.constant(n.Index) && a.Len() >= 0
		}
		return true
	case *ast.IndexListExpr:
		return false
	case *ast.SliceExpr:
		return true
	case *ast.StarExpr:
		tv, ok := r.info.Types[n]
		return !ok || tv.IsValue()
	case *ast.SelectorExpr:
		sel, ok := r.info.Selections[n]
		if !ok {
			return false // a package's name
		}
		if sel.Indirect() {
			return true
		}
		return sel.Kind() == types.MethodVal && types.IsInterface(sel.Recv())
	case *ast.TypeAssertExpr:
		return n.Type != nil && !commaOK[n]
	case *ast.BinaryExpr:
		switch n.Op {
		case token.QUO, token.REM:
			return r.integer(n.X) && !r.constant(n.Y)
		case token.SHL, token.SHR:
			return r.signed(n.Y) && !r.constant(n.Y)
		case token.EQL, token.NEQ:
			return r.holdsInterface(n.X) || r.holdsInterface(n.Y)
		}
	}
	return false
}

// constant reports whether e is a constant.
func (r *rewriter) constant(e ast.Expr) bool {
	tv, ok := r.info.Types[e]
	return ok && tv.Value != nil
}

// integer reports whether e is of an integer type.
func (r *rewriter) integer(e ast.Expr) bool {
	b, ok := underlyingBasic(r.info.TypeOf(e))
	return ok && b.Info()&types.IsInteger != 0
}

// signed reports whether e is of a signed integer type.
func (r *rewriter) signed(e ast.Expr) bool {
	b, ok := underlyingBasic(r.info.TypeOf(e))
	return ok && b.Info()&types.IsInteger != 0 && b.Info()&types.IsUnsigned == 0
}

// underlyingBasic returns t's underlying basic type, if it has one.
func underlyingBasic(t types.Type) (*types.Basic, bool) {
	if t == nil {
		return nil, false
	}
	b, ok := t.Underlying().(*types.Basic)
	return b, ok
}

// holdsInterface reports whether e's type is or holds an interface,
// whose comparison can fail.
func (r *rewriter) holdsInterface(e ast.Expr) bool {
	t := r.info.TypeOf(e)
	if t == nil {
		return true
	}
	found := false
	cell.InspectType(t.Underlying(), func(t types.Type) bool {
		if types.IsInterface(t) {
			found = true
		}
		if n, ok := t.(*types.Named); ok {
			cell.InspectType(n.Underlying(), func(t types.Type) bool {
				found = found || types.IsInterface(t)
				return !found
			})
		}
		return !found
	})
	return found
}

// goroutineCode returns the cells' functions that go statements of the
// cell reach: the functions they start, and those that these and the
// function literals they start call, by name or as methods, one after
// the other; a call of an interface's method reaches every method of
// that name. The earlier cells' functions among them that are marked
// are to be declared again without marks (redeclare).
func (r *rewriter) goroutineCode(spans []check.Span) map[*ast.FuncDecl]bool {
	decls := map[types.Object]*ast.FuncDecl{}
	methods := map[string][]*ast.FuncDecl{}
	var all []*ast.FuncDecl
	for _, d := range r.file.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
			all = append(all, fd)
			if obj := r.info.Defs[fd.Name]; obj != nil {
				decls[obj] = fd
			}
			if fd.Recv != nil {
				methods[fd.Name.Name] = append(methods[fd.Name.Name], fd)
			}
		}
	}
	reached := map[*ast.FuncDecl]bool{}
	var queue []*ast.FuncDecl
	reach := func(obj types.Object) {
		var found []*ast.FuncDecl
		if fd, ok := decls[obj]; ok {
			found = append(found, fd)
		} else if f, ok := obj.(*types.Func); ok {
			if sig, ok := f.Type().(*types.Signature); ok && sig.Recv() != nil && types.IsInterface(sig.Recv().Type()) {
				found = methods[f.Name()]
			}
		}
		for _, fd := range found {
			if !reached[fd] {
				reached[fd] = true
				queue = append(queue, fd)
			}
		}
	}
	// calls reaches what n calls, or takes the value of.
	calls := func(n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				if obj, ok := r.info.Uses[n].(*types.Func); ok {
					reach(obj)
				}
			case *ast.SelectorExpr:
				if sel, ok := r.info.Selections[n]; ok && sel.Kind() != types.FieldVal {
					reach(sel.Obj())
				}
			}
			return true
		})
	}
	for _, sp := range spans {
		for _, n := range sp.Nodes {
			ast.Inspect(n, func(n ast.Node) bool {
				if g, ok := n.(*ast.GoStmt); ok {
					calls(g.Call.Fun)
				}
				return true
			})
		}
	}
	for len(queue) > 0 {
		fd := queue[0]
		queue = queue[1:]
		calls(fd.Body)
	}
	if len(reached) == 0 {
		return nil
	}
	for _, fd := range all {
		if reached[fd] && r.cc.File.InSession(fd) && fd.Recv == nil {
			r.redeclare = append(r.redeclare, cell.FuncName(fd))
		}
	}
	return reached
}
