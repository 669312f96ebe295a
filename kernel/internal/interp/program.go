package interp

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/traefik/yaegi/interp"

	"github.com/tensornb/tensornb/kernel/internal/cells"
	"github.com/tensornb/tensornb/kernel/internal/front"
	"github.com/tensornb/tensornb/kernel/internal/interp/cell"
)

// GoNB runs every cell as a new program: the declarations of all the
// cells so far, and the cell's func main, if it has one. So every
// cell's variables start again from their declarations' values, every
// init function runs again, and a var declaration that gives several
// names one call's results is one declaration, which a later cell that
// declares one of the names again replaces whole.
//
// The session runs cells that way, GoNB's, while they are GoNB's kind:
// declarations alone, with or without %% (a programCell). Each such cell
// that has Go code starts as a program does: the variables of the
// session are given their values anew, in the order Go gives a
// package's (by dependency, then by name, as GoNB writes them in its
// file), then func init runs, then the init_… functions, then main.
//
// The first cell with a statement outside a function, which GoNB does
// not run, ends that for the session: from then on a variable keeps
// what the cells gave it, as in a Python notebook, and func init runs
// once, as it is declared. tensornb's own notebooks are of this kind
// from their first statements.

// initFunc is the name yaegi knows a cell's func init by while the
// session runs cells as programs: a function the session calls at the
// start of every cell, not one yaegi runs once as it is declared.
const initFunc = "tensornbInit"

// A programs is what the session keeps to run cells as GoNB's programs.
type programs struct {
	// over is set once a cell ran statements outside a function: the
	// session keeps its variables' values from then on.
	over bool
	// ranMain is set once a cell ran a func main as a program.
	ranMain bool
	// values give the variables their values, by GoNB's key; zero gives
	// those declared without a value their zero value, by name.
	values []*varValue
	zero   map[string]string
	// blanks numbers the keys of blank variables.
	blanks int
	// init is where the session's func init is declared, for its frame.
	init cell.Site
}

// A varValue is one var spec's value, as a program gives it.
type varValue struct {
	// key is GoNB's: the first name, or _~N for a blank one.
	key string
	// names are the variables the value is for; blanks are the keys of
	// its blank ones (_ in names), which %list lists.
	names, blanks []string
	// tuple is set for one call's results given to several names.
	tuple bool
	// step gives the value; site is its site, added anew at every run;
	// from is the cell that declared it.
	step cell.Step
	site *cell.Site
	from *cell.Source
}

// programCell reports whether code is of GoNB's kind: declarations
// alone (and a package clause, which GoNB ignores).
func programCell(code string) bool {
	for _, u := range cells.Split(code) {
		if c := strings.TrimSpace(u.Code()); c != "" && !u.Declaration && !strings.HasPrefix(c, "package ") {
			return false
		}
	}
	return true
}

// endPrograms makes the session keep its variables' values from now on,
// saying so if a cell ran a program before.
func (s *Session) endPrograms() {
	if s.programs.ranMain {
		fmt.Fprintln(s.stderr, "Note: this cell runs statements outside a function, which GoNB does not: from now on the session keeps its variables' values from cell to cell, as a Python notebook does, and no longer starts each cell as a new program (%reset, or a restart of the kernel, starts again).")
	}
	s.programs = programs{over: true}
}

// asProgram takes the steps of a program cell: the steps that give its
// variables their values are kept for every program's start (programs
// .start), not run in their places, and its func init becomes initFunc.
// What the cell declares again replaces the values of earlier cells: all
// of a tuple's, whose other names are forgotten, as GoNB forgets them.
func (s *Session) asProgram(steps []cell.Step) []cell.Step {
	p := &s.programs
	if p.zero == nil {
		p.zero = map[string]string{}
	}
	var out []cell.Step
	var values []*varValue
	declared := map[string]bool{}
	for _, st := range steps {
		for _, d := range declsOf(st) {
			declared[d.Name] = true
		}
		switch {
		case st.Kind == cell.VarStep:
			for _, text := range st.Texts {
				decl, isVar := strings.CutPrefix(text, "var ")
				if name, typ, ok := strings.Cut(decl, " "); isVar && ok {
					declared[name] = true
					p.zero[name] = name + " = *new(" + typ + ")"
				}
			}
		case st.Kind == cell.DeclStep && st.Texts != nil && st.Decls == nil:
			values = append(values, s.valuesOf(st)...)
			continue
		case st.Kind == cell.DeclStep && st.FuncName == "init":
			st.Text = initDecl.ReplaceAllString(st.Text, "func "+initFunc+"(")
			p.init = cell.Site{Cell: s.source, Line: st.Line}
		}
		out = append(out, st)
	}
	for name := range declared {
		p.replace(name, declared, s.check.Forget)
	}
	for _, v := range values {
		for _, n := range v.names {
			delete(p.zero, n)
		}
	}
	p.values = append(p.values, values...)
	return out
}

// declsOf returns what a step declares, a joined step's parts' too.
func declsOf(st cell.Step) []cell.Decl {
	decls := st.Decls
	for _, p := range st.Parts {
		decls = append(decls, declsOf(p)...)
	}
	return decls
}

// initDecl finds the name of a func init's declaration.
var initDecl = regexp.MustCompile(`\bfunc\s+init\s*\(`)

// valuesOf splits a step that gives var specs their values into one
// value for each spec, and for each name of a spec that gives each its
// own (var a, b = 1, 2), as GoNB keeps them.
func (s *Session) valuesOf(st cell.Step) []*varValue {
	var site *cell.Site
	if at := s.sites.At(st.Site); at != nil {
		copied := *at
		site = &copied
	}
	var out []*varValue
	for _, text := range st.Texts {
		for _, t := range splitAssign(text) {
			v := &varValue{names: t.names, tuple: t.tuple, site: site, from: s.source}
			v.step = st
			v.step.Texts = []string{t.text}
			for _, n := range t.names {
				if n == "_" {
					s.programs.blanks++
					v.blanks = append(v.blanks, fmt.Sprintf("_~%06d", s.programs.blanks))
				}
			}
			switch {
			case len(t.names) == 0:
				v.key = t.text
			case t.names[0] == "_":
				v.key = v.blanks[0]
			default:
				v.key = t.names[0]
			}
			out = append(out, v)
		}
	}
	return out
}

// An assignment is one of the assignments a value's text splits into.
type assignment struct {
	text  string
	names []string
	tuple bool
}

// splitAssign splits a var spec's assignment (a, b = 1, 2, as package
// rewrite writes it) into one for each name, if each has a value of its
// own; a tuple's (a, _, c = f()) stays whole.
func splitAssign(text string) []assignment {
	src := "package p\nfunc _() {\n" + text + "\n}"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	whole := []assignment{{text: text}} // no names: never replaced, nor listed
	if err != nil {
		return whole
	}
	body := f.Decls[0].(*ast.FuncDecl).Body.List
	if len(body) != 1 {
		return whole
	}
	as, ok := body[0].(*ast.AssignStmt)
	if !ok {
		return whole
	}
	names := make([]string, len(as.Lhs))
	for i, l := range as.Lhs {
		names[i] = "_"
		if id, ok := l.(*ast.Ident); ok {
			names[i] = id.Name
		}
	}
	if len(as.Lhs) != len(as.Rhs) {
		return []assignment{{text: text, names: names, tuple: true}}
	}
	if as.Tok != token.ASSIGN || len(names) == 1 {
		return []assignment{{text: text, names: names}} // a := declares them all at once
	}
	out := make([]assignment, len(names))
	for i, r := range as.Rhs {
		value := src[fset.Position(r.Pos()).Offset:fset.Position(r.End()).Offset]
		out[i] = assignment{text: names[i] + " = " + value, names: names[i : i+1]}
	}
	return out
}

// replace drops the values of earlier cells that give name its value,
// and of a tuple the other names too, which the session forgets but for
// those the cell declares again.
func (p *programs) replace(name string, declared map[string]bool, forget func(string) (string, bool)) {
	p.values = slices.DeleteFunc(p.values, func(v *varValue) bool {
		if !slices.Contains(v.names, name) {
			return false
		}
		if v.tuple {
			for _, other := range v.names {
				if other != "_" && !declared[other] {
					forget(other)
					delete(p.zero, other)
				}
			}
		}
		return true
	})
}

// forget drops what the session keeps of the variable name, which %rm
// removed or a failure forgot: its zero value, and the value that gives
// it its value, a tuple's included, whose other names it returns.
func (p *programs) forget(name string) (others []string) {
	delete(p.zero, name)
	p.values = slices.DeleteFunc(p.values, func(v *varValue) bool {
		if !slices.Contains(v.names, name) && !slices.Contains(v.blanks, name) {
			return false
		}
		for _, n := range v.names {
			if n != name && n != "_" {
				others = append(others, n)
			}
		}
		return true
	})
	return others
}

// blankKeys are the keys of the blank variables, which %list lists.
func (p *programs) blankKeys() []string {
	var keys []string
	for _, v := range p.values {
		keys = append(keys, v.blanks...)
	}
	return keys
}

// start runs what a program runs before main, as GoNB's program of the
// session's declarations: the zero values of the variables declared
// without one, then each variable's value, in Go's order, then func
// init, then the init_… functions. line is the cell line of a failure
// that is not an earlier cell's.
func (s *Session) start(ctx context.Context, line int) error {
	p := &s.programs
	if !p.over {
		for _, name := range slices.Sorted(maps.Keys(p.zero)) {
			if err := s.evalInFunc(ctx, 0, p.zero[name]); err != nil {
				s.forgetValue(name, err)
			}
		}
		for _, v := range p.ordered(s.check.Reaches) {
			if err := s.give(ctx, v); err != nil {
				return err
			}
		}
		if _, ok := s.check.Decl("init"); ok {
			if err := s.call(ctx, []string{initFunc + "()"}, p.init); err != nil {
				return err
			}
		}
	}
	return s.call(ctx, s.inits(), cell.Site{Cell: s.source, Line: line})
}

// give runs v, which gives variables their values. A value of an earlier
// cell that no longer compiles, since a later cell declared anew what it
// uses (a function's result type), forgets its variables, with a note,
// as the checker forgets a declaration that no longer compiles: GoNB
// would infer their types anew, which the interpreter cannot.
func (s *Session) give(ctx context.Context, v *varValue) error {
	st := v.step
	if v.site != nil {
		st.Site = s.sites.Add(*v.site)
	}
	_, err := s.run(ctx, st)
	var p interp.Panic
	switch {
	case err == nil:
		return nil
	case v.from == s.source || errors.As(err, &p) || ctx.Err() != nil:
		return s.stepError(err, st)
	}
	var names []string
	for _, n := range v.names {
		if n != "_" {
			names = append(names, n)
		}
	}
	s.programs.values = slices.DeleteFunc(s.programs.values, func(w *varValue) bool { return w == v })
	s.forgetValue(strings.Join(names, ", "), err)
	return nil
}

// forgetValue forgets the variables names (comma-separated), whose value
// or zero value no longer compiles with err, with a note.
func (s *Session) forgetValue(names string, err error) {
	for _, n := range strings.Split(names, ", ") {
		if n != "" {
			s.check.Forget(n)
			s.programs.forget(n)
		}
	}
	why := err.Error()
	if m := errorPosition.FindStringSubmatch(why); m != nil {
		why = m[2] // a position in the value's text, not the cell's
	}
	fmt.Fprintf(s.stderr, "Note: %s forgotten: the value an earlier cell gave it no longer compiles (%s); run that cell again to declare it anew.\n", names, userNames(why))
}

// stepError is the cell's error for st's failure: none for os.Exit(0),
// the exit status for another os.Exit, as a program ends.
func (s *Session) stepError(err error, st cell.Step) error {
	if code, ok := exitCode(err); ok {
		if code == 0 {
			return errExited
		}
		return front.Exit(code)
	}
	return s.runError(err, st)
}

// ordered returns the values in the order Go gives a package's
// variables theirs, the package being GoNB's file, which declares them
// in the order of their keys: again and again, the first value whose
// variables use none that has not been given its value yet. reaches
// returns the session's declarations a value's text reaches; a value
// that seems to reach its own variables through them (a function's local
// of the same name) does not wait for itself.
func (p *programs) ordered(reaches func(string) map[string]bool) []*varValue {
	values := slices.Clone(p.values)
	sort.SliceStable(values, func(i, j int) bool { return values[i].key < values[j].key })
	uses := make([][]int, len(values))
	for i, v := range values {
		r := reaches(v.step.Texts[0])
		for j, w := range values {
			if i != j && slices.ContainsFunc(w.names, func(n string) bool { return n != "_" && r[n] }) {
				uses[i] = append(uses[i], j)
			}
		}
	}
	done := make([]bool, len(values))
	var out []*varValue
	for len(out) < len(values) {
		next := -1
		for i := range values {
			if !done[i] && !slices.ContainsFunc(uses[i], func(j int) bool { return !done[j] }) {
				next = i
				break
			}
		}
		if next < 0 { // a cycle only the names make: the first left
			next = slices.Index(done, false)
		}
		done[next] = true
		out = append(out, values[next])
	}
	return out
}

// call runs calls, as a statement at site.
func (s *Session) call(ctx context.Context, calls []string, site cell.Site) error {
	if len(calls) == 0 {
		return nil
	}
	for _, c := range calls {
		site.Calls = append(site.Calls, cell.Call{Name: strings.TrimSuffix(c, "()"), Line: site.Line})
	}
	st := cell.Step{Kind: cell.StmtStep, Text: strings.Join(calls, "; "), Line: site.Line, Site: s.sites.Add(site)}
	if _, err := s.run(ctx, st); err != nil {
		return s.stepError(err, st)
	}
	return nil
}

// errExited ends a cell whose program called os.Exit(0) before main:
// the cell stops there, without an error (exited).
var errExited = errors.New("the program exited")

// exited returns err, or nil for errExited.
func exited(err error) error {
	if errors.Is(err, errExited) {
		return nil
	}
	return err
}
