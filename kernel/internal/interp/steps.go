package interp

import (
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/cells"
)

// A step is a piece of a cell for yaegi, rewritten where needed.
type step struct {
	kind stepKind
	text string
	// texts, if set, are what yaegi runs instead of text, one after the
	// other (see definitions).
	texts []string
	line  int // the cell line it starts on
	// decls are what the step declares for later cells, once it has run.
	decls []sessionDecl
	// imports are the imports the step adds, before it runs: path → name;
	// typeImports those only its variables' types need, path → alias.
	imports, typeImports map[string]string
	// interpreted is set on a result whose type involves types the cells
	// declared.
	interpreted bool

	// site is the site of a top-level statement or var declaration
	// (instrument.go), which the session writes as it runs a statement;
	// lineVars are the variables of frames that the cell's code writes,
	// to declare first.
	site     int
	lineVars []string
	// funcName names the function a step declares, and unmarked is its
	// text without marks if it has marks; redeclared names the session's
	// function that the step declares again without its marks.
	funcName, unmarked, redeclared string

	// textLine is the cell line that the text of a declaration of the
	// cell starts on (0 for an earlier cell's, declared again).
	textLine int
	// parts, if set, are the declarations whose texts the step's text
	// joins (see together), each committed as a step of its own once
	// the step has run; starts are the lines of text they start on.
	parts  []step
	starts []int
}

// A stepKind says what a step is, and so how it runs.
type stepKind int

const (
	importStep stepKind = iota
	declStep
	varStep // declares a var declaration's variables by type, without values
	stmtStep
	resultStep // the cell's last expression, which has a value
)

// steps returns the steps that run the cell, its edits (r's) made. Go
// lets a cell use a type, variable or function it declares further down,
// as a program may: imports run first, then types and constants, then
// the variables (declared with their types, not yet given their values),
// then functions, then the values of variables and the statements, in
// the order written. The types and constants are one step, and the
// functions another, so that each may use the others (see together);
// init functions, which run as they are declared, come after the other
// functions, which they may call, each a step of its own, so that a
// panic in one is at its line.
func (cc *checkedCell) steps(r *rewriter) []step {
	var steps []step
	if len(cc.auto) > 0 {
		imports := map[string]string{}
		for p := range cc.auto {
			if _, ok := cc.c.imports[p]; !ok {
				imports[p] = ""
			}
		}
		steps = append(steps, step{kind: importStep, line: 1, imports: imports})
	}
	imports := make(map[int]importUnit, len(cc.imports.units)) // by the offset of the unit in the cell
	for _, iu := range cc.imports.units {
		imports[iu.unit.Offset] = iu
	}
	spans := make(map[int]span, len(cc.file.spans))
	for _, s := range cc.file.spans {
		spans[s.unit.Offset] = s
	}
	// The session's functions that go statements now reach, declared
	// again without marks before the cell's functions, which may call
	// them.
	for _, name := range r.redeclare {
		if text, ok := cc.c.unmarked[name]; ok {
			steps = append(steps, step{kind: declStep, text: text, line: 1, redeclared: name})
		}
	}
	last := lastStatement(cc.units)
	for _, u := range cc.units {
		if isImport(u) {
			steps = append(steps, cc.importStep(imports[u.Offset]))
			continue
		}
		steps = append(steps, cc.unitSteps(spans[u.Offset], r, u.Offset == last.Offset)...)
	}
	lineVars := slices.Sorted(maps.Keys(r.lineVars))
	for i := range steps {
		steps[i].lineVars = lineVars
	}
	sort.SliceStable(steps, func(i, j int) bool { return steps[i].rank() < steps[j].rank() })
	return together(steps)
}

// importStep returns the step of an import unit: the imports it writes
// that the session does not have.
func (cc *checkedCell) importStep(iu importUnit) step {
	imports := map[string]string{}
	for _, is := range iu.specs {
		if _, ok := cc.c.imports[is.path]; !ok {
			imports[is.path] = cc.cellImports[is.path]
		}
	}
	return step{kind: importStep, line: iu.unit.CodeLine(), imports: imports}
}

// unitSteps returns the steps of the declaration or statement unit at
// sp; last is set for the cell's last statement, whose value, if it has
// one, is the cell's result.
func (cc *checkedCell) unitSteps(sp span, r *rewriter, last bool) []step {
	u := sp.unit
	st := step{kind: stmtStep, text: r.apply(cc.file.src, sp.offset, sp.offset+len(u.Text)), line: u.CodeLine()}
	for _, n := range sp.nodes {
		if site, ok := r.unitSite[n]; ok {
			st.site = site
			break
		}
		if fd, ok := n.(*ast.FuncDecl); ok {
			st.funcName = funcName(fd)
			if r.marked[fd] {
				st.unmarked = r.applyUnmarked(cc.file.src, sp.offset, sp.offset+len(u.Text))
			}
		}
	}
	if u.Declaration {
		st.kind = declStep
		st.textLine = u.Line
		st.decls = cc.declsOf(sp)
		st.texts, st.typeImports = cc.definitions(sp, r)
		if st.texts != nil {
			return splitVar(st)
		}
		return []step{st}
	}
	st.decls = cc.varsOf(sp)
	st.texts, st.typeImports = cc.definitions(sp, r)
	if st.texts != nil && cc.definesHoisted(sp) {
		// Declared with the cell's var declarations, before its
		// functions, which use them; given their values in order.
		return splitVar(st)
	}
	if last && hasValue(cc.info, sp) {
		st.kind = resultStep
		// The expression alone: a comment after it would swallow the
		// parenthesis that wraps it.
		st.text = r.apply(cc.file.src, sp.offset+u.CodeStart, sp.offset+u.CodeEnd)
		st.interpreted = involvesMain(resultType(cc.info, sp), cc.pkg)
	}
	return []step{st}
}

// definesHoisted reports whether the statement unit at sp defines a
// variable that the checker hoisted (see hoist).
func (cc *checkedCell) definesHoisted(sp span) bool {
	for _, n := range sp.nodes {
		if as, ok := n.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
			for _, id := range identsOf(as.Lhs) {
				if cc.hoisted[id.Name] {
					return true
				}
			}
		}
	}
	return false
}

// lastStatement returns the cell's last unit that is not a declaration:
// if it is an expression, its value is the cell's result, even when
// declarations follow it.
func lastStatement(units []cells.Unit) cells.Unit {
	for i := len(units) - 1; i >= 0; i-- {
		if !units[i].Declaration {
			return units[i]
		}
	}
	return cells.Unit{Offset: -1}
}

// splitVar splits the step of a var declaration, or of a definition
// whose variables the checker hoisted, into a varStep that declares its
// variables by type, which runs before the cell's functions (they may use
// the variables), and a step that gives them their values, in the cell's
// order (the values may call the functions).
func splitVar(st step) []step {
	declare, assign := st, st
	declare.kind, declare.texts = varStep, nil
	assign.texts, assign.decls, assign.typeImports = nil, nil, nil
	for _, t := range st.texts {
		if strings.HasPrefix(t, "var ") {
			declare.texts = append(declare.texts, t)
		} else {
			assign.texts = append(assign.texts, t)
		}
	}
	switch {
	case declare.texts == nil: // x := e, for a type no cell can write
		assign.decls, assign.typeImports = st.decls, st.typeImports
		return []step{assign}
	case assign.texts == nil:
		return []step{declare}
	}
	return []step{declare, assign}
}

// rank orders steps for running; see steps.
func (s step) rank() int {
	switch {
	case s.kind == importStep:
		return 0
	case s.kind == declStep && s.texts == nil && !strings.HasPrefix(strings.TrimSpace(stripComments(s.text)), "func"):
		return 1
	case s.kind == varStep:
		return 2
	case s.kind == declStep && s.texts == nil && s.funcName != "init":
		return 3
	case s.kind == declStep && s.texts == nil:
		return 4 // an init function, which runs as it is declared
	}
	return 5
}

// together joins into one step each run of declarations that yaegi
// must compile as one source for their names to reach one another: the
// cell's types and constants, its functions and methods, and the
// session's functions that it declares again without their marks.
// yaegi v0.16.1 compiles each evaluation on its own
// (Interpreter.CompileAST, program.go): its global type analysis
// (gtaRetry and gta, gta.go) registers the package-level names of the
// source, and adds each method to its type, before the function bodies
// are compiled (cfg.go), which look names and methods up as they are at
// that time. So a declaration finds another one only if an earlier
// evaluation declared it or the same source does.
func together(steps []step) []step {
	var out []step
	for _, st := range steps {
		if st.kind != declStep || st.texts != nil || st.rank() == 4 {
			out = append(out, st)
			continue
		}
		if n := len(out); n > 0 && out[n-1].parts != nil && joins(out[n-1].parts[0], st) {
			out[n-1].parts = append(out[n-1].parts, st)
			continue
		}
		out = append(out, step{kind: declStep, line: st.line, lineVars: st.lineVars, parts: []step{st}})
	}
	for i := range out {
		if out[i].parts != nil {
			out[i].text, out[i].starts = joinTexts(out[i].parts)
		}
	}
	return out
}

// joins reports whether the declaration steps a and b go in one step.
func joins(a, b step) bool {
	return a.rank() == b.rank() && (a.redeclared == "") == (b.redeclared == "")
}

// joinTexts writes the texts of parts, in their order, as one source in
// which each of the cell's starts on its own cell line: on the line where
// the one before it ends, after a space, if the cell has them so (the
// semicolon between them ends the first). An earlier cell's starts on a
// line of its own. It returns the source and the line each part starts
// on.
func joinTexts(parts []step) (string, []int) {
	var b strings.Builder
	line := 1 // the line b ends on
	starts := make([]int, len(parts))
	for i, p := range parts {
		switch {
		case p.textLine > line:
			b.WriteString(strings.Repeat("\n", p.textLine-line))
			line = p.textLine
		case i == 0:
		case p.textLine == line:
			b.WriteString(" ")
		default:
			b.WriteString("\n")
			line++
		}
		starts[i] = line
		b.WriteString(p.text)
		line += strings.Count(p.text, "\n")
	}
	return b.String(), starts
}

// cellLine returns the cell line of line n of a joined step's text, or 0
// if n is not on a line of the cell's declarations.
func (s step) cellLine(n int) int {
	for i := len(s.parts) - 1; i >= 0; i-- {
		if s.starts[i] <= n {
			if s.parts[i].textLine == 0 {
				return 0
			}
			return s.parts[i].textLine + n - s.starts[i]
		}
	}
	return 0
}

// definitions returns the statements yaegi runs for a var declaration
// unit, or for a statement unit that is a single x := e: each new
// variable declared with its type (var x T), then the values assigned
// (x = e). yaegi v0.16.1 gets some definitions wrong when it infers their
// types itself: x := e where e indexes a compiled package's slice type
// ("constant definition loop"), and a package-level var initialized from
// another ("variable definition loop"). It returns nil for other units,
// and imports lists packages the types need imported first.
func (cc *checkedCell) definitions(sp span, r *rewriter) (texts []string, imports map[string]string) {
	imports = map[string]string{}
	var out []string
	// valueText is the text of the values, as rewritten.
	valueText := func(values []ast.Expr) string {
		return r.apply(r.src, r.offset(values[0].Pos()), r.offset(values[len(values)-1].End()))
	}
	// plain is x := e, for a type no cell can write (an unexported type of
	// a compiled package): yaegi infers it, and later statements of the
	// cell can use x.
	plain := func(idents []*ast.Ident, vals []ast.Expr) string {
		names := make([]string, len(idents))
		for i, id := range idents {
			names[i] = id.Name
		}
		return strings.Join(names, ", ") + " := " + valueText(vals)
	}
	define := func(idents []*ast.Ident, typ ast.Expr, vals []ast.Expr) bool {
		var lhs []string
		for _, id := range idents {
			lhs = append(lhs, id.Name)
			obj, _ := cc.info.Defs[id].(*types.Var)
			if obj == nil || id.Name == "_" {
				continue // not new: x, err := … with x declared before
			}
			t := ""
			if typ != nil {
				t = r.source(typ)
			} else if t = cc.c.typeFor(obj.Type(), r.pkg, cc.cellImports, imports); t == "" {
				return false
			}
			out = append(out, "var "+id.Name+" "+t)
		}
		if len(vals) > 0 {
			out = append(out, strings.Join(lhs, ", ")+" = "+valueText(vals))
		}
		return true
	}
	for _, n := range sp.nodes {
		gd, ok := n.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			if !define(vs.Names, vs.Type, vs.Values) {
				out = append(out, plain(vs.Names, vs.Values))
			}
		}
		return out, imports
	}
	for _, n := range sp.nodes {
		if _, ok := n.(ast.Stmt); !ok {
			continue
		}
		as, ok := n.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE {
			return nil, nil
		}
		var idents []*ast.Ident
		for _, e := range as.Lhs {
			id, ok := e.(*ast.Ident)
			if !ok {
				return nil, nil
			}
			idents = append(idents, id)
		}
		if !define(idents, nil, as.Rhs) {
			return []string{plain(idents, as.Rhs)}, imports
		}
		return out, imports
	}
	return nil, nil
}

// hasValue reports whether the statement unit at sp is an expression with
// a single value.
func hasValue(info *types.Info, sp span) bool {
	for _, st := range sp.nodes {
		if _, ok := st.(ast.Stmt); !ok {
			continue
		}
		es, ok := st.(*ast.ExprStmt)
		if !ok {
			return false
		}
		tv, ok := info.Types[es.X]
		if !ok || !tv.IsValue() {
			return false
		}
		_, tuple := tv.Type.(*types.Tuple)
		return !tuple
	}
	return false
}

// resultType is the type of the expression statement at sp.
func resultType(info *types.Info, sp span) types.Type {
	for _, st := range sp.nodes {
		if es, ok := st.(*ast.ExprStmt); ok {
			return info.Types[es.X].Type
		}
	}
	return nil
}
