package interp

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/cells"
	"github.com/tensornb/tensornb/kernel/internal/interp/symbols"
)

// A checker type-checks each cell with go/types against what the cells
// before it declared, before yaegi runs it, so that a cell gets Go's own
// errors at its own lines; and it rewrites, or refuses, what yaegi v0.16.1
// would run differently from Go.
//
// A cell goes through it in phases, each in a file of its own: its units
// are parsed once (cellfile.go, imports.go), checked with go/types and
// its errors sorted (typecheck.go), refused where the interpreter would
// run it differently (refuse.go), rewritten (rewrite.go), and cut into
// the steps yaegi runs (steps.go); what the steps declare is kept for
// later cells (decls.go).
type checker struct {
	fset *token.FileSet
	imp  types.Importer
	// has reports whether yaegi has the package of an import path, and
	// hasSymbol whether it has a name of that package.
	has       func(path string) bool
	hasSymbol func(path, name string) bool
	// elsewhere reports whether a package is one that the server's
	// engine has and the checked engine does not (a cell using it is
	// refused with a *NotInBrowser), and named returns the import path of
	// the one package a name means (packageNamed). They are this build's
	// (standard_js.go, standard_other.go) unless the checker checks for
	// another engine (browsercheck.go).
	elsewhere func(path string) bool
	named     func(name string) string
	// refused is the error of a cell that uses such a package at a line:
	// a *NotInBrowser, or in a sandboxed session a *NotInSandbox.
	refused func(line int, path string) error

	imports map[string]string // import path → the name it was imported as ("" for its own)
	// typeImports are packages the types of session variables come from
	// without the cells importing them (hash, for a hash.Hash).
	typeImports map[string]string // path → alias, for checking
	// typeImported are the type-only imports the interpreter has made.
	typeImported map[string]string
	// decls are what the cells declared, one per name; declAt indexes
	// them by name.
	decls  []sessionDecl
	declAt map[string]int
	// index finds the declarations a cell needs checked with it, and
	// changed are the names whose declarations the cells since the last
	// check changed or added (a variable that a statement defined
	// anew, with another type): the next cell is checked with the
	// declarations that use them, which may no longer compile.
	index   *sessionIndex
	changed map[string]bool

	// sites are the places in the cells' code that the rewrite marked
	// (frames.go), by number, and cell the cell being checked.
	sites siteTable
	cell  *cellRecord
	// unmarked are the texts, without their marks, of the functions the
	// cells declared with marks, by funcName: to declare again when a go
	// statement comes to reach them (instrument.go).
	unmarked map[string]string
}

// newChecker returns a checker of cells with no session yet: fset holds
// the positions of the files it checks, imp imports their packages for
// go/types, and has and hasSymbol say what yaegi has compiled in.
func newChecker(fset *token.FileSet, imp types.Importer, has func(string) bool, hasSymbol func(path, name string) bool) *checker {
	return &checker{fset: fset, imp: imp, has: has, hasSymbol: hasSymbol, elsewhere: elsewhere, named: packageNamed, refused: notInBrowser, imports: map[string]string{}, typeImports: map[string]string{}, typeImported: map[string]string{}, declAt: map[string]int{}, index: newSessionIndex(), changed: map[string]bool{},
		cell: newCellRecord("", 0), unmarked: map[string]string{}}
}

// A checkedCell is one cell on its way through the checker: its units,
// parsed once, the imports it writes and those added for it, and what
// go/types found in it the last time it was checked.
type checkedCell struct {
	c       *checker
	units   []cells.Unit
	file    *cellFile
	imports importFile
	// cellImports are the imports the cell makes, path → name: those it
	// writes, and those added for it (auto) because it uses a package
	// without importing it.
	cellImports map[string]string
	auto        map[string]bool
	// redeclared are the names the cell declares: the session's
	// declarations of them are left out of the checked file. So are
	// those of hoisted, the variables that statements of the cell define
	// with := and its declarations use (see hoist); nil until hoist ran.
	redeclared map[string]bool
	hoisted    map[string]bool
	// hoistedSrc declares the hoisted variables; uses are the
	// identifiers of the cell, and forgotten the session's declarations
	// that checking it forgot: with redeclared, hoisted and the cell's
	// imports, they say which of the session's declarations the checked
	// file holds (see sessionrefs.go).
	hoistedSrc string
	uses       []string
	forgotten  map[string]bool

	pkg  *types.Package
	info *types.Info
}

// check type-checks code and returns the steps to run it, with notes for
// the person: an earlier cell's declaration that no longer compiles with
// this cell is forgotten, and a note says so. A package the cell uses
// without importing it is imported for it, as goimports does for GoNB's
// cells, when its name says which package it is.
func (c *checker) check(code string) (steps []step, notes []string, err error) {
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
	r, err := cc.rewrite()
	if err != nil {
		return nil, notes, err
	}
	return cc.steps(r), notes, nil
}

// read splits code into units and parses them, and refuses what can be
// refused before type-checking: its imports first, then new definitions
// of the session's types and methods, then a syntax error.
func (c *checker) read(code string) (*checkedCell, error) {
	cc := &checkedCell{c: c, units: cells.Split(code), auto: map[string]bool{}}
	cc.imports = parseImports(cc.units)
	var err error
	if cc.cellImports, err = c.readImports(cc.imports); err != nil {
		return nil, err
	}
	cc.file = c.parseCell(cc.units, "", func(string) bool { return false })
	if err := cc.refuseRedefinitions(); err != nil {
		return nil, err
	}
	if cc.file.syntax != nil {
		return nil, cc.file.syntaxError()
	}
	cc.redeclared = cc.file.declared()
	cc.uses = identifiers(code)
	cc.forgotten = map[string]bool{}
	cc.reparse()
	return cc, nil
}

// reparse parses the cell again, with the session's declarations it
// needs (sessionNeeded) and its hoisted variables, if it has any: the
// file read parsed first holds the cell alone.
func (cc *checkedCell) reparse() {
	need := cc.sessionNeeded()
	if need != nil && len(need) == 0 && cc.hoistedSrc == "" && len(cc.file.sessionSpans) == 0 {
		return // the cell alone, as parsed
	}
	include := func(name string) bool { return need[name] }
	if need == nil {
		include = nil
	}
	cc.file = cc.c.parseCell(cc.units, cc.hoistedSrc, include)
}

// sessionNeeded returns the names of the session's declarations the cell
// is checked with, or nil for all of them: a package imported with a
// dot brings names that are not written.
func (cc *checkedCell) sessionNeeded() map[string]bool {
	changed := map[string]bool{}
	for _, m := range []map[string]bool{cc.redeclared, cc.hoisted, cc.forgotten, cc.c.changed} {
		for n := range m {
			changed[n] = true
		}
	}
	for _, imports := range []map[string]string{cc.c.imports, cc.cellImports} {
		for _, name := range imports {
			if name == "." {
				return nil
			}
		}
	}
	for p, name := range cc.cellImports {
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
func (cc *checkedCell) keep(name string) bool {
	_, declared := cc.c.declAt[name]
	return declared && !cc.redeclared[name] && !cc.hoisted[name]
}

// addImports imports packages for the cell, which uses them without
// importing them.
func (cc *checkedCell) addImports(paths []string) {
	for _, p := range paths {
		cc.auto[p] = true
		if _, ok := cc.c.imports[p]; !ok {
			cc.cellImports[p] = ""
		}
	}
	cc.reparse() // with the declarations that use the packages' names
}

// allImports are the imports the cell is checked with, path → name: the
// session's and the cell's.
func (cc *checkedCell) allImports() map[string]string {
	all := map[string]string{}
	for p, n := range cc.c.imports {
		all[p] = n
	}
	for p, n := range cc.cellImports {
		all[p] = n
	}
	return all
}

// dropFiles removes from the checker's file set the files it parsed
// cells into from base on (checkedFileName): their positions are read
// only while the cell is checked, or the cursor's completed. The files
// of imported packages, which the importer adds to the same set, stay.
func (c *checker) dropFiles(base int) {
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

// An Unsupported error is a cell the interpreter cannot run as Go would.
type Unsupported struct {
	Line int
	What string
}

// Error names the cell line and what the interpreter cannot run, and
// says how to run the cell with GoNB instead (compileInstead).
func (u *Unsupported) Error() string {
	return fmt.Sprintf("cell line %d: the instant engine cannot run %s; %s", u.Line, u.What, compileInstead)
}

// A NotInBrowser is a cell that imports, or uses without importing, a
// standard package that the server's engine has compiled in and the
// browser's does not.
type NotInBrowser struct {
	Line int
	Path string
}

// Error names the package, the packages the browser has, and where the
// cell runs.
func (n *NotInBrowser) Error() string {
	return fmt.Sprintf("cell line %d: package %s is not in the browser's engine, which has tensor, display and, of the standard library, only %s; the tensornb kernel in Jupyter has it", n.Line, n.Path, strings.Join(symbols.BrowserStandard, ", "))
}

// notInBrowser is the checker's refusal of a package the browser lacks.
func notInBrowser(line int, path string) error { return &NotInBrowser{Line: line, Path: path} }

// A CompileError is a cell that does not type-check. A cell that does not
// parse has Msg "syntax error: " and go/parser's message, as the Go
// compiler names it.
type CompileError struct {
	Line int
	Msg  string
}

// Error names the cell line and the compiler's message.
func (c *CompileError) Error() string { return fmt.Sprintf("cell line %d: %s", c.Line, c.Msg) }

// body returns the statements of the cell, as the checked file has them
// in cellFunc.
func (cc *checkedCell) body() []ast.Stmt { return cc.file.body.Body.List }
