package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/cells"
	"github.com/tensornb/tensornb/kernel/internal/interp/cell"
	"github.com/tensornb/tensornb/kernel/internal/interp/check"
)

// steps returns the steps that run the cell, its edits (r's) made. Go
// lets a cell use a type, variable or function it declares further down,
// as a program may: imports run first, then types and constants, then
// the variables (declared with their types, not yet given their values),
// then functions, then the values of variables and the statements, in
// the order written, but that the var declarations' values come in the
// order Go gives them (initorder.go). The types and constants are one step, and the
// functions another, so that each may use the others (see together);
// init functions, which run as they are declared, come after the other
// functions, which they may call, and after the values of the cell's var
// declarations, each a step of its own, so that a panic in one is at its
// line. A func main the cell declares is called last (mainfunc.go).
func (r *rewriter) steps() []cell.Step {
	cc := r.cc
	var steps []cell.Step
	if len(cc.Auto) > 0 {
		imports := map[string]string{}
		for p := range cc.Auto {
			if !cc.SessionImports(p) {
				imports[p] = ""
			}
		}
		steps = append(steps, cell.Step{Kind: cell.ImportStep, Line: 1, Imports: imports})
	}
	imports := make(map[int]check.ImportUnit, len(cc.Imports.Units)) // by the offset of the unit in the cell
	for _, iu := range cc.Imports.Units {
		imports[iu.Unit.Offset] = iu
	}
	spans := make(map[int]check.Span, len(cc.File.Spans))
	for _, s := range cc.File.Spans {
		spans[s.Unit.Offset] = s
	}
	// The session's functions that go statements now reach, declared
	// again without marks before the cell's functions, which may call
	// them.
	for _, name := range r.redeclare {
		if text, ok := cc.Unmarked(name); ok {
			steps = append(steps, cell.Step{Kind: cell.DeclStep, Text: text, Line: 1, Redeclared: name})
		}
	}
	last := lastStatement(cc.Units)
	for _, u := range cc.Units {
		if check.IsImport(u) {
			steps = append(steps, r.importStep(imports[u.Offset]))
			continue
		}
		steps = append(steps, r.unitSteps(spans[u.Offset], u.Offset == last.Offset)...)
	}
	lineVars := slices.Sorted(maps.Keys(r.lineVars))
	for i := range steps {
		steps[i].LineVars = lineVars
	}
	sort.SliceStable(steps, func(i, j int) bool { return rank(steps[i]) < rank(steps[j]) })
	steps = initsAfterValues(together(initOrdered(steps)))
	if call, ok := r.mainCall(); ok {
		call.LineVars = lineVars
		steps = append(steps, call)
	}
	return steps
}

// importStep returns the step of an import unit: the imports it writes
// that the session does not have.
func (r *rewriter) importStep(iu check.ImportUnit) cell.Step {
	imports := map[string]string{}
	for _, is := range iu.Specs {
		if !r.cc.SessionImports(is.Path) {
			imports[is.Path] = r.cc.CellImports[is.Path]
		}
	}
	return cell.Step{Kind: cell.ImportStep, Line: iu.Unit.CodeLine(), Imports: imports}
}

// unitSteps returns the steps of the declaration or statement unit at
// sp; last is set for the cell's last statement, whose value, if it has
// one, is the cell's result.
func (r *rewriter) unitSteps(sp check.Span, last bool) []cell.Step {
	cc := r.cc
	u := sp.Unit
	st := cell.Step{Kind: cell.StmtStep, Text: r.apply(cc.File.Src, sp.Offset, sp.Offset+len(u.Text)), Line: u.CodeLine()}
	for _, n := range sp.Nodes {
		if site, ok := r.unitSite[n]; ok {
			st.Site = site
			break
		}
		if fd, ok := n.(*ast.FuncDecl); ok {
			st.FuncName = cell.FuncName(fd)
			if r.marked[fd] {
				st.Unmarked = r.applyUnmarked(cc.File.Src, sp.Offset, sp.Offset+len(u.Text))
			}
		}
	}
	if u.Declaration {
		st.Kind = cell.DeclStep
		st.TextLine = u.Line
		st.Decls = cc.DeclsOf(sp)
		st.Texts, st.TypeImports = r.definitions(sp)
		st.InitOrder = r.unitInit(sp.Nodes)
		if sp.Added {
			st.InitOrder -= len(r.info.InitOrder) // another package's, initialized first
		}
		if st.Texts != nil {
			return splitVar(st)
		}
		return []cell.Step{st}
	}
	st.Decls = cc.VarsOf(sp)
	st.Texts, st.TypeImports = r.definitions(sp)
	if st.Texts != nil && r.definesHoisted(sp) {
		// Declared with the cell's var declarations, before its
		// functions, which use them; given their values in order.
		return splitVar(st)
	}
	if last && hasValue(cc.Info, sp) {
		st.Kind = cell.ResultStep
		// The expression alone: a comment after it would swallow the
		// parenthesis that wraps it.
		st.Text = r.apply(cc.File.Src, sp.Offset+u.CodeStart, sp.Offset+u.CodeEnd)
		st.Interpreted = involvesMain(resultType(cc.Info, sp), cc.Pkg)
	}
	return []cell.Step{st}
}

// definesHoisted reports whether the statement unit at sp defines a
// variable that the checker hoisted (check.Cell.Hoisted).
func (r *rewriter) definesHoisted(sp check.Span) bool {
	for _, n := range sp.Nodes {
		if as, ok := n.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
			for _, id := range cell.Idents(as.Lhs) {
				if r.cc.Hoisted[id.Name] {
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
// whose variables the checker hoisted, into a cell.VarStep that declares
// its variables by type, which runs before the cell's functions (they may
// use the variables), and a step that gives them their values, in the
// cell's order (the values may call the functions).
func splitVar(st cell.Step) []cell.Step {
	declare, assign := st, st
	declare.Kind, declare.Texts = cell.VarStep, nil
	assign.Texts, assign.Decls, assign.TypeImports = nil, nil, nil
	for _, t := range st.Texts {
		if strings.HasPrefix(t, "var ") || strings.HasPrefix(t, "type ") {
			declare.Texts = append(declare.Texts, t)
		} else {
			assign.Texts = append(assign.Texts, t)
		}
	}
	switch {
	case declare.Texts == nil: // x := e, for a type no cell can write
		assign.Decls, assign.TypeImports = st.Decls, st.TypeImports
		return []cell.Step{assign}
	case assign.Texts == nil:
		return []cell.Step{declare}
	}
	return []cell.Step{declare, assign}
}

// rank orders steps for running; see steps.
func rank(s cell.Step) int {
	switch {
	case s.Kind == cell.ImportStep:
		return 0
	case s.Kind == cell.DeclStep && s.Texts == nil && !strings.HasPrefix(strings.TrimSpace(cell.StripComments(s.Text)), "func"):
		return 1
	case s.Kind == cell.VarStep:
		return 2
	case s.Kind == cell.DeclStep && s.Texts == nil && s.FuncName != "init":
		return 3
	case s.Kind == cell.DeclStep && s.Texts == nil:
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
func together(steps []cell.Step) []cell.Step {
	var out []cell.Step
	for _, st := range steps {
		if st.Kind != cell.DeclStep || st.Texts != nil || rank(st) == 4 {
			out = append(out, st)
			continue
		}
		if n := len(out); n > 0 && out[n-1].Parts != nil && joins(out[n-1].Parts[0], st) {
			out[n-1].Parts = append(out[n-1].Parts, st)
			continue
		}
		out = append(out, cell.Step{Kind: cell.DeclStep, Line: st.Line, LineVars: st.LineVars, Parts: []cell.Step{st}})
	}
	for i := range out {
		if out[i].Parts != nil {
			out[i].Text, out[i].Starts = joinTexts(out[i].Parts)
		}
	}
	return out
}

// joins reports whether the declaration steps a and b go in one step.
func joins(a, b cell.Step) bool {
	return rank(a) == rank(b) && (a.Redeclared == "") == (b.Redeclared == "")
}

// joinTexts writes the texts of parts, in their order, as one source in
// which each of the cell's starts on its own cell line: on the line where
// the one before it ends, after a space, if the cell has them so (the
// semicolon between them ends the first). An earlier cell's starts on a
// line of its own. It returns the source and the line each part starts
// on.
func joinTexts(parts []cell.Step) (string, []int) {
	var b strings.Builder
	line := 1 // the line b ends on
	starts := make([]int, len(parts))
	for i, p := range parts {
		switch {
		case p.TextLine > line:
			b.WriteString(strings.Repeat("\n", p.TextLine-line))
			line = p.TextLine
		case i == 0:
		case p.TextLine == line:
			b.WriteString(" ")
		default:
			b.WriteString("\n")
			line++
		}
		starts[i] = line
		b.WriteString(p.Text)
		line += strings.Count(p.Text, "\n")
	}
	return b.String(), starts
}

// definitions returns the statements yaegi runs for a var declaration
// unit, or for a statement unit that is a single x := e: each new
// variable declared with its type (var x T), then the values assigned
// (x = e). yaegi v0.16.1 gets some definitions wrong when it infers their
// types itself: x := e where e indexes a compiled package's slice type
// ("constant definition loop"), and a package-level var initialized from
// another ("variable definition loop"); some types are declared first as
// an alias (see varType). It returns nil for other units, and imports
// lists packages the types need imported first.
func (r *rewriter) definitions(sp check.Span) (texts []string, imports map[string]string) {
	cc := r.cc
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
			obj, _ := cc.Info.Defs[id].(*types.Var)
			if obj == nil || id.Name == "_" {
				continue // not new: x, err := … with x declared before
			}
			t, decls := r.varType(typ, obj, imports)
			if t == "" {
				return false
			}
			out = append(out, decls...)
			out = append(out, "var "+id.Name+" "+t)
		}
		if len(vals) > 0 {
			out = append(out, strings.Join(lhs, ", ")+" = "+valueText(vals))
		}
		return true
	}
	for _, n := range sp.Nodes {
		gd, ok := n.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			continue
		}
		for _, spec := range r.initSorted(gd.Specs) {
			vs := spec.(*ast.ValueSpec)
			if !define(vs.Names, vs.Type, vs.Values) {
				out = append(out, plain(vs.Names, vs.Values))
			}
		}
		return out, imports
	}
	for _, n := range sp.Nodes {
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
func hasValue(info *types.Info, sp check.Span) bool {
	for _, st := range sp.Nodes {
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
func resultType(info *types.Info, sp check.Span) types.Type {
	for _, st := range sp.Nodes {
		if es, ok := st.(*ast.ExprStmt); ok {
			return info.Types[es.X].Type
		}
	}
	return nil
}

// involvesMain reports whether t is, or is made of, types declared in
// package main, the cells' package.
func involvesMain(t types.Type, main *types.Package) bool {
	found := false
	cell.InspectType(t, func(t types.Type) bool {
		if n, ok := t.(*types.Named); ok && n.Obj().Pkg() == main {
			found = true
		}
		return !found
	})
	return found
}
