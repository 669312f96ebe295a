package check

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/interp/cell"
)

// typeCheckSettled type-checks the cell until no check calls for another:
// an earlier cell's declaration that no longer compiles with this cell (a
// function using a variable the cell defines with another type) is
// forgotten, with a note, the packages the cell uses without importing
// them are imported, and the variables its statements define that its
// declarations use are hoisted. It returns the notes, and the cell's
// first error that counts.
func (cc *Cell) typeCheckSettled() (notes []string, err error) {
	for {
		missing, err := cc.typeCheck()
		var stale *staleDecl
		switch {
		case errors.As(err, &stale):
			cc.c.forget(stale.name)
			cc.forgotten[stale.name] = true
			cc.reparse() // with the declarations that used it
			notes = append(notes, fmt.Sprintf("tensornb: %s, from an earlier cell, no longer compiles with this cell (%s); it is forgotten: declare it again to use it.\n", stale.name, stale.msg))
		case len(missing) > 0:
			cc.addImports(missing)
		case cc.hoist():
		case err != nil:
			return notes, err
		default:
			return notes, nil
		}
	}
}

// hoist declares at package level, once, the variables that the cell's
// top-level statements define with := and that its declarations use, as
// a Go program's functions use package-level variables: with z := 5 and
// func k() int { return z } in one cell, z is the variable k reads. The
// declarations, by the types the last check gave the variables, go in
// the checked file before the cell's; the statement still defines z, in
// cellFunc, as the same variable the steps then run (see unitSteps). All
// the new variables of a statement are hoisted with the one used. It
// reports whether it hoisted any, so that the cell is checked again.
func (cc *Cell) hoist() bool {
	if cc.Hoisted != nil {
		return false
	}
	cc.Hoisted = map[string]bool{}
	used := cc.usedByDeclarations()
	var decls strings.Builder
	imports := map[string]string{}
	for _, st := range cc.body() {
		as, ok := st.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE || !slices.ContainsFunc(as.Lhs, func(e ast.Expr) bool {
			id, ok := e.(*ast.Ident)
			return ok && used[id.Name] && cc.Info.Defs[id] != nil
		}) {
			continue
		}
		for _, id := range cell.Idents(as.Lhs) {
			obj, ok := cc.Info.Defs[id].(*types.Var)
			if !ok {
				continue // not new
			}
			t := cc.c.TypeFor(obj.Type(), cc.Pkg, cc.CellImports, imports)
			if t == "" || obj.Type() == types.Typ[types.Invalid] {
				continue // a type no cell can write, or none: the error stands
			}
			fmt.Fprintf(&decls, "var %s %s\n", id.Name, t)
			cc.Hoisted[id.Name] = true
		}
	}
	if len(cc.Hoisted) == 0 {
		return false
	}
	for p, alias := range imports {
		cc.c.typeImports[p] = alias
	}
	cc.hoistedSrc = decls.String()
	cc.reparse()
	return true
}

// usedByDeclarations returns the names that the cell's declarations use
// and that are undefined or name a package-level variable (the session's,
// which a variable the cell defines replaces).
func (cc *Cell) usedByDeclarations() map[string]bool {
	used := map[string]bool{}
	for _, sp := range cc.File.Spans {
		if !sp.Unit.Declaration {
			continue
		}
		for _, n := range sp.Nodes {
			ast.Inspect(n, func(n ast.Node) bool {
				id, ok := n.(*ast.Ident)
				if !ok || cc.Info.Defs[id] != nil {
					return true
				}
				switch obj := cc.Info.Uses[id].(type) {
				case nil:
					used[id.Name] = true
				case *types.Var:
					if obj.Parent() == cc.Pkg.Scope() {
						used[id.Name] = true
					}
				}
				return true
			})
		}
	}
	return used
}

// typeCheck checks the cell once, with the imports and the session's
// declarations as they stand, keeping what go/types records. It returns
// a *staleDecl for an earlier cell's declaration that no longer compiles,
// or else the packages the cell uses without importing them, or else the
// first of go/types' errors that counts (see sortErrors).
func (cc *Cell) typeCheck() (missing []string, err error) {
	file := cc.File.withImports(importDecl(cc.allImports(), cc.c.typeImports), cc.keep)
	var errs []types.Error
	cc.Pkg, cc.Info, errs = cc.c.checkFile(file)
	return cc.sortErrors(errs)
}

// checkFile type-checks file as package main. It returns what go/types
// found, and its errors in the order it reported them.
func (c *Checker) checkFile(file *ast.File) (*types.Package, *types.Info, []types.Error) {
	info := &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Defs:       map[*ast.Ident]types.Object{},
		Uses:       map[*ast.Ident]types.Object{},
		Scopes:     map[ast.Node]*types.Scope{},
		Instances:  map[*ast.Ident]types.Instance{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
	}
	var errs []types.Error
	conf := types.Config{Importer: c.imp, Error: func(err error) {
		if te, ok := err.(types.Error); ok {
			errs = append(errs, te)
		}
	}}
	pkg, _ := conf.Check("main", c.fset, []*ast.File{file}, info)
	return pkg, info, errs
}

// sortErrors sorts go/types' errors about the cell, in this order: one in
// a session declaration is a *staleDecl; names of packages the cell does
// not import are missing; and of the rest, the first that counts is the
// cell's *cell.CompileError, at its cell line. What does not count: imports
// and top-level variables not used (the session keeps them for later
// cells), and the cell's last expression not used (its value is the
// result).
func (cc *Cell) sortErrors(errs []types.Error) (missing []string, err error) {
	for _, te := range errs {
		if i := indexAt(cc.File.SessionSpans, cc.c.fset.Position(te.Pos).Line); i >= 0 {
			return nil, &staleDecl{name: cc.File.SessionSpans[i].Name, msg: te.Msg}
		}
	}
	for _, te := range errs {
		if name, ok := strings.CutPrefix(te.Msg, "undefined: "); ok {
			if p := cc.c.lib.Named(name); p != "" && !cc.Auto[p] {
				if cc.c.lib.Elsewhere(p) {
					l, ok := cc.File.LineOf(te.Pos)
					if !ok {
						l = 1
					}
					return nil, cc.c.lib.Refuse(l, p)
				}
				missing = append(missing, p)
			}
		}
	}
	if len(missing) > 0 {
		return missing, nil
	}
	topVars := cc.topVars()
	lastExpr := cc.lastExpr()
	for _, te := range errs {
		if ignored(te, topVars, lastExpr) {
			continue
		}
		if l, ok := cc.File.LineOf(te.Pos); ok {
			return nil, &cell.CompileError{Line: l, Msg: te.Msg}
		}
		return nil, &cell.CompileError{Line: 1, Msg: te.Msg}
	}
	return nil, nil
}

// ignored reports whether an error of go/types does not count: an import
// or a top-level variable not used (the session keeps them for later
// cells), and the cell's last expression not used (its value is the
// result).
func ignored(te types.Error, topVars map[string]bool, lastExpr token.Pos) bool {
	if te.Soft && ((strings.Contains(te.Msg, "imported") && strings.HasSuffix(te.Msg, "and not used")) ||
		(strings.HasPrefix(te.Msg, "declared and not used: ") && topVars[strings.TrimPrefix(te.Msg, "declared and not used: ")])) {
		return true
	}
	return strings.HasSuffix(te.Msg, " is not used") && te.Pos == lastExpr
}

// topVars are the variables the cell defines at its top level, which
// live on as session variables.
func (cc *Cell) topVars() map[string]bool {
	vars := map[string]bool{}
	if sc := cc.Info.Scopes[cc.File.body.Type]; sc != nil {
		for _, n := range sc.Names() {
			vars[n] = true
		}
	}
	return vars
}

// lastExpr is the position of the cell's last expression statement, if
// it ends with one.
func (cc *Cell) lastExpr() token.Pos {
	body := cc.body()
	if n := len(body); n > 0 {
		if es, ok := body[n-1].(*ast.ExprStmt); ok {
			return es.X.Pos()
		}
	}
	return token.NoPos
}
