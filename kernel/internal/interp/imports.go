package interp

import (
	"fmt"
	"go/parser"
	"go/scanner"
	"go/token"
	"strconv"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/cells"
)

// An importFile is a cell's import units, parsed together in a file of
// their own, apart from the checked file (which has its imports as
// syntax; see importDecl). Each unit's errors read there as in the unit
// alone: an import block left open ends where the file ends, as it ends
// in the cell, and not where the cell's declarations would follow it.
type importFile struct {
	units  []importUnit
	syntax *scanner.Error // the first syntax error, if they do not parse
}

// An importUnit is where an import unit sits in an importFile, and the
// imports it writes.
type importUnit struct {
	lineRange
	unit  cells.Unit
	specs []importSpec
}

// An importSpec is one import a cell writes.
type importSpec struct {
	literal string // the path as written
	path    string
	name    string // "" for the package's own
	line    int    // the cell line it is on
	valid   bool   // whether the path is a string literal
}

// parseImports parses the import units of a cell.
func parseImports(units []cells.Unit) importFile {
	var f importFile
	w := newFileWriter()
	for _, u := range units {
		if !isImport(u) {
			continue
		}
		if len(f.units) > 0 {
			w.write("\n")
		}
		iu := importUnit{lineRange: lineRange{first: w.line}, unit: u}
		w.write(u.Text)
		iu.last = w.line
		f.units = append(f.units, iu)
	}
	if len(f.units) == 0 {
		return f
	}
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "", w.b.String(), parser.ImportsOnly)
	f.syntax = firstError(err)
	for _, spec := range file.Imports {
		l := fset.Position(spec.Pos()).Line
		i := indexAt(f.units, l)
		if i < 0 {
			continue
		}
		u := &f.units[i]
		path, err := strconv.Unquote(spec.Path.Value)
		is := importSpec{literal: spec.Path.Value, path: path, line: u.unit.Line + l - u.first, valid: err == nil}
		if spec.Name != nil {
			is.name = spec.Name.Name
		}
		u.specs = append(u.specs, is)
	}
	return f
}

// readImports returns the imports the cell writes, path → name, and
// refuses those the session cannot make: a syntax error in an import
// unit, a package yaegi does not have (or the browser's engine does
// not), a package the session imports
// under another name. The units are read in the order written, each
// refused before the next is read.
func (c *checker) readImports(f importFile) (map[string]string, error) {
	imports := map[string]string{}
	for _, u := range f.units {
		if f.syntax != nil && u.holds(f.syntax.Pos.Line) {
			return nil, &CompileError{Line: u.unit.Line + f.syntax.Pos.Line - u.first, Msg: "syntax error: " + f.syntax.Msg}
		}
		for _, is := range u.specs {
			if c.elsewhere(is.path) {
				return nil, c.refused(is.line, is.path)
			}
			if !c.has(is.path) {
				return nil, &Unsupported{Line: is.line, What: fmt.Sprintf("package %s, which it does not have compiled in", is.path)}
			}
			if had, ok := c.imports[is.path]; ok && had != is.name {
				return nil, &CompileError{Line: u.unit.Line, Msg: fmt.Sprintf("%s is imported already as %q; import it once, under one name", is.literal, had)}
			}
			imports[is.path] = is.name
		}
	}
	return imports, nil
}

// isImport reports whether u is an import declaration.
func isImport(u cells.Unit) bool {
	return u.Declaration && strings.HasPrefix(u.Code(), "import")
}
