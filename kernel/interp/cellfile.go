package interp

import (
	"fmt"
	"go/ast"
	"go/token"
	"sort"
	"strings"

	"github.com/tensornb/tensornb/kernel/cells"
)

// A cellFile is the Go file a cell is type-checked as: the session's
// imports and declarations, then the cell's declarations, then its
// statements in the body of cellFunc.
type cellFile struct {
	src          string
	spans        []span        // the cell's units, in the file
	sessionSpans []sessionSpan // the session's declarations, in the file
}

// A sessionSpan is where a session declaration sits in a cellFile.
type sessionSpan struct {
	name        string
	first, last int // file lines
}

// assemble writes the file that checks units: imports (path → name, ""
// for the package's own), the packages session variables' types need,
// and the session's declarations less those in redeclared.
func (c *checker) assemble(units []cells.Unit, imports map[string]string, redeclared map[string]bool) cellFile {
	var b strings.Builder
	line := 1
	write := func(s string) {
		b.WriteString(s)
		line += strings.Count(s, "\n")
	}
	write("package main\n")

	paths := make([]string, 0, len(imports))
	for p := range imports {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		write(fmt.Sprintf("import %s %q\n", imports[p], p))
	}
	// Packages that only the types of session variables name, under
	// names of their own (see typeAlias).
	typePaths := make([]string, 0, len(c.typeImports))
	for p := range c.typeImports {
		typePaths = append(typePaths, p)
	}
	sort.Strings(typePaths)
	for _, p := range typePaths {
		write(fmt.Sprintf("import %s %q\n", c.typeImports[p], p))
	}

	var f cellFile
	written := map[string]bool{}
	for _, d := range c.decls {
		if !redeclared[d.name] && !written[d.src] { // a const group is one source for several names
			written[d.src] = true
			first := line
			write(commentLines(d.doc) + d.src + "\n")
			f.sessionSpans = append(f.sessionSpans, sessionSpan{d.name, first, line - 1})
		}
	}

	// The cell: declarations at top level, statements in a function.
	add := func(u cells.Unit) {
		s := span{unit: u, first: line, offset: b.Len()}
		write(u.Text + "\n")
		s.last = line - 1
		f.spans = append(f.spans, s)
	}
	for _, u := range units {
		if u.Declaration && !isImport(u) {
			add(u)
		}
	}
	write("func " + cellFunc + "() {\n")
	for _, u := range units {
		if !u.Declaration {
			add(u)
		}
	}
	write("}\n")
	f.src = b.String()
	return f
}

// spanAt returns the index of the span that holds file line l, or -1.
// The spans are in the order of their lines.
func (f *cellFile) spanAt(l int) int {
	i := sort.Search(len(f.spans), func(i int) bool { return f.spans[i].last >= l })
	if i < len(f.spans) && f.spans[i].first <= l {
		return i
	}
	return -1
}

// sessionSpanAt returns the session declaration that holds file line l.
func (f *cellFile) sessionSpanAt(l int) (sessionSpan, bool) {
	i := sort.Search(len(f.sessionSpans), func(i int) bool { return f.sessionSpans[i].last >= l })
	if i < len(f.sessionSpans) && f.sessionSpans[i].first <= l {
		return f.sessionSpans[i], true
	}
	return sessionSpan{}, false
}

// place gives each span the declarations and statements (of the cell's
// function) that start on its lines, so that what is asked of one unit
// does not look through the whole file.
func (f *cellFile) place(fset *token.FileSet, decls []ast.Decl, stmts []ast.Stmt) {
	add := func(n ast.Node) {
		if i := f.spanAt(fset.Position(n.Pos()).Line); i >= 0 {
			f.spans[i].nodes = append(f.spans[i].nodes, n)
		}
	}
	for _, d := range decls {
		add(d)
	}
	for _, st := range stmts {
		add(st)
	}
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
