package rewrite

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/interp/cell"
	"github.com/tensornb/tensornb/kernel/internal/interp/check"
)

// A rewriter turns what yaegi v0.16.1 would run differently from Go 1.22+
// into code it runs right, as text edits of the checked file, and refuses
// what it cannot rewrite faithfully:
//
//   - `for i := range n` over an integer becomes a three-clause loop;
//   - min and max of ordered basic types become their constant value, or a
//     call of a function literal with Go's rules for NaN and signed zeros;
//   - a loop variable captured by a closure gets a copy per iteration (Go
//     1.22's semantics; yaegi shares one variable, so closures would all
//     see its last value), unless the loop body changes it: refused;
//   - an untyped nil among the values of an assignment of several gets
//     the type it is assigned to (yaegi panics on it);
//   - a type switch with a case of an interface type, which yaegi
//     matches wrongly, becomes a switch of type assertions
//     (typeswitch.go);
//   - a comparison of an interface value with a value of a type the
//     cells declared, which yaegi gets wrong, becomes a type assertion
//     and a comparison of values (compare.go), and a switch of a tag of
//     an interface type and values of others, or the other way round,
//     one of comparisons (exprswitch.go);
//   - range over a function becomes a call of the function with the
//     loop's body as a function literal, the yield function, with Go's
//     rules for break, continue, return, defer and the iterator's misuse
//     (rangefunc.go), or is refused where it cannot be;
//   - clear, new of a value, recover, and len and cap of a pointer to
//     an array are lowered (builtins.go), and
//     the cells' values passed to a compiled ...error wrapped
//     (variadic.go);
//   - an assertion to an interface type that the value is taken from
//     asserts to each of the cells' types that implement it first, and
//     checks for a nil value before (assert.go): yaegi panics or gives
//     nil;
//   - a call's result passed to an interpreted function's parameter of
//     an interface type with methods goes in parentheses, and f(g()) is
//     refused where yaegi spreads g's results wrongly (callargs.go);
//   - a comma-ok value not of an interface type, assigned to a variable
//     of one, comes from a function literal that returns it as the
//     interface (commaok.go): yaegi sets nil or fails;
//   - a composite literal among the values of a definition of several
//     variables goes in parentheses (parallel.go): yaegi loses the value
//     of a call beside it; so does a call among the values of an
//     assignment of several, which otherwise leaves the variables of the
//     other values as they were;
//   - named results start at their zero values (results.go): yaegi may
//     start them with the value of what the call is assigned to;
//   - a function value returned is converted to the result's type
//     (funcreturn.go): yaegi returns its record of the function;
//   - the method of a conversion to an interface type takes the
//     converted value as a function's argument (convmethod.go), a
//     method promoted from an embedded interface is selected through
//     the fields (promoted.go): yaegi panics;
//   - a composite literal assigned to a field or an element of an
//     interface type is converted to it first (literalassign.go): yaegi
//     panics;
//   - a receive that is a result of a return or the value of an
//     assignment goes in parentheses (receive.go), a select's case that
//     receives into existing variables receives into its own
//     (selectrecv.go), and the make of a channel type of one direction
//     becomes a conversion (makechan.go): yaegi panics on all three; a
//     select that receives a value and ok from a channel that is not a
//     variable, on which yaegi blocks forever, has its operands
//     evaluated first (selecthoist.go);
//   - func main is renamed (mainfunc.go), errors.As walks the error's
//     tree in interpreted code (errors.go), a method expression becomes
//     a function literal (methodexpr.go);
//   - a function type that names itself as its only result, or a
//     channel type as its element, which yaegi cannot build, gets any
//     there, and its values are converted going in and asserted coming
//     out (recursive.go); one that names itself elsewhere is refused;
//   - in struct types that refer to each other, one to itself too, which
//     yaegi builds wrongly, a field that points to another of them is
//     declared as any, and its values put in and taken out (mutual.go);
//   - generic declarations, generic functions or types of compiled
//     packages (which package lower leaves none of), and log.Lshortfile
//     and log.Llongfile are refused.
//
// It also marks the code for the frames of a panic (instrument.go) and
// guards constant indexes (bounds.go).
type rewriter struct {
	cc        *check.Cell
	src       string    // the checked file
	file      *ast.File // as parsed, the session's declarations too
	info      *types.Info
	fset      *token.FileSet
	pkg       *types.Package
	qualifier types.Qualifier

	edits   []edit
	temps   int
	refusal *cell.Unsupported
	// rangeFuncs are the range-over-func loops lowered (rangefunc.go).
	rangeFuncs map[*ast.RangeStmt]bool

	// What instrument found: sites go to sites, in running, the cell.
	sites   *cell.Sites
	running *cell.Source
	// litFuncs are the functions of the cell's function literals;
	// unitSite the sites of its top-level statements and var
	// declarations; lineVars the variables the marks write.
	litFuncs map[*ast.FuncLit]*cell.Func
	unitSite map[ast.Node]int
	lineVars map[string]bool
	// asserted are the type assertions rewritten (assert.go).
	asserted map[*ast.TypeAssertExpr]bool
	// selfTyped are the function types looked at for a result that names
	// its type, and dropped the calls and receives whose values are
	// dropped (recursive.go).
	selfTyped map[*ast.FuncType]bool
	dropped   map[ast.Node]bool
	// boxed are the fields of struct types declared as any, and written
	// the selectors of such fields that assignments write (mutual.go).
	boxed   boxes
	written map[*ast.SelectorExpr]bool
	// comms are the assignments of select cases rewritten
	// (selectrecv.go).
	comms map[*ast.AssignStmt]bool
	// hoisted are the selects whose operands are evaluated first
	// (selecthoist.go).
	hoisted []*ast.SelectStmt
	// initAt are the package-level variables' places in Go's
	// initialization order (initorder.go).
	initAt map[*types.Var]int
	// late are edits that wrap an expression a statement may start with
	// (x.(I).M(), x == v): they go after the marks instrument inserts
	// before the statement, where they would otherwise come first.
	late []edit
	// marked says, of each function the cell declares, whether its
	// statements are marked (not if it runs on goroutines).
	marked map[*ast.FuncDecl]bool
	// concurrent are the functions go statements of the cell reach, and
	// redeclare the session's among them, by cell.FuncName.
	concurrent map[*ast.FuncDecl]bool
	redeclare  []string
	// session are the session's types, as twins.go and nested.go look
	// at them, once a cell.
	session *sessionTypes
}

// Steps rewrites cc, a cell the checker passed, and returns the steps
// that run it, or the refusal of what cannot be rewritten. The sites of
// its code that the rewrite marks go to sites, naming source, the cell
// as it ran.
func Steps(cc *check.Cell, sites *cell.Sites, source *cell.Source) ([]cell.Step, error) {
	r, err := rewrite(cc, sites, source)
	if err != nil {
		return nil, err
	}
	return r.steps(), nil
}

// rewrite finds, in the cell's declarations and statements, what yaegi
// would run differently from Go, and returns the rewriter that holds the
// edits that make it run as Go does, or the refusal of what cannot be
// rewritten.
func rewrite(cc *check.Cell, sites *cell.Sites, source *cell.Source) (*rewriter, error) {
	r := &rewriter{cc: cc, src: cc.File.Src, file: cc.File.Parsed, info: cc.Info, fset: cc.FileSet(), pkg: cc.Pkg, qualifier: cc.Qualifier(),
		sites: sites, running: source,
		litFuncs: map[*ast.FuncLit]*cell.Func{}, asserted: map[*ast.TypeAssertExpr]bool{}, selfTyped: map[*ast.FuncType]bool{}, dropped: map[ast.Node]bool{}, written: map[*ast.SelectorExpr]bool{}, unitSite: map[ast.Node]int{}, lineVars: map[string]bool{}, marked: map[*ast.FuncDecl]bool{}}
	for _, s := range cc.File.Spans {
		for _, n := range s.Nodes {
			r.walk(n)
		}
	}
	if r.refusal != nil {
		return nil, r.refusal
	}
	r.sortEdits() // for the guards, which apply them
	r.instrument(cc.File.Spans)
	r.edits = append(r.edits, r.late...)
	r.sortEdits()
	r.hoistOperands()
	if r.refusal != nil {
		return nil, r.refusal
	}
	return r, nil
}

// cellLine returns the cell line of pos, if it is in one of the cell's
// units.
func (r *rewriter) cellLine(pos token.Pos) (int, bool) { return r.cc.File.LineOf(pos) }

// An edit replaces the file's bytes [from, to) with text. A mark is an
// edit of instrument's that writes a site, which code that runs on
// goroutines goes without.
type edit struct {
	from, to int
	text     string
	mark     bool
}

// refuse refuses what is at pos, unless an earlier refusal stands.
func (r *rewriter) refuse(pos token.Pos, what string) {
	if r.refusal == nil {
		line, _ := r.cellLine(pos)
		r.refusal = &cell.Unsupported{Line: line, What: what}
	}
}

// offset is the byte offset of p in the checked file.
func (r *rewriter) offset(p token.Pos) int { return r.fset.Position(p).Offset }

// source is the text of n as written in the checked file.
func (r *rewriter) source(n ast.Node) string { return r.src[r.offset(n.Pos()):r.offset(n.End())] }

// writable returns t as the code at pos can write it, and whether it
// can: without a package the cell does not import, and with no type of
// the cell's that another declared inside a function hides at pos.
func (r *rewriter) writable(t types.Type, pos token.Pos) (string, bool) {
	text, imports := r.typeFor(t)
	ok := text != "" && len(imports) == 0
	cell.InspectType(t, func(t types.Type) bool {
		if n, named := t.(*types.Named); named && n.Obj().Pkg() == r.pkg && r.lookup(n.Obj().Name(), pos) != n.Obj() {
			ok = false
		}
		return ok
	})
	return text, ok
}

// typeFor is the cell's TypeFor of t, and the packages it would import.
func (r *rewriter) typeFor(t types.Type) (string, map[string]string) {
	imports := map[string]string{}
	return r.cc.TypeFor(t, imports), imports
}

// temp returns a new name for a variable of the rewriter's own.
func (r *rewriter) temp() string {
	r.temps++
	return fmt.Sprintf("tensornbN%d", r.temps)
}

// walk looks for what needs rewriting in n.
func (r *rewriter) walk(n ast.Node) {
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if n.Type.TypeParams != nil {
				r.refuse(n.Pos(), "the generic function "+n.Name.Name)
			}
			r.namedResults(n.Type, n.Body)
			if fn, ok := r.info.Defs[n.Name].(*types.Func); ok {
				r.selfFuncType(n.Type, fn.Type().(*types.Signature), n.Body)
				r.funcResults(n.Type, fn.Type().(*types.Signature), n.Body)
			}
		case *ast.TypeSpec:
			if n.TypeParams != nil {
				r.refuse(n.Pos(), "the generic type "+n.Name.Name)
			}
			r.recursiveType(n)
		case *ast.Ident:
			r.mainIdent(n)
			if inst, ok := r.info.Instances[n]; ok {
				if obj := r.info.Uses[n]; obj != nil && obj.Pkg() != nil && obj.Pkg() != r.pkg {
					r.refuse(n.Pos(), fmt.Sprintf("%s.%s, a generic %s of a compiled package (instantiated as %s)", obj.Pkg().Name(), obj.Name(), kindOf(obj), types.TypeString(inst.Type, r.qualifier)))
				}
			}
		case *ast.SelectorExpr:
			r.unsafePointer(n)
			r.methodExpr(n)
			r.convertedReceiver(n)
			r.promotedFromInterface(n)
			r.logFlags(n)
			// A name of a compiled package that yaegi's copy lacks: its
			// standard library is Go 1.22's, go/types knows the newer one.
			if x, ok := n.X.(*ast.Ident); ok {
				if pkg, ok := r.info.Uses[x].(*types.PkgName); ok && !r.cc.HasSymbol(pkg.Imported().Path(), n.Sel.Name) {
					if _, generic := r.info.Instances[n.Sel]; !generic {
						r.refuse(n.Pos(), fmt.Sprintf("%s.%s, which the interpreter's copy of package %s lacks (it has Go 1.22's standard library)", x.Name, n.Sel.Name, pkg.Imported().Path()))
					}
				}
			}
		case *ast.RangeStmt:
			r.rangeStmt(n)
		case *ast.ForStmt:
			if init, ok := n.Init.(*ast.AssignStmt); ok && init.Tok == token.DEFINE {
				r.captured(n.Body, cell.Idents(init.Lhs))
			}
		case *ast.CallExpr:
			r.unsafePointer(n)
			r.nestedMethods(n)
			r.selfCall(n)
			r.minMax(n)
			r.makeDirectional(n)
			r.errorsAs(n)
			r.builtinCall(n)
			r.variadicArgs(n)
			r.callArgs(n)
		case *ast.CommClause:
			r.selectAssign(n)
		case *ast.SelectStmt, *ast.LabeledStmt:
			r.selectOperands(n.(ast.Stmt))
		case *ast.ReturnStmt:
			r.receiveInPlace(n)
		case *ast.AssignStmt:
			r.receiveInPlace(n)
			r.nilAssign(n)
			r.assertion(n)
			r.commaOk(n)
			r.literalToInterface(n)
			if n.Tok == token.DEFINE {
				r.parallelLiterals(n.Rhs)
			}
			r.parallelCalls(n)
		case *ast.ValueSpec:
			r.assertion(n)
			r.commaOk(n)
			r.parallelLiterals(n.Values)
		case *ast.TypeAssertExpr:
			if n.Type != nil {
				r.ambiguousAssertion(n.X, n.Type)
			}
			r.valueAssertion(n)
		case *ast.TypeSwitchStmt:
			r.ambiguousSwitch(n)
			r.typeSwitch(n)
		case *ast.SwitchStmt:
			r.ambiguousTag(n)
			r.exprSwitch(n)
		case *ast.BinaryExpr:
			if n.Op == token.EQL || n.Op == token.NEQ {
				r.ambiguousComparison(n.OpPos, n.X, n.Y)
			}
			r.compare(n)
		case *ast.CompositeLit:
			r.ambiguousKeys(n)
			r.mapLiteral(n)
		case *ast.IndexExpr:
			r.ambiguousKeys(n)
		case *ast.FuncLit:
			r.namedResults(n.Type, n.Body)
			sig, _ := r.info.TypeOf(n).(*types.Signature)
			if sig != nil {
				r.selfFuncType(n.Type, sig, n.Body)
			}
			r.funcResults(n.Type, sig, n.Body)
		}
		r.selfTypes(n)
		r.boxedFields(n)
		return true
	})
}

// kindOf names the kind of a generic obj: a type or a function.
func kindOf(obj types.Object) string {
	if _, ok := obj.(*types.TypeName); ok {
		return "type"
	}
	return "function"
}

// rangeStmt rewrites range over an integer, with a variable per
// iteration, and lowers range over a function (rangefunc.go), whose loop
// variables are the yield function's parameters; the defined loop
// variables of other ranges get per-iteration copies when closures
// capture them.
func (r *rewriter) rangeStmt(n *ast.RangeStmt) {
	tv := r.info.Types[n.X]
	under := tv.Type
	if under != nil {
		under = under.Underlying()
	}
	if _, ok := under.(*types.Signature); ok {
		r.rangeFunc(n)
		return
	}
	var defined []*ast.Ident
	if n.Tok == token.DEFINE {
		defined = cell.Idents([]ast.Expr{n.Key, n.Value})
	}
	if b, ok := under.(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
		if n.Tok == token.ASSIGN {
			r.refuse(n.Pos(), "range over an integer into an existing variable (for i = range n)")
			return
		}
		typ := "int"
		if b.Info()&types.IsUntyped == 0 {
			typ = types.TypeString(tv.Type, r.qualifier)
		}
		// A counter of our own, and the loop variable a copy of it made
		// in the body: changes to the variable then leave the iteration
		// alone, and closures get one per iteration, as in Go.
		i, limit := r.temp(), r.temp()
		r.edits = append(r.edits,
			edit{r.offset(n.For), r.offset(n.X.Pos()), fmt.Sprintf("for %s, %s := %s(0), %s(", i, limit, typ, typ), false},
			edit{r.offset(n.X.End()), r.offset(n.Body.Lbrace), fmt.Sprintf("); %s < %s; %s++ ", i, limit, i), false})
		if len(defined) == 1 {
			at := r.offset(n.Body.Lbrace) + 1
			r.edits = append(r.edits, edit{at, at, fmt.Sprintf(" %s := %s; _ = %s;", defined[0].Name, i, defined[0].Name), false})
		}
		return
	}
	if n.Tok == token.ASSIGN {
		r.rangeAssign(n)
		return
	}
	r.captured(n.Body, defined)
}

// rangeAssign rewrites a range loop into existing variables (for i, x[i]
// = range y) into one that defines variables of its own and assigns them
// at the start of each iteration, as Go does: yaegi v0.16.1 assigns them
// later, and a loop that breaks at once leaves them as they were.
func (r *rewriter) rangeAssign(n *ast.RangeStmt) {
	var lhs, temps []string
	for _, e := range []ast.Expr{n.Key, n.Value} {
		if e == nil {
			continue
		}
		if id, ok := e.(*ast.Ident); ok && id.Name == "_" {
			temps = append(temps, "_")
			continue
		}
		t := r.temp()
		temps = append(temps, t)
		lhs = append(lhs, r.source(e))
	}
	if len(lhs) == 0 {
		return
	}
	var vals []string
	for _, t := range temps {
		if t != "_" {
			vals = append(vals, t)
		}
	}
	r.edits = append(r.edits, edit{r.offset(n.Key.Pos()), r.offset(n.TokPos) + len(n.Tok.String()), strings.Join(temps, ", ") + " :=", false})
	at := r.offset(n.Body.Lbrace) + 1
	r.edits = append(r.edits, edit{at, at, fmt.Sprintf(" %s = %s;", strings.Join(lhs, ", "), strings.Join(vals, ", ")), false})
}

// captured gives the loop variables vars a copy per iteration if a closure
// in body refers to one, and refuses if the body also changes it.
func (r *rewriter) captured(body *ast.BlockStmt, vars []*ast.Ident) {
	objs := map[types.Object]*ast.Ident{}
	for _, v := range vars {
		if obj := r.info.Defs[v]; obj != nil {
			objs[obj] = v
		}
	}
	if len(objs) == 0 {
		return
	}
	// The uses of the loop variables inside closures, and their addresses
	// taken: both outlive the iteration.
	uses := map[types.Object][]*ast.Ident{}
	use := func(e ast.Expr) {
		if id, ok := e.(*ast.Ident); ok {
			if obj := r.info.Uses[id]; obj != nil && objs[obj] != nil {
				uses[obj] = append(uses[obj], id)
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			ast.Inspect(n.Body, func(n ast.Node) bool {
				if e, ok := n.(ast.Expr); ok {
					use(e)
				}
				return true
			})
			return false
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				use(n.X)
			}
		}
		return true
	})
	if len(uses) == 0 {
		return
	}
	changed := map[types.Object]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		var targets []ast.Expr
		switch n := n.(type) {
		case *ast.AssignStmt:
			targets = n.Lhs
		case *ast.IncDecStmt:
			targets = []ast.Expr{n.X}
		}
		for _, t := range targets {
			if id, ok := t.(*ast.Ident); ok {
				if obj := r.info.Uses[id]; obj != nil && uses[obj] != nil {
					changed[obj] = true
				}
			}
		}
		return true
	})
	// Each captured variable gets a copy made at the top of the body, and
	// the closures use the copy. (A copy under the same name, i := i, makes
	// yaegi v0.16.1 loop forever or read wrong values.)
	objsInOrder := make([]types.Object, 0, len(uses))
	for obj := range uses {
		objsInOrder = append(objsInOrder, obj)
	}
	sort.Slice(objsInOrder, func(i, j int) bool { return objsInOrder[i].Pos() < objsInOrder[j].Pos() })
	var copies []string
	for _, obj := range objsInOrder {
		if changed[obj] {
			r.refuse(objs[obj].Pos(), fmt.Sprintf("the loop variable %s, which a closure or a pointer captures and the loop body changes (Go gives each iteration its own copy; the interpreter shares one)", obj.Name()))
			return
		}
		cp := r.temp()
		copies = append(copies, fmt.Sprintf(" %s := %s;", cp, obj.Name()))
		for _, id := range uses[obj] {
			r.edits = append(r.edits, edit{r.offset(id.Pos()), r.offset(id.End()), cp, false})
		}
	}
	at := r.offset(body.Lbrace) + 1
	r.edits = append(r.edits, edit{at, at, strings.Join(copies, ""), false})
}

// minMax replaces a call of the builtin min or max.
func (r *rewriter) minMax(call *ast.CallExpr) {
	id, ok := call.Fun.(*ast.Ident)
	if !ok {
		return
	}
	if _, builtin := r.info.Uses[id].(*types.Builtin); !builtin || (id.Name != "min" && id.Name != "max") {
		return
	}
	tv := r.info.Types[call]
	typ := types.TypeString(tv.Type, r.qualifier)
	if tv.Value != nil {
		// A constant: its value, of its kind (min(1, 2.5) is the untyped
		// float 1.0, not the integer 1).
		text := "(" + cell.ConstLiteral(tv.Value, tv.Type) + ")"
		if b, ok := tv.Type.(*types.Basic); !ok || b.Info()&types.IsUntyped == 0 {
			text = typ + text
		}
		r.edits = append(r.edits, edit{r.offset(call.Pos()), r.offset(call.End()), text, false})
		return
	}
	b, _ := tv.Type.Underlying().(*types.Basic)
	if b == nil || b.Info()&types.IsOrdered == 0 {
		r.refuse(call.Pos(), id.Name+" of "+typ)
		return
	}
	better := "v < m"
	if id.Name == "max" {
		better = "v > m"
	}
	var body string
	if b.Info()&types.IsFloat != 0 {
		// Go's min and max: NaN wins; of two zeros, min is -0 and max +0.
		zero := "1/v < 0"
		if id.Name == "max" {
			zero = "1/v > 0"
		}
		body = fmt.Sprintf("if m != m { return m }; for _, v := range vs { if v != v { return v }; if %s || (v == 0 && m == 0 && %s) { m = v } }; return m", better, zero)
	} else {
		body = fmt.Sprintf("for _, v := range vs { if %s { m = v } }; return m", better)
	}
	// Only the callee is replaced, so that edits inside the arguments stay.
	text := fmt.Sprintf("func(m %s, vs ...%s) %s { %s }(", typ, typ, typ, body)
	r.edits = append(r.edits, edit{r.offset(call.Fun.Pos()), r.offset(call.Lparen) + 1, text, false})
}

// sortEdits puts the edits in the order of where they start, insertions
// before replacements that start at the same place (a mark before the
// statement a rewrite replaces the start of), and otherwise in the order
// they were made in; apply needs it.
func (r *rewriter) sortEdits() {
	sort.SliceStable(r.edits, func(i, j int) bool {
		a, b := r.edits[i], r.edits[j]
		if a.from != b.from {
			return a.from < b.from
		}
		return a.from == a.to && b.from != b.to
	})
}

// apply returns src[from:to] with the edits inside it made. An edit inside
// one already made (an argument of a constant min) goes with it.
func (r *rewriter) apply(src string, from, to int) string { return r.applyEdits(src, from, to, true) }

// applyUnmarked is apply without the marks, for code that runs on
// goroutines.
func (r *rewriter) applyUnmarked(src string, from, to int) string {
	return r.applyEdits(src, from, to, false)
}

// applyEdits is apply, with the marks or without them.
func (r *rewriter) applyEdits(src string, from, to int, marks bool) string {
	var b strings.Builder
	at := from
	for i := sort.Search(len(r.edits), func(i int) bool { return r.edits[i].from >= from }); i < len(r.edits) && r.edits[i].from <= to; i++ {
		e := r.edits[i]
		if e.from < at || e.to > to || e.mark && !marks {
			continue // not inside, or inside an edit already made
		}
		b.WriteString(src[at:e.from])
		b.WriteString(e.text)
		at = e.to
	}
	b.WriteString(src[at:to])
	return b.String()
}
