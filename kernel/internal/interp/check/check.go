package check

import (
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"slices"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/cells"
	"github.com/tensornb/tensornb/kernel/internal/interp/cell"
)

// A Checker type-checks each cell with go/types against what the cells
// before it declared, before yaegi runs it, so that a cell gets Go's own
// errors at its own lines, and refuses what yaegi v0.16.1 would run
// differently from Go and no rewrite can mend.
//
// A cell goes through it in phases, each in a file of its own: its units
// are parsed once (cellfile.go, imports.go), checked with go/types and
// its errors sorted (typecheck.go), and refused where the interpreter
// would run it differently (refuse.go); then the lowering Check is given
// (package rewrite) makes its steps, and what the steps declare is kept
// for later cells (decls.go).
type Checker struct {
	fset *token.FileSet
	imp  types.Importer
	lib  Library

	imports map[string]string // import path → the name it was imported as ("" for its own)
	// written are the imports a cell wrote, not made for it (Cell.Auto).
	written map[string]bool
	// typeImports are packages the types of session variables come from
	// without the cells importing them (hash, for a hash.Hash).
	typeImports map[string]string // path → alias, for checking
	// typeImported are the type-only imports the interpreter has made.
	typeImported map[string]string
	// decls are what the cells declared, one per name; declAt indexes
	// them by name.
	decls  []cell.Decl
	declAt map[string]int
	// index finds the declarations a cell needs checked with it, and
	// changed are the names whose declarations the cells since the last
	// check changed or added (a variable that a statement defined
	// anew, with another type): the next cell is checked with the
	// declarations that use them, which may no longer compile.
	index   *sessionIndex
	changed map[string]bool

	// unmarked are the texts, without their marks, of the functions the
	// cells declared with marks, by cell.FuncName: to declare again when
	// a go statement comes to reach them (package rewrite).
	unmarked map[string]string

	// free holds freeNames of the declarations Reaches has read, by name,
	// with the text they were read from: a program of GoNB's kind asks, in
	// every cell, what each of the session's variables reaches.
	free map[string]freeNamesOf
}

// A Library is what a Checker asks of the packages the interpreter has
// compiled in (a *compiled.Library, or a narrower view of one).
type Library interface {
	// Has reports whether the package at path is compiled in, and
	// HasSymbol whether name of that package is.
	Has(path string) bool
	HasSymbol(path, name string) bool
	// Elsewhere reports whether a package is one that another engine has
	// and this one does not: a cell using it is refused with Refuse's
	// error, at its line.
	Elsewhere(path string) bool
	Refuse(line int, path string) error
	// Named returns the import path of the one package a name means, or
	// "".
	Named(name string) string
}

// New returns a checker of cells with no session yet: fset holds the
// positions of the files it checks, imp imports their packages for
// go/types, and lib says what yaegi has compiled in.
func New(fset *token.FileSet, imp types.Importer, lib Library) *Checker {
	return &Checker{fset: fset, imp: imp, lib: lib, imports: map[string]string{}, written: map[string]bool{}, typeImports: map[string]string{}, typeImported: map[string]string{},
		declAt: map[string]int{}, index: newSessionIndex(), changed: map[string]bool{}, unmarked: map[string]string{}}
}

// Restrict narrows what cells may use from now on to lib: a sandboxed
// session's.
func (c *Checker) Restrict(lib Library) { c.lib = lib }

// Importer imports the packages cells use, for go/types.
func (c *Checker) Importer() types.Importer { return c.imp }

// A Cell is one cell on its way through the checker: its units, parsed
// once, the imports it writes and those added for it, and what go/types
// found in it the last time it was checked.
type Cell struct {
	c       *Checker
	Units   []cells.Unit
	File    *File
	Imports ImportFile
	// CellImports are the imports the cell makes, path → name: those it
	// writes, and those added for it (Auto) because it uses a package
	// without importing it.
	CellImports map[string]string
	Auto        map[string]bool
	// redeclared are the names the cell declares: the session's
	// declarations of them are left out of the checked file. So are
	// those of Hoisted, the variables that statements of the cell define
	// with := and its declarations use (see hoist); nil until hoist ran.
	redeclared map[string]bool
	Hoisted    map[string]bool
	// hoistedSrc declares the hoisted variables; uses are the
	// identifiers of the cell, and forgotten the session's declarations
	// that checking it forgot: with redeclared, Hoisted and the cell's
	// imports, they say which of the session's declarations the checked
	// file holds (see sessionrefs.go).
	hoistedSrc string
	uses       []string
	forgotten  map[string]bool

	Pkg  *types.Package
	Info *types.Info
}

// Check type-checks code and gives the cell to lower, which returns the
// steps that run it, or why it cannot; it returns them with notes for
// the person: an earlier cell's declaration that no longer compiles with
// this cell is forgotten, and a note says so. A package the cell uses
// without importing it is imported for it, as goimports does for GoNB's
// cells, when its name says which package it is.
func (c *Checker) Check(code string, lower func(*Cell) ([]cell.Step, error)) (steps []cell.Step, notes []string, err error) {
	defer c.dropFiles(c.fset.Base())
	cc, err := c.read(code)
	if err != nil {
		return nil, nil, err
	}
	notes, err = cc.typeCheckSettled()
	clear(c.changed) // what they reached is checked, and forgotten if stale
	if err != nil {
		return nil, notes, err
	}
	if err := cc.refuseTopLevel(); err != nil {
		return nil, notes, err
	}
	steps, err = lower(cc)
	if err == nil {
		for p := range cc.CellImports {
			if !cc.Auto[p] {
				c.written[p] = true
			}
		}
	}
	return steps, notes, err
}

// read splits code into units and parses them, and refuses what can be
// refused before type-checking: its imports first, then new definitions
// of the session's types and methods, then a syntax error.
func (c *Checker) read(code string) (*Cell, error) {
	cc := &Cell{c: c, Units: withoutPackageClause(cells.Split(code)), Auto: map[string]bool{}}
	cc.Imports = ParseImports(cc.Units)
	var err error
	if cc.CellImports, err = c.readImports(cc.Imports); err != nil {
		return nil, err
	}
	cc.File = c.parseCell(cc.Units, "", func(string) bool { return false })
	if err := cc.refuseRedefinitions(); err != nil {
		return nil, err
	}
	if cc.File.syntax != nil {
		return nil, cc.File.syntaxError()
	}
	cc.redeclared = cc.File.declared()
	cc.uses = identifiers(code)
	if slices.Contains(cc.uses, "As") {
		// errors.As, lowered, asks the cells' types that have an
		// Unwrap or As method (package rewrite's errors.go).
		cc.uses = append(cc.uses, "Unwrap")
	}
	cc.forgotten = map[string]bool{}
	cc.reparse()
	return cc, nil
}

// packageClause matches a package clause: package main.
var packageClause = regexp.MustCompile(`^package\s+[\pL_][\pL\pN_]*$`)

// withoutPackageClause drops a package clause from a cell's units, as GoNB
// does: a whole program pasted into a cell is its declarations and main.
func withoutPackageClause(units []cells.Unit) []cells.Unit {
	return slices.DeleteFunc(units, func(u cells.Unit) bool { return packageClause.MatchString(u.Code()) })
}

// reparse parses the cell again, with the session's declarations it
// needs (sessionNeeded) and its hoisted variables, if it has any: the
// file read parsed first holds the cell alone.
func (cc *Cell) reparse() {
	need := cc.sessionNeeded()
	if need != nil && len(need) == 0 && cc.hoistedSrc == "" && len(cc.File.SessionSpans) == 0 {
		return // the cell alone, as parsed
	}
	include := func(name string) bool { return need[name] }
	if need == nil {
		include = nil
	}
	cc.File = cc.c.parseCell(cc.Units, cc.hoistedSrc, include)
}

// sessionNeeded returns the names of the session's declarations the cell
// is checked with, or nil for all of them: a package imported with a
// dot brings names that are not written.
func (cc *Cell) sessionNeeded() map[string]bool {
	changed := map[string]bool{}
	for _, m := range []map[string]bool{cc.redeclared, cc.Hoisted, cc.forgotten, cc.c.changed} {
		for n := range m {
			changed[n] = true
		}
	}
	for _, imports := range []map[string]string{cc.c.imports, cc.CellImports} {
		for _, name := range imports {
			if name == "." {
				return nil
			}
		}
	}
	for p, name := range cc.CellImports {
		if _, had := cc.c.imports[p]; had {
			continue
		}
		// The names a package may be imported under: its own, which
		// its path says (math/rand/v2's is rand).
		if name != "" && name != "_" {
			changed[name] = true
		}
		parts := strings.Split(p, "/")
		changed[parts[len(parts)-1]] = true
		if len(parts) > 1 {
			changed[parts[len(parts)-2]] = true
		}
	}
	return cc.c.index.needed(cc.uses, changed, cc.keep)
}

// keep reports whether the checked file holds the session's declaration
// of name: it is not forgotten, and the cell does not declare it again.
func (cc *Cell) keep(name string) bool {
	_, declared := cc.c.declAt[name]
	return declared && !cc.redeclared[name] && !cc.Hoisted[name]
}

// addImports imports packages for the cell, which uses them without
// importing them.
func (cc *Cell) addImports(paths []string) {
	for _, p := range paths {
		cc.Auto[p] = true
		if _, ok := cc.c.imports[p]; !ok {
			cc.CellImports[p] = ""
		}
	}
	cc.reparse() // with the declarations that use the packages' names
}

// allImports are the imports the cell is checked with, path → name: the
// session's and the cell's.
func (cc *Cell) allImports() map[string]string {
	all := map[string]string{}
	for p, n := range cc.c.imports {
		all[p] = n
	}
	for p, n := range cc.CellImports {
		all[p] = n
	}
	return all
}

// SessionImports reports whether the session has imported the package
// at path already.
func (cc *Cell) SessionImports(path string) bool {
	_, ok := cc.c.imports[path]
	return ok
}

// Unmarked returns the text without marks of the session's function
// name, if it was declared with marks.
func (cc *Cell) Unmarked(name string) (string, bool) {
	text, ok := cc.c.unmarked[name]
	return text, ok
}

// HasSymbol reports whether the interpreter has name, of the package at
// path, compiled in.
func (cc *Cell) HasSymbol(path, name string) bool { return cc.c.lib.HasSymbol(path, name) }

// FileSet holds the positions of the cell's file.
func (cc *Cell) FileSet() *token.FileSet { return cc.c.fset }

// TypeFor writes t as yaegi can read it in the session, the cell's
// imports included (see Checker.TypeFor).
func (cc *Cell) TypeFor(t types.Type, imports map[string]string) string {
	return cc.c.TypeFor(t, cc.Pkg, cc.CellImports, imports)
}

// Qualifier names packages in the cell's type strings as the session
// imports them (see Checker.Qualifier).
func (cc *Cell) Qualifier() types.Qualifier { return cc.c.Qualifier(cc.Pkg) }

// dropFiles removes from the checker's file set the files it parsed
// cells into from base on (checkedFileName): their positions are read
// only while the cell is checked, or the cursor's completed. The files
// of imported packages, which the importer adds to the same set, stay.
func (c *Checker) dropFiles(base int) {
	for p := base; p < c.fset.Base(); {
		f := c.fset.File(token.Pos(p))
		if f == nil || f.Base() != p {
			return
		}
		p = f.Base() + f.Size() + 1
		if f.Name() == checkedFileName {
			c.fset.RemoveFile(f)
		}
	}
}

// A staleDecl is an earlier cell's declaration that no longer compiles.
type staleDecl struct{ name, msg string }

// Error names the declaration and what go/types says of it.
func (s *staleDecl) Error() string { return s.name + ": " + s.msg }

// body returns the statements of the cell, as the checked file has them
// in cellFunc.
func (cc *Cell) body() []ast.Stmt { return cc.File.body.Body.List }
