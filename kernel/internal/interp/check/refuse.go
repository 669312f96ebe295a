package check

import (
	"go/ast"
	"go/token"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/interp/cell"
)

// The refusals of what yaegi v0.16.1 would run differently from Go, and
// cannot be rewritten to run as Go does: each is a *cell.Unsupported
// error. Those of the cell's imports are in imports.go, and those found
// while rewriting in package rewrite.

// refuseRedefinitions refuses a type or a method of the session declared
// again otherwise than it was: yaegi v0.16.1 keeps the first definition.
// A unit that does not parse as it would alone is left to the cell's
// syntax error.
func (cc *Cell) refuseRedefinitions() error {
	for _, sp := range cc.File.Spans {
		if !sp.Unit.Declaration || !cc.File.parsedAsAlone(sp) {
			continue
		}
		for _, n := range sp.Nodes {
			if name, ok := cc.redefined(n, sp); ok {
				kind := "type"
				if strings.Contains(name, ".") {
					kind = "method"
				}
				return &cell.Unsupported{Line: sp.Unit.Line, What: "a new definition of the " + kind + " " + name + " (it keeps the first one; restart the kernel to define it anew)"}
			}
		}
	}
	return nil
}

// redefined returns the name of a session type or method that the
// declaration n, of the unit at sp, defines anew, if it does.
func (cc *Cell) redefined(n ast.Node, sp Span) (string, bool) {
	switch d := n.(type) {
	case *ast.GenDecl:
		for _, spec := range d.Specs {
			ts, ok := spec.(*ast.TypeSpec)
			if !ok {
				continue
			}
			old, ok := cc.c.Decl(ts.Name.Name)
			if ok && strings.HasPrefix(old.Src, "type ") && normalize(old.Src) != normalize("type "+cc.File.Text(ts)) {
				return ts.Name.Name, true
			}
		}
	case *ast.FuncDecl:
		name := cell.FuncName(d)
		if !strings.Contains(name, ".") {
			return "", false
		}
		if old, ok := cc.c.Decl(name); ok && normalize(old.Src) != normalize(cell.StripComments(sp.Unit.Text)) {
			return name, true
		}
	}
	return "", false
}

// refuseTopLevel refuses what the cell's top level does that runs
// differently here, where each statement runs as a function of its own
// and session variables share one scope with the imports: a defer, a
// return, a variable named like an imported package, or main.
func (cc *Cell) refuseTopLevel() error {
	imported := map[string]bool{}
	for p, n := range cc.allImports() { // the cells' own imports, not typeAlias's
		if n == "" {
			if pkg, err := cc.c.imp.Import(p); err == nil {
				n = pkg.Name()
			}
		}
		imported[n] = true
	}
	for _, st := range cc.body() {
		switch st := st.(type) {
		case *ast.DeferStmt:
			return cc.refusal(st.Pos(), "a defer at the top level of a cell (it would run at the end of its statement, not of the cell; put it in a function)")
		case *ast.AssignStmt:
			if st.Tok == token.DEFINE {
				for _, e := range st.Lhs {
					if id, ok := e.(*ast.Ident); ok && imported[id.Name] {
						return cc.refusal(st.Pos(), "a variable named "+id.Name+", like an imported package (choose another name)")
					}
					if id, ok := e.(*ast.Ident); ok && id.Name == "main" {
						return cc.refusal(st.Pos(), "a variable named main at the top level of a cell (it would be package main's, whose main must be a function; choose another name)")
					}
				}
			}
		}
		if ret := topLevelReturn(st); ret.IsValid() {
			return cc.refusal(ret, "a return at the top level of a cell")
		}
	}
	return nil
}

// topLevelReturn returns the position of the first return in st outside
// function literals, or token.NoPos.
func topLevelReturn(st ast.Stmt) token.Pos {
	var ret token.Pos
	ast.Inspect(st, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if !ret.IsValid() {
				ret = n.Pos()
			}
		}
		return true
	})
	return ret
}

// refusal is the *cell.Unsupported error of what is at pos in the checked
// file.
func (cc *Cell) refusal(pos token.Pos, what string) *cell.Unsupported {
	l, _ := cc.File.LineOf(pos)
	return &cell.Unsupported{Line: l, What: what}
}

// normalize drops the spaces of a declaration, to compare two of them.
func normalize(s string) string { return strings.Join(strings.Fields(s), "") }
