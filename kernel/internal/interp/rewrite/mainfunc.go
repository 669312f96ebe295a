package rewrite

import (
	"go/ast"
	"go/types"

	"github.com/tensornb/tensornb/kernel/internal/interp/cell"
)

// MainFunc is the name yaegi knows the cells' func main by. yaegi v0.16.1
// runs the main function of package main, the cells' package, after the
// init functions of every source it compiles (Interpreter.CompileAST,
// program.go, adds it to the program's init nodes whenever package main
// has a symbol main): under its own name, main would run again around
// every later evaluation, and, in the cell that declares it, before the
// cell's variables have their values. Under this name it is an ordinary
// function, which the cell that declares it calls once, last (mainCall),
// as a Go program runs main after its variables and init functions, and
// which later cells may call as main().
const MainFunc = "tensornbMain"

// mainIdent renames id, a name of the cells' package-level func main,
// declared or used, to MainFunc.
func (r *rewriter) mainIdent(id *ast.Ident) {
	if id.Name != "main" {
		return
	}
	obj := r.info.Defs[id]
	if obj == nil {
		obj = r.info.Uses[id]
	}
	if fn, ok := obj.(*types.Func); !ok || fn.Pkg() != r.pkg || fn.Parent() != r.pkg.Scope() {
		return // a method, a local name, or none of the cells'
	}
	r.edits = append(r.edits, edit{r.offset(id.Pos()), r.offset(id.End()), MainFunc, false})
}

// mainCall returns the step that calls the func main the cell declares,
// after all its other steps, and false if it declares none. Its site is
// the declaration's line, as for an init function, which runs where it
// is declared.
func (r *rewriter) mainCall() (cell.Step, bool) {
	for _, sp := range r.cc.File.Spans {
		for _, n := range sp.Nodes {
			fd, ok := n.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || fd.Name.Name != "main" {
				continue
			}
			line := r.cellLineOf(fd.Pos())
			site := r.sites.Add(cell.Site{Cell: r.running, Line: line, Calls: []cell.Call{{Name: "main", Line: line}}})
			return cell.Step{Kind: cell.StmtStep, Text: MainFunc + "()", Line: line, Site: site}, true
		}
	}
	return cell.Step{}, false
}

// initsAfterValues moves the cell's init functions, which run as they
// are declared, after the last step that gives its var declarations
// their values: a Go program initializes its package-level variables
// before it runs its init functions. Statements written before that var
// declaration then run before them too, in the cell's order.
func initsAfterValues(steps []cell.Step) []cell.Step {
	last := -1
	for i, st := range steps {
		if st.Kind == cell.DeclStep && st.Texts != nil {
			last = i // a var declaration's values (splitVar)
		}
	}
	var inits, out []cell.Step
	for i, st := range steps {
		if i < last && rank(st) == 4 {
			inits = append(inits, st)
			continue
		}
		out = append(out, st)
		if i == last {
			out = append(out, inits...)
		}
	}
	return out
}
