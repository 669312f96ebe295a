package rewrite

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/interp/cell"
)

// Range over a function (Go 1.23), which yaegi v0.16.1 lacks, is lowered
// to a call of the function with the loop's body made a function literal,
// the yield function, as the Go spec defines the loop:
//
//	for k, v := range f {
//		BODY
//	}
//
// becomes, on the lines of the for and of the closing brace, so that
// every line of the cell stays where it was,
//
//	{ var S = 1; var E int; F := f; F(func(k K, v V) bool { if S != 1 { tensornbRuntime.RangeState(&S) }; S = 2;
//		BODY
//	S = 1; return true }); if S == 2 { S = 4; tensornbRuntime.RangeState(&S) }; S = 3; if E == 1 { … }; … }
//
// f is evaluated once, before the loop. S is the state of the body,
// numbered as Go's compiler numbers it (cell.RangeDone …): an iterator
// that calls yield again after it returned false, after the loop ended,
// or while the body runs or after it panicked, fails with Go's runtime
// error, as does one that recovered a panic of the body and returned. A
// panic of the body goes on out of the loop. The loop variables are the
// literal's parameters, new at each iteration; for k, v = range f
// assigns them to k and v with a literal of its own, written where k and
// v are, which evaluates their operands at each iteration.
//
// continue is { S = 1; return true }, break { S = 0; return false }; a
// break or continue of a statement inside the body is left alone. A
// return, or a break or continue of a statement outside the loop, sets E
// to its number and returns false; once f returned, the loop takes that
// exit: it returns, breaks or continues, or, in the body of another such
// loop, goes on out of that one the same way. A return's values are
// first assigned to the function's results, to which the rewrite gives
// names where they have none. A defer in a body appends a call of its
// function (or of its method on the receiver) and arguments, evaluated as
// the defer evaluates them, to a list of the function's, which its
// outermost such loop defers running, last first
// (tensornbRuntime.Deferred): the calls run when the function returns,
// in Go's order.
//
// Refused: a goto out of a body; a defer in a body at a cell's top level
// (the statement's function would run it, not the cell's); a deferred
// call in a body whose function may call recover, which would not stop a
// panic from the list (a literal or a function of the cells that calls
// it, a function value); a return where a result's name is shadowed;
// types of the yield's parameters, or of a deferred call's, that the cell
// cannot write.

// A rangeLoop is a range-over-func loop being lowered: its statement,
// its label ("" if none), the names of its variables (the body's state,
// the exit taken), and the exits that leave its body past the loop,
// numbered from 1 in their order.
type rangeLoop struct {
	stmt        *ast.RangeStmt
	label       string
	state, exit string
	exits       []loopExit
}

// A loopExit is a way out of a range-over-func loop's body past the loop:
// key names it (return, break L, continue L), and then is the code that
// takes it once the loop's function returned.
type loopExit struct{ key, then string }

// A breakTarget is a statement that a break or continue may name, around
// one: a loop, a switch or a select, its label ("" if none), and the loop
// being lowered if it is a range-over-func loop.
type breakTarget struct {
	stmt  ast.Stmt
	label string
	loop  *rangeLoop
}

// A lowering lowers the range-over-func loops of one function: its
// outermost one, root, and those inside root's body, but not inside
// function literals there, whose loops are their own.
type lowering struct {
	r      *rewriter
	fn     *ast.FuncType // the function's
	top    bool          // the function is a cell's top level
	labels map[string]*ast.LabeledStmt
	root   *rangeLoop
	// results are the names a return in a body assigns the function's
	// results to, once one needs them (see resultNames), own those of
	// them the function gave; defers names the list of the calls
	// deferred in the bodies, "" if none.
	results []string
	own     []*ast.Ident
	defers  string
}

// rangeFunc lowers n, a range over a function, and the range-over-func
// loops inside its body; a loop lowered with the one around it is left.
func (r *rewriter) rangeFunc(n *ast.RangeStmt) {
	if r.rangeFuncs[n] {
		return
	}
	typ, body, top := r.enclosingFunc(n)
	lw := &lowering{r: r, fn: typ, top: top, labels: labelsIn(body)}
	var s ast.Stmt = n
	for _, ls := range lw.labels {
		if ls.Stmt == n {
			s = ls
		}
	}
	lw.stmt(s, nil)
}

// overFunc reports whether n ranges over a function.
func (r *rewriter) overFunc(n *ast.RangeStmt) bool {
	t := r.info.TypeOf(n.X)
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Signature)
	return ok
}

// stmt lowers the loops in s, a range-over-func loop or a statement in
// the body of one; stack are the statements around s that a break or a
// continue may name, innermost last.
func (lw *lowering) stmt(s ast.Stmt, stack []breakTarget) {
	s, label := unlabel(s)
	push := func(loop *rangeLoop) []breakTarget {
		return append(stack[:len(stack):len(stack)], breakTarget{s, label, loop})
	}
	switch s := s.(type) {
	case *ast.RangeStmt:
		if !lw.r.overFunc(s) {
			lw.stmts(s.Body.List, push(nil))
			return
		}
		loop := lw.newLoop(s, label)
		lw.stmts(s.Body.List, push(loop))
		lw.finish(loop)
	case *ast.ForStmt:
		lw.stmts(s.Body.List, push(nil))
	case *ast.SwitchStmt:
		lw.clauses(s.Body, push(nil))
	case *ast.TypeSwitchStmt:
		lw.clauses(s.Body, push(nil))
	case *ast.SelectStmt:
		lw.clauses(s.Body, push(nil))
	case *ast.BlockStmt:
		lw.stmts(s.List, stack)
	case *ast.IfStmt:
		lw.stmts(s.Body.List, stack)
		if s.Else != nil {
			lw.stmt(s.Else, stack)
		}
	case *ast.BranchStmt:
		lw.branch(s, stack)
	case *ast.ReturnStmt:
		lw.ret(s, stack)
	case *ast.DeferStmt:
		lw.deferStmt(s)
	}
}

// stmts lowers the loops in list; see stmt.
func (lw *lowering) stmts(list []ast.Stmt, stack []breakTarget) {
	for _, s := range list {
		lw.stmt(s, stack)
	}
}

// clauses lowers the loops in the clauses of a switch or select.
func (lw *lowering) clauses(body *ast.BlockStmt, stack []breakTarget) {
	for _, c := range body.List {
		switch c := c.(type) {
		case *ast.CaseClause:
			lw.stmts(c.Body, stack)
		case *ast.CommClause:
			lw.stmts(c.Body, stack)
		}
	}
}

// newLoop returns the loop of s, labelled label, and notes it lowered.
func (lw *lowering) newLoop(s *ast.RangeStmt, label string) *rangeLoop {
	r := lw.r
	if r.rangeFuncs == nil {
		r.rangeFuncs = map[*ast.RangeStmt]bool{}
	}
	r.rangeFuncs[s] = true
	l := &rangeLoop{stmt: s, label: label, state: r.temp(), exit: r.temp()}
	if lw.root == nil {
		lw.root = l
	}
	return l
}

// branchText is what a break or continue of l does in its body.
func (l *rangeLoop) branchText(tok token.Token) string {
	if tok == token.CONTINUE {
		return fmt.Sprintf("{ %s = %d; return true }", l.state, cell.RangeReady)
	}
	return fmt.Sprintf("{ %s = %d; return false }", l.state, cell.RangeDone)
}

// exitNumber returns the number of l's exit key, which it adds, with the
// code that then returns, if it is new.
func (l *rangeLoop) exitNumber(key string, then func() string) int {
	for i, e := range l.exits {
		if e.key == key {
			return i + 1
		}
	}
	l.exits = append(l.exits, loopExit{key: key, then: then()})
	return len(l.exits)
}

// leave returns the code that leaves the bodies of loops, innermost
// first, by the exit key, and then runs final: each sets its loop's exit
// and returns false, and once the loop's function returned, the code
// after it goes on to the next.
func (lw *lowering) leave(loops []*rangeLoop, key, final string) string {
	if len(loops) == 0 {
		return final
	}
	l := loops[0]
	n := l.exitNumber(key, func() string { return lw.leave(loops[1:], key, final) })
	return fmt.Sprintf("{ %s = %d; %s = %d; return false }", l.exit, n, l.state, cell.RangeDone)
}

// crossed returns the range-over-func loops of stack above index from,
// innermost first.
func crossed(stack []breakTarget, from int) []*rangeLoop {
	var loops []*rangeLoop
	for i := len(stack) - 1; i > from; i-- {
		if stack[i].loop != nil {
			loops = append(loops, stack[i].loop)
		}
	}
	return loops
}

// branch lowers br, a branch statement in a body, if it leaves one.
func (lw *lowering) branch(br *ast.BranchStmt, stack []breakTarget) {
	switch br.Tok {
	case token.GOTO:
		lw.gotoStmt(br, stack)
		return
	case token.FALLTHROUGH:
		return
	}
	i := len(stack) - 1
	for ; i >= 0; i-- {
		t := stack[i]
		_, loop := t.stmt.(*ast.RangeStmt)
		if _, ok := t.stmt.(*ast.ForStmt); ok {
			loop = true
		}
		if br.Label != nil && t.label == br.Label.Name || br.Label == nil && (loop || br.Tok == token.BREAK) {
			break
		}
	}
	// i < 0: a statement around the outermost loop, which br names.
	out := crossed(stack, i)
	var final string
	switch {
	case i >= 0 && stack[i].loop != nil:
		final = stack[i].loop.branchText(br.Tok)
	case len(out) == 0:
		return // inside the body
	default:
		final = lw.r.source(br)
	}
	key := br.Tok.String()
	if br.Label != nil {
		key += " " + br.Label.Name
	}
	lw.r.replace(br.Pos(), br.End(), lw.leave(out, key, final))
}

// gotoStmt refuses br, a goto in a body, if its label is outside the
// innermost body around it.
func (lw *lowering) gotoStmt(br *ast.BranchStmt, stack []breakTarget) {
	out := crossed(stack, -1)
	body := out[0].stmt.Body
	if ls := lw.labels[br.Label.Name]; ls == nil || ls.Pos() < body.Lbrace || ls.End() > body.Rbrace {
		lw.r.refuse(br.Pos(), "a goto out of the body of a range-over-func loop (goto "+br.Label.Name+")")
	}
}

// ret lowers ret, a return in a body: its values assigned to the
// function's results, it leaves every body around it, and the function
// returns.
func (lw *lowering) ret(ret *ast.ReturnStmt, stack []breakTarget) {
	text := lw.leave(crossed(stack, -1), "return", "return")
	if len(ret.Results) == 0 {
		lw.r.replace(ret.Pos(), ret.End(), text)
		return
	}
	names, ok := lw.resultNames(ret)
	if !ok {
		return
	}
	if len(ret.Results) > 1 && !lw.convertNils(ret) {
		return
	}
	lw.r.replace(ret.Return, ret.Return+token.Pos(len("return")), "{ "+strings.Join(names, ", ")+" =")
	lw.r.insert(ret.End(), "; "+text+" }", false)
}

// convertNils writes each untyped nil among the values of ret, which
// assigns several results, as a conversion to its result's type:
// yaegi v0.16.1 fails an assignment of several values one of which is
// nil ("reflect: New(nil)"). It returns false if it refused a type.
func (lw *lowering) convertNils(ret *ast.ReturnStmt) bool {
	var want []types.Type // the results' types
	for _, f := range lw.fn.Results.List {
		for range max(1, len(f.Names)) {
			want = append(want, lw.r.info.TypeOf(f.Type))
		}
	}
	for i, e := range ret.Results {
		if tv := lw.r.info.Types[e]; !tv.IsNil() {
			continue
		}
		t, ok := lw.typeText(want[i], ret.Pos(), "a return, in the body of a range-over-func loop, of nil as a")
		if !ok {
			return false
		}
		lw.r.insert(e.Pos(), "("+t+")(", false)
		lw.r.insert(e.End(), ")", false)
	}
	return true
}

// resultNames returns the names of the function's results, which ret, a
// return with values in a body, assigns: those the function gave them,
// and for the others names of the rewrite's, which it writes into the
// function's signature. It refuses, returning false, if one of the
// function's own names means another variable at ret.
func (lw *lowering) resultNames(ret *ast.ReturnStmt) ([]string, bool) {
	r := lw.r
	if lw.results == nil {
		list := lw.fn.Results
		if list.Opening == token.NoPos { // func() T
			r.insert(list.Pos(), "(", false)
			r.insert(list.End(), ")", false)
		}
		for _, f := range list.List {
			if len(f.Names) == 0 {
				name := r.temp()
				r.insert(f.Type.Pos(), name+" ", false)
				lw.results = append(lw.results, name)
			}
			for _, id := range f.Names {
				if id.Name == "_" {
					name := r.temp()
					r.replace(id.Pos(), id.End(), name)
					lw.results = append(lw.results, name)
					continue
				}
				lw.results = append(lw.results, id.Name)
				lw.own = append(lw.own, id)
			}
		}
	}
	for _, id := range lw.own {
		if r.lookup(id.Name, ret.Pos()) != r.info.Defs[id] {
			r.refuse(ret.Pos(), "a return in the body of a range-over-func loop, where the result "+id.Name+" is shadowed")
			return nil, false
		}
	}
	return lw.results, true
}

// lookup returns the object that name means at pos, or nil.
func (r *rewriter) lookup(name string, pos token.Pos) types.Object {
	scope := r.pkg.Scope().Innermost(pos)
	if scope == nil {
		return nil
	}
	_, obj := scope.LookupParent(name, pos)
	return obj
}

// finish writes the edits of l, whose body is lowered: its head, on the
// line of its for, and its end, with the exits it takes, on the line of
// its closing brace.
func (lw *lowering) finish(l *rangeLoop) {
	r := lw.r
	s := l.stmt
	params, ok := lw.yieldParams(s)
	if !ok {
		return
	}
	var head strings.Builder
	head.WriteString("{ ")
	if l == lw.root && lw.defers != "" {
		// A pointer, new at each run of the loop and never changed:
		// yaegi v0.16.1 keeps a deferred call's arguments, and a
		// deferred literal's variables, where a later run of the same
		// code writes them again.
		fmt.Fprintf(&head, "%s := new([]func()); defer %s.Deferred(%s); ", lw.defers, cell.RuntimeName, lw.defers)
	}
	fmt.Fprintf(&head, "var %s = %d; ", l.state, cell.RangeReady)
	if len(l.exits) > 0 {
		fmt.Fprintf(&head, "var %s int; ", l.exit)
	}
	names := make([]string, len(params))
	for i := range names {
		names[i] = "_"
	}
	vars := []ast.Expr{s.Key, s.Value}
	// The function is called through a variable: yaegi v0.16.1 fails to
	// call a parenthesized name, (f)(…).
	f := r.temp()
	enter := fmt.Sprintf("if %s != %d { %s.RangeState(&%s) }; %s = %d; ", l.state, cell.RangeReady, cell.RuntimeName, l.state, l.state, cell.RangePanic)
	switch {
	case s.Tok == token.DEFINE:
		for i, v := range vars[:len(params)] {
			if v != nil {
				names[i] = v.(*ast.Ident).Name
			}
		}
		r.replace(s.For, s.X.Pos(), head.String()+f+" := ")
	case s.Key != nil:
		// k, v = p1, p2 in a literal of its own, where k and v are written.
		set := r.temp()
		var setParams, args []string
		last := s.Key
		for i, v := range vars[:len(params)] {
			if v != nil {
				names[i] = r.temp()
				setParams = append(setParams, names[i]+" "+params[i])
				args = append(args, names[i])
				last = v
			}
		}
		r.replace(s.For, s.Key.Pos(), head.String()+set+" := func("+strings.Join(setParams, ", ")+") { ")
		r.replace(last.End(), s.X.Pos(), " = "+strings.Join(args, ", ")+" }; "+f+" := ")
		enter += set + "(" + strings.Join(args, ", ") + "); "
	default:
		r.replace(s.For, s.X.Pos(), head.String()+f+" := ")
	}
	for i := range params {
		params[i] = names[i] + " " + params[i]
	}
	r.replace(s.X.End(), s.Body.Lbrace+1, "; "+f+"(func("+strings.Join(params, ", ")+") bool { "+enter)
	var end strings.Builder
	// The body's last statement may end on the brace's line, where no
	// newline ends it.
	fmt.Fprintf(&end, "; %s = %d; return true }); ", l.state, cell.RangeReady)
	fmt.Fprintf(&end, "if %s == %d { %s = %d; %s.RangeState(&%s) }; ", l.state, cell.RangePanic, l.state, cell.RangeMissingPanic, cell.RuntimeName, l.state)
	fmt.Fprintf(&end, "%s = %d; ", l.state, cell.RangeExhausted)
	for i, e := range l.exits {
		fmt.Fprintf(&end, "if %s == %d { %s }; ", l.exit, i+1, e.then)
	}
	end.WriteString("}")
	r.replace(s.Body.Rbrace, s.Body.Rbrace+1, end.String())
}

// yieldParams returns the types of the parameters of the yield function
// of s, as the cell writes them, or refuses.
func (lw *lowering) yieldParams(s *ast.RangeStmt) ([]string, bool) {
	r := lw.r
	sig, _ := r.info.TypeOf(s.X).Underlying().(*types.Signature)
	var yield *types.Signature
	if sig != nil && sig.Params().Len() == 1 {
		yield, _ = sig.Params().At(0).Type().Underlying().(*types.Signature)
	}
	if yield == nil {
		r.refuse(s.Pos(), "range over a function of type "+types.TypeString(r.info.TypeOf(s.X), types.RelativeTo(r.pkg)))
		return nil, false
	}
	var params []string
	for i := range yield.Params().Len() {
		t, ok := lw.typeText(yield.Params().At(i).Type(), s.Pos(), "range over a function whose yield takes a")
		if !ok {
			return nil, false
		}
		params = append(params, t)
	}
	return params, true
}

// typeText writes t as the code at pos can: its packages as the session
// or the cell imports them, its types of the cell as they are named at
// pos. If it cannot, it refuses what, which t completes, and returns
// false.
func (lw *lowering) typeText(t types.Type, pos token.Pos, what string) (string, bool) {
	r := lw.r
	text, ok := r.writable(t, pos)
	if !ok {
		_, imports := r.typeFor(t)
		why := ""
		if len(imports) > 0 {
			why = " (import " + strings.Join(slices.Sorted(maps.Keys(imports)), ", ") + ")"
		}
		r.refuse(pos, what+" "+types.TypeString(t, types.RelativeTo(r.pkg))+", which the cell cannot write here"+why)
	}
	return text, ok
}

// deferStmt lowers d, a defer in a body: its function, or the receiver
// of its method, and its arguments are evaluated into variables of their
// own, and a call of them appended to the function's list of deferred
// calls (see lowering).
func (lw *lowering) deferStmt(d *ast.DeferStmt) {
	r := lw.r
	if lw.top {
		r.refuse(d.Pos(), "a defer in a range-over-func loop at the top level of a cell (it would run at the end of its statement, not of the cell; put it in a function)")
		return
	}
	if why := lw.deferRefusal(d.Call); why != "" {
		r.refuse(d.Pos(), why+" in the body of a range-over-func loop (the interpreter runs the body's deferred calls from a list, where recover would not stop a panic)")
		return
	}
	if lw.defers == "" {
		lw.defers = r.temp()
	}
	call := d.Call
	callee, check, ok := lw.deferredCallee(d)
	if !ok {
		return
	}
	from, sep := call.Fun.End(), "; "
	if callee == "" { // a builtin, named in the call
		callee = ast.Unparen(call.Fun).(*ast.Ident).Name
		from, sep = d.Pos(), "{ "
	}
	sig, _ := r.info.TypeOf(call.Fun).Underlying().(*types.Signature)
	var args []string
	for i, a := range call.Args {
		if tuple, ok := r.info.TypeOf(a).(*types.Tuple); ok {
			var names []string
			for range tuple.Len() {
				names = append(names, r.temp())
			}
			r.replace(from, a.Pos(), sep+strings.Join(names, ", ")+" := ")
			args = append(args, names...)
		} else {
			// Of the parameter's type, which an untyped argument takes.
			t, ok := lw.typeText(paramType(sig, i, call.Ellipsis.IsValid()), d.Pos(), "a deferred call, in the body of a range-over-func loop, with a parameter of type")
			if !ok {
				return
			}
			name := r.temp()
			r.replace(from, a.Pos(), sep+"var "+name+" "+t+" = ")
			args = append(args, name)
		}
		from, sep = a.End(), "; "
	}
	if call.Ellipsis.IsValid() {
		args[len(args)-1] += "..."
	}
	r.replace(from, call.Rparen+1, fmt.Sprintf("%s%s*%s = append(*%s, func() { %s(%s) }) }", sep, check, lw.defers, lw.defers, callee, strings.Join(args, ", ")))
}

// deferredCallee writes the evaluation of what d, a defer in a body,
// calls, and returns how the list's call names it: the variable that
// holds the function, or for a method the variable that holds its
// receiver (as Go evaluates it: the value, or its address for a method
// of a pointer, through the embedded fields it is promoted from) and the
// method's name; "" for a builtin. check is what then checks that an
// interface holding no value fails there, as Go's method value does.
func (lw *lowering) deferredCallee(d *ast.DeferStmt) (callee, check string, ok bool) {
	r := lw.r
	fun := ast.Unparen(d.Call.Fun)
	if id, isIdent := fun.(*ast.Ident); isIdent {
		if _, builtin := r.info.Uses[id].(*types.Builtin); builtin {
			return "", "", true
		}
	}
	name := r.temp()
	se, isSel := fun.(*ast.SelectorExpr)
	sel := r.info.Selections[se]
	if !isSel || sel == nil || sel.Kind() != types.MethodVal {
		r.replace(d.Pos(), d.Call.Fun.Pos(), "{ "+name+" := ")
		return name, "", true
	}
	path, t := "", sel.Recv()
	for _, i := range sel.Index()[:len(sel.Index())-1] {
		st, _ := derefType(t).Underlying().(*types.Struct)
		field := st.Field(i)
		if !field.Exported() && field.Pkg() != r.pkg {
			r.refuse(d.Pos(), "a deferred call, in the body of a range-over-func loop, of a method promoted from the unexported field "+field.Name())
			return "", "", false
		}
		path += "." + field.Name()
		t = field.Type()
	}
	prefix := ""
	_, isPtr := types.Unalias(t).(*types.Pointer)
	_, wantsPtr := types.Unalias(sel.Obj().Type().(*types.Signature).Recv().Type()).(*types.Pointer)
	switch {
	case types.IsInterface(t):
		check = "_ = " + name + "." + se.Sel.Name + "; "
	case wantsPtr && !isPtr:
		prefix = "&"
	case !wantsPtr && isPtr:
		prefix = "*"
	}
	r.replace(d.Pos(), se.X.Pos(), "{ "+name+" := "+prefix)
	r.replace(se.X.End(), d.Call.Fun.End(), path)
	return name + "." + se.Sel.Name, check, true
}

// derefType is t, or what t points to.
func derefType(t types.Type) types.Type {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// paramType is the type of the parameter of sig that argument i of a
// call takes; spread is set for a call with ... after its last.
func paramType(sig *types.Signature, i int, spread bool) types.Type {
	n := sig.Params().Len()
	if !sig.Variadic() || i < n-1 {
		return sig.Params().At(i).Type()
	}
	last := sig.Params().At(n - 1).Type()
	if spread {
		return last
	}
	return last.(*types.Slice).Elem()
}

// deferRefusal returns why a deferred call in a body is refused: its
// function may call recover, which does not stop a panic when the call
// runs from the function's list (see deferStmt); or "". A function of a
// compiled package is not interpreted, and an interface's method could
// recover only through a method of the cells that does.
func (lw *lowering) deferRefusal(call *ast.CallExpr) string {
	r := lw.r
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.FuncLit:
		if r.callsRecover(f.Body) {
			return "a deferred function literal that calls recover"
		}
		return ""
	case *ast.Ident:
		switch obj := r.info.Uses[f].(type) {
		case *types.Builtin:
			if obj.Name() == "recover" {
				return "a defer of recover"
			}
			return ""
		case *types.Func:
			return lw.funcRefusal(obj)
		}
	case *ast.SelectorExpr:
		sel, ok := r.info.Selections[f]
		switch {
		case !ok:
			if obj, ok := r.info.Uses[f.Sel].(*types.Func); ok {
				return lw.funcRefusal(obj) // a package's function
			}
		case sel.Kind() == types.FieldVal:
		case types.IsInterface(sel.Recv()):
			for _, d := range r.file.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil && fd.Name.Name == f.Sel.Name && fd.Body != nil && r.callsRecover(fd.Body) {
					return "a deferred call of the method " + f.Sel.Name + ", which a method of the cells that calls recover may be"
				}
			}
			return ""
		default:
			return lw.funcRefusal(sel.Obj().(*types.Func))
		}
	}
	return "a deferred call of the function value " + r.source(call.Fun) + ", which may call recover"
}

// funcRefusal returns why a deferred call of fn in a body is refused: fn
// is a function or method of the cells that calls recover; or "".
func (lw *lowering) funcRefusal(fn *types.Func) string {
	r := lw.r
	if fn.Pkg() != r.pkg {
		return ""
	}
	for _, d := range r.file.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && r.info.Defs[fd.Name] == fn {
			if fd.Body != nil && r.callsRecover(fd.Body) {
				return "a deferred call of " + fn.Name() + ", which calls recover"
			}
			return ""
		}
	}
	return "a deferred call of " + fn.Name() + ", whose declaration is not at hand"
}

// callsRecover reports whether body, outside its function literals,
// calls the builtin recover.
func (r *rewriter) callsRecover(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok {
				if b, ok := r.info.Uses[id].(*types.Builtin); ok && b.Name() == "recover" {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// enclosingFunc returns the type and body of the innermost function n
// is in, and whether it is a cell's top level: the function of the
// checked file that holds the cell's statements.
func (r *rewriter) enclosingFunc(n ast.Node) (*ast.FuncType, *ast.BlockStmt, bool) {
	var typ *ast.FuncType
	var body *ast.BlockStmt
	var decl *ast.FuncDecl
	ast.Inspect(r.file, func(m ast.Node) bool {
		if m == nil || m.Pos() > n.Pos() || m.End() < n.End() {
			return false
		}
		switch m := m.(type) {
		case *ast.FuncDecl:
			typ, body, decl = m.Type, m.Body, m
		case *ast.FuncLit:
			typ, body, decl = m.Type, m.Body, nil
		}
		return true
	})
	top := false
	if decl != nil {
		for _, sp := range r.cc.File.Spans {
			for _, s := range sp.Nodes {
				if _, ok := s.(ast.Stmt); ok && decl.Body.Pos() <= s.Pos() && s.End() <= decl.Body.End() {
					top = true
				}
			}
		}
	}
	return typ, body, top
}

// labelsIn returns the labeled statements of body, a function's, by
// label, but not those of the function literals inside.
func labelsIn(body *ast.BlockStmt) map[string]*ast.LabeledStmt {
	labels := map[string]*ast.LabeledStmt{}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.LabeledStmt:
			labels[n.Label.Name] = n
		}
		return true
	})
	return labels
}

// replace replaces the file's text from from to to with text, and the
// line breaks it held, so that the lines after stay where they were.
func (r *rewriter) replace(from, to token.Pos, text string) {
	f, t := r.offset(from), r.offset(to)
	r.edits = append(r.edits, edit{from: f, to: t, text: text + strings.Repeat("\n", strings.Count(r.src[f:t], "\n"))})
}
