package check

import (
	"fmt"
	"go/parser"
	"go/scanner"
	"go/token"
	"strconv"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/cells"
	"github.com/tensornb/tensornb/kernel/internal/interp/cell"
)

// An ImportFile is a cell's import units, parsed together in a file of
// their own, apart from the checked file (which has its imports as
// syntax; see importDecl). Each unit's errors read there as in the unit
// alone: an import block left open ends where the file ends, as it ends
// in the cell, and not where the cell's declarations would follow it.
type ImportFile struct {
	Units  []ImportUnit
	syntax *scanner.Error // the first syntax error, if they do not parse
}

// An ImportUnit is where an import unit sits in an ImportFile, and the
// imports it writes.
type ImportUnit struct {
	LineRange
	Unit  cells.Unit
	Specs []ImportSpec
}

// An ImportSpec is one import a cell writes.
type ImportSpec struct {
	Literal string // the path as written
	Path    string
	Name    string // "" for the package's own
	Line    int    // the cell line it is on
	Valid   bool   // whether the path is a string literal
}

// ParseImports parses the import units of a cell.
func ParseImports(units []cells.Unit) ImportFile {
	var f ImportFile
	w := newFileWriter()
	for _, u := range units {
		if !IsImport(u) {
			continue
		}
		if len(f.Units) > 0 {
			w.write("\n")
		}
		iu := ImportUnit{LineRange: LineRange{First: w.line}, Unit: u}
		w.write(u.Text)
		iu.Last = w.line
		f.Units = append(f.Units, iu)
	}
	if len(f.Units) == 0 {
		return f
	}
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "", w.b.String(), parser.ImportsOnly)
	f.syntax = firstError(err)
	for _, spec := range file.Imports {
		l := fset.Position(spec.Pos()).Line
		i := indexAt(f.Units, l)
		if i < 0 {
			continue
		}
		u := &f.Units[i]
		path, err := strconv.Unquote(spec.Path.Value)
		is := ImportSpec{Literal: spec.Path.Value, Path: path, Line: u.Unit.Line + l - u.First, Valid: err == nil}
		if spec.Name != nil {
			is.Name = spec.Name.Name
		}
		u.Specs = append(u.Specs, is)
	}
	return f
}

// readImports returns the imports the cell writes, path → name, and
// refuses those the session cannot make: a syntax error in an import
// unit, a package yaegi does not have (or the browser's engine does
// not), a package the session imports
// under another name. The units are read in the order written, each
// refused before the next is read.
func (c *Checker) readImports(f ImportFile) (map[string]string, error) {
	imports := map[string]string{}
	for _, u := range f.Units {
		if f.syntax != nil && u.holds(f.syntax.Pos.Line) {
			return nil, &cell.CompileError{Line: u.Unit.Line + f.syntax.Pos.Line - u.First, Msg: "syntax error: " + f.syntax.Msg}
		}
		for _, is := range u.Specs {
			if c.lib.Elsewhere(is.Path) {
				return nil, c.lib.Refuse(is.Line, is.Path)
			}
			if !c.lib.Has(is.Path) {
				return nil, &cell.Unsupported{Line: is.Line, What: fmt.Sprintf("package %s, which it does not have compiled in", is.Path)}
			}
			if had, ok := c.imports[is.Path]; ok && had != is.Name {
				return nil, &cell.CompileError{Line: u.Unit.Line, Msg: fmt.Sprintf("%s is imported already as %q; import it once, under one name", is.Literal, had)}
			}
			imports[is.Path] = is.Name
		}
	}
	return imports, nil
}

// IsImport reports whether u is an import declaration.
func IsImport(u cells.Unit) bool {
	return u.Declaration && strings.HasPrefix(u.Code(), "import")
}
