package check

import (
	"cmp"
	"errors"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/cells"
	"github.com/tensornb/tensornb/kernel/internal/interp/cell"
)

// checkedFileName names the files parseCell parses, in the Checker's
// file set (see dropFiles).
const checkedFileName = "cell.go"

// cellFunc is the function the checked file wraps a cell's statements in.
const cellFunc = "tensornbCell"

// A File is the Go file a cell is type-checked as: the session's
// declarations, then the variables hoisted out of the cell's statements
// (see hoist), then the cell's declarations, then its statements in the
// body of cellFunc. It is parsed once. Its imports are not written in its
// text: each check adds them as syntax (see importDecl), so that checking
// the cell again, with more imports or fewer session declarations, needs
// no new parse.
type File struct {
	fset *token.FileSet
	Src  string
	// Parsed is the file as parsed, without imports; cellDecls are its
	// declarations that are not the session's, and body its cellFunc.
	Parsed    *ast.File
	cellDecls []ast.Decl
	body      *ast.FuncDecl
	// syntax is the first syntax error in the cell, if it does not parse.
	syntax       *scanner.Error
	Spans        []Span        // the cell's units, in the file
	SessionSpans []SessionSpan // the session's declarations, in the file
}

// A LineRange is the lines first to last of a file the Checker parses.
type LineRange struct{ First, Last int }

// lines returns r, for indexAt.
func (r LineRange) lines() LineRange { return r }

// holds reports whether line l is one of r's.
func (r LineRange) holds(l int) bool { return within(l, r.First, r.Last) }

// within reports whether x lies between from and to, both included: a
// line in a span of lines, a byte offset in a unit, a position in a node.
func within[T cmp.Ordered](x, from, to T) bool { return from <= x && x <= to }

// indexAt returns the index of the span of spans, which are in the order
// of their lines, that holds line l, or -1.
func indexAt[S interface{ lines() LineRange }](spans []S, l int) int {
	i := sort.Search(len(spans), func(i int) bool { return spans[i].lines().Last >= l })
	if i < len(spans) && spans[i].lines().holds(l) {
		return i
	}
	return -1
}

// A Span is where a unit of the cell sits in a file the Checker parses.
type Span struct {
	LineRange
	Unit   cells.Unit
	Offset int // file byte offset of the unit's text
	// Nodes are the declarations, the statements of the cell's function,
	// or the import specs that start on the span's lines.
	Nodes []ast.Node
	// Added is set on a declaration a lowering added (Cell.Lowered): an
	// instance, or a declaration of another package's source, which a
	// program would have initialized before the cell's code ran.
	Added bool
}

// A SessionSpan is where a session declaration sits in a File.
type SessionSpan struct {
	LineRange
	Name string
	decl ast.Decl // once the file is parsed
}

// fileWriter writes a file the Checker parses, counting its lines.
type fileWriter struct {
	b    strings.Builder
	line int // the line the next text starts on
}

// newFileWriter starts a file of package main.
func newFileWriter() *fileWriter {
	w := &fileWriter{line: 1}
	w.write("package main\n")
	return w
}

// write adds s to the file.
func (w *fileWriter) write(s string) {
	w.b.WriteString(s)
	w.line += strings.Count(s, "\n")
}

// unit adds the text of u on lines of its own, and returns its span.
func (w *fileWriter) unit(u cells.Unit) Span {
	s := Span{LineRange: LineRange{First: w.line}, Unit: u, Offset: w.b.Len()}
	w.write(u.Text + "\n")
	s.Last = w.line - 1
	return s
}

// parseCell writes and parses the file that checks the units of a cell
// other than its imports, with the session's declarations before them
// that include says to include (all if it is nil), and then hoisted,
// package-level declarations of variables that the cell's statements
// define.
func (c *Checker) parseCell(units []cells.Unit, hoisted string, include func(name string) bool) *File {
	w := newFileWriter()
	f := &File{fset: c.fset}
	for _, d := range c.decls {
		if include != nil && !include(d.Name) {
			continue
		}
		first := w.line
		w.write(commentLines(d.Doc) + d.Src + "\n")
		f.SessionSpans = append(f.SessionSpans, SessionSpan{LineRange: LineRange{first, w.line - 1}, Name: d.Name})
	}
	w.write(hoisted)
	// The cell: declarations at top level, statements in a function.
	for _, u := range units {
		if u.Declaration && !IsImport(u) {
			f.Spans = append(f.Spans, w.unit(u))
		}
	}
	bodyLine := w.line
	w.write("func " + cellFunc + "() {\n")
	for _, u := range units {
		if !u.Declaration {
			f.Spans = append(f.Spans, w.unit(u))
		}
	}
	w.write("}\n")
	f.Src = w.b.String()
	c.parse(f, bodyLine)
	return f
}

// parse parses f.Src, whose spans are set, and gives each span the
// declarations and statements on its lines; the function on bodyLine is
// the one that holds the cell's statements.
func (c *Checker) parse(f *File, bodyLine int) {
	file, err := parser.ParseFile(c.fset, checkedFileName, f.Src, parser.ParseComments|parser.SkipObjectResolution)
	f.Parsed, f.syntax = file, firstError(err)
	for _, d := range file.Decls {
		if i := indexAt(f.SessionSpans, f.Line(d)); i >= 0 {
			f.SessionSpans[i].decl = d
			continue
		}
		f.cellDecls = append(f.cellDecls, d)
		if fd, ok := d.(*ast.FuncDecl); ok && f.Line(d) == bodyLine {
			f.body = fd
			continue
		}
		f.place(d)
	}
	if f.body != nil {
		for _, st := range f.body.Body.List {
			f.place(st)
		}
	}
}

// SessionName returns the name of the session's declaration n is in, if
// it is in one.
func (f *File) SessionName(n ast.Node) (string, bool) {
	if i := indexAt(f.SessionSpans, f.Line(n)); i >= 0 {
		return f.SessionSpans[i].Name, true
	}
	return "", false
}

// InSession reports whether n is in one of the session's declarations.
func (f *File) InSession(n ast.Node) bool { return indexAt(f.SessionSpans, f.Line(n)) >= 0 }

// Line returns the file line n starts on.
func (f *File) Line(n ast.Node) int { return f.fset.Position(n.Pos()).Line }

// place gives n to the span that holds the line it starts on, so that
// what is asked of one unit does not look through the whole file.
func (f *File) place(n ast.Node) {
	if i := indexAt(f.Spans, f.Line(n)); i >= 0 {
		f.Spans[i].Nodes = append(f.Spans[i].Nodes, n)
	}
}

// firstError returns the first error of a parse, nil if it had none.
func firstError(err error) *scanner.Error {
	if err == nil {
		return nil
	}
	var list scanner.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		return list[0]
	}
	return &scanner.Error{Msg: err.Error()}
}

// withImports returns the file to type-check: the imports of decl, the
// session's declarations that keep says to keep, and the cell's.
func (f *File) withImports(decl *ast.GenDecl, keep func(name string) bool) *ast.File {
	file := *f.Parsed
	file.Decls = nil
	if len(decl.Specs) > 0 {
		file.Decls = append(file.Decls, decl)
	}
	for _, s := range f.SessionSpans {
		if keep(s.Name) && s.decl != nil { // nil: lowered away
			file.Decls = append(file.Decls, s.decl)
		}
	}
	file.Decls = append(file.Decls, f.cellDecls...)
	return &file
}

// importDecl declares imports, path → name ("" for the package's own),
// in the order of their paths, then the packages that only the types of
// session variables name, under names of their own (see typeAlias). It
// is syntax, without positions: go/types reads it as it reads parsed
// imports, and its errors, like those of the session's declarations,
// name no line of the cell.
func importDecl(imports, typeImports map[string]string) *ast.GenDecl {
	d := &ast.GenDecl{Tok: token.IMPORT}
	for _, m := range []map[string]string{imports, typeImports} {
		for _, path := range slices.Sorted(maps.Keys(m)) {
			spec := &ast.ImportSpec{Path: &ast.BasicLit{Kind: token.STRING, Value: strconv.Quote(path)}}
			if m[path] != "" {
				spec.Name = ast.NewIdent(m[path])
			}
			d.Specs = append(d.Specs, spec)
		}
	}
	return d
}

// lineOf returns the cell line of a position in the file, if it is in
// one of the cell's units.
func (f *File) LineOf(pos token.Pos) (int, bool) {
	return f.cellLine(f.fset.Position(pos).Line)
}

// cellLine returns the cell line of file line l, if it is in one of the
// cell's units.
func (f *File) cellLine(l int) (int, bool) {
	if i := indexAt(f.Spans, l); i >= 0 {
		return f.Spans[i].Unit.Line + l - f.Spans[i].First, true
	}
	return 0, false
}

// text returns the text of n as written in the file.
func (f *File) Text(n ast.Node) string {
	return f.Src[f.fset.Position(n.Pos()).Offset:f.fset.Position(n.End()).Offset]
}

// syntaxError is the cell's first syntax error, at its cell line, or at
// line 1 if it lies outside the cell's units.
func (f *File) syntaxError() *cell.CompileError {
	l, ok := f.cellLine(f.syntax.Pos.Line)
	if !ok {
		l = 1
	}
	return &cell.CompileError{Line: l, Msg: "syntax error: " + f.syntax.Msg}
}

// parsedAsAlone reports whether the unit at sp parsed as it would alone:
// the cell's first syntax error, if it has one, comes after the unit, and
// what the unit declares ends in it.
func (f *File) parsedAsAlone(sp Span) bool {
	end := sp.Offset + len(sp.Unit.Text)
	if f.syntax != nil && f.syntax.Pos.Offset <= end {
		return false
	}
	for _, n := range sp.Nodes {
		if f.fset.Position(n.End()).Offset > end {
			return false
		}
	}
	return true
}

// offsetOf returns the offset in the file of a byte offset in the cell,
// or -1 if it lies in none of the file's units; where two units touch,
// the later span in the file has it.
func (f *File) offsetOf(cellOffset int) int {
	offset := -1
	for _, s := range f.Spans {
		if within(cellOffset, s.Unit.Offset, s.Unit.Offset+len(s.Unit.Text)) {
			offset = s.Offset + cellOffset - s.Unit.Offset
		}
	}
	return offset
}

// declared returns the names the cell's declarations declare, methods as
// Type.Method: the session's declarations of them are left out of the
// file that is type-checked.
func (f *File) declared() map[string]bool {
	names := map[string]bool{}
	for _, s := range f.Spans {
		for _, n := range s.Nodes {
			if d, ok := n.(ast.Decl); ok {
				for _, name := range declNames(d) {
					names[name] = true
				}
			}
		}
	}
	return names
}

// declNames lists the names d declares, a method as Type.Method.
func declNames(d ast.Decl) []string {
	var names []string
	switch d := d.(type) {
	case *ast.FuncDecl:
		names = append(names, cell.FuncName(d))
	case *ast.GenDecl:
		for _, spec := range d.Specs {
			switch spec := spec.(type) {
			case *ast.TypeSpec:
				names = append(names, spec.Name.Name)
			case *ast.ValueSpec:
				for _, n := range spec.Names {
					names = append(names, n.Name)
				}
			}
		}
	}
	return names
}

// commentLines writes a doc comment's text as // lines.
func commentLines(doc string) string {
	if doc == "" {
		return ""
	}
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimRight(doc, "\n"), "\n") {
		b.WriteString(strings.TrimRight("// "+l, " ") + "\n")
	}
	return b.String()
}
