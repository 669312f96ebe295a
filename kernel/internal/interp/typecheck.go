package interp

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"sync"

	"github.com/tensornb/tensornb/kernel/internal/interp/symbols"
)

// typeCheckSettled type-checks the cell until no check calls for another:
// an earlier cell's declaration that no longer compiles with this cell (a
// function using a variable the cell defines with another type) is
// forgotten, with a note, the packages the cell uses without importing
// them are imported, and the variables its statements define that its
// declarations use are hoisted. It returns the notes, and the cell's
// first error that counts.
func (cc *checkedCell) typeCheckSettled() (notes []string, err error) {
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
func (cc *checkedCell) hoist() bool {
	if cc.hoisted != nil {
		return false
	}
	cc.hoisted = map[string]bool{}
	used := cc.usedByDeclarations()
	var decls strings.Builder
	imports := map[string]string{}
	for _, st := range cc.body() {
		as, ok := st.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE || !slices.ContainsFunc(as.Lhs, func(e ast.Expr) bool {
			id, ok := e.(*ast.Ident)
			return ok && used[id.Name] && cc.info.Defs[id] != nil
		}) {
			continue
		}
		for _, id := range identsOf(as.Lhs) {
			obj, ok := cc.info.Defs[id].(*types.Var)
			if !ok {
				continue // not new
			}
			t := cc.c.typeFor(obj.Type(), cc.pkg, cc.cellImports, imports)
			if t == "" || obj.Type() == types.Typ[types.Invalid] {
				continue // a type no cell can write, or none: the error stands
			}
			fmt.Fprintf(&decls, "var %s %s\n", id.Name, t)
			cc.hoisted[id.Name] = true
		}
	}
	if len(cc.hoisted) == 0 {
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
func (cc *checkedCell) usedByDeclarations() map[string]bool {
	used := map[string]bool{}
	for _, sp := range cc.file.spans {
		if !sp.unit.Declaration {
			continue
		}
		for _, n := range sp.nodes {
			ast.Inspect(n, func(n ast.Node) bool {
				id, ok := n.(*ast.Ident)
				if !ok || cc.info.Defs[id] != nil {
					return true
				}
				switch obj := cc.info.Uses[id].(type) {
				case nil:
					used[id.Name] = true
				case *types.Var:
					if obj.Parent() == cc.pkg.Scope() {
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
func (cc *checkedCell) typeCheck() (missing []string, err error) {
	file := cc.file.withImports(importDecl(cc.allImports(), cc.c.typeImports), cc.keep)
	var errs []types.Error
	cc.pkg, cc.info, errs = cc.c.checkFile(file)
	return cc.sortErrors(errs)
}

// checkFile type-checks file as package main. It returns what go/types
// found, and its errors in the order it reported them.
func (c *checker) checkFile(file *ast.File) (*types.Package, *types.Info, []types.Error) {
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
// cell's *CompileError, at its cell line. What does not count: imports
// and top-level variables not used (the session keeps them for later
// cells), and the cell's last expression not used (its value is the
// result).
func (cc *checkedCell) sortErrors(errs []types.Error) (missing []string, err error) {
	for _, te := range errs {
		if i := indexAt(cc.file.sessionSpans, cc.c.fset.Position(te.Pos).Line); i >= 0 {
			return nil, &staleDecl{name: cc.file.sessionSpans[i].name, msg: te.Msg}
		}
	}
	for _, te := range errs {
		if name, ok := strings.CutPrefix(te.Msg, "undefined: "); ok {
			if p := cc.c.named(name); p != "" && !cc.auto[p] {
				if cc.c.elsewhere(p) {
					l, ok := cc.file.lineOf(te.Pos)
					if !ok {
						l = 1
					}
					return nil, cc.c.refused(l, p)
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
		if te.Soft && ((strings.Contains(te.Msg, "imported") && strings.HasSuffix(te.Msg, "and not used")) ||
			(strings.HasPrefix(te.Msg, "declared and not used: ") && topVars[strings.TrimPrefix(te.Msg, "declared and not used: ")])) {
			continue
		}
		if strings.HasSuffix(te.Msg, " is not used") && te.Pos == lastExpr {
			continue
		}
		if l, ok := cc.file.lineOf(te.Pos); ok {
			return nil, &CompileError{Line: l, Msg: te.Msg}
		}
		return nil, &CompileError{Line: 1, Msg: te.Msg}
	}
	return nil, nil
}

// topVars are the variables the cell defines at its top level, which
// live on as session variables.
func (cc *checkedCell) topVars() map[string]bool {
	vars := map[string]bool{}
	if sc := cc.info.Scopes[cc.file.body.Type]; sc != nil {
		for _, n := range sc.Names() {
			vars[n] = true
		}
	}
	return vars
}

// lastExpr is the position of the cell's last expression statement, if
// it ends with one.
func (cc *checkedCell) lastExpr() token.Pos {
	body := cc.body()
	if n := len(body); n > 0 {
		if es, ok := body[n-1].(*ast.ExprStmt); ok {
			return es.X.Pos()
		}
	}
	return token.NoPos
}

// packageNamed returns the import path of the one package yaegi has under
// name, or "" if it has none or several (rand: math/rand or crypto/rand).
// In a browser, the packages the server's engine has count as well, so
// that a name means the package it means on the server, or is refused.
func packageNamed(name string) string { return namedAmong(namedPackages(), name) }

// namedAmong returns the one import path of paths whose package is named
// name, or "" if there is none or several.
func namedAmong(paths []string, name string) string {
	found := ""
	for _, p := range paths {
		if p[strings.LastIndex(p, "/")+1:] == name {
			if found != "" {
				return ""
			}
			found = p
		}
	}
	return found
}

// namedPackages are the import paths packageNamed looks through: the
// packages compiled in, and in a browser those the server's engine has
// besides.
var namedPackages = sync.OnceValue(func() []string {
	var paths []string
	for p := range compiledIn() {
		paths = append(paths, p)
	}
	for _, p := range symbols.ServerStandard {
		if elsewhere(p) {
			paths = append(paths, p)
		}
	}
	return paths
})
