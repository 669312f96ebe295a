package check

import (
	"go/ast"
	"go/scanner"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/cells"
)

// A Cursor is a cell cut at the cursor and type-checked against the
// session, as a cell is checked before it runs, and the identifier at
// the cursor in it: what completion and inspection answer from.
type Cursor struct {
	File  *ast.File
	Pkg   *types.Package
	Info  *types.Info
	Ident *ast.Ident
	Sel   *ast.SelectorExpr // the selector whose Sel is Ident, if any
}

// placeholder is the identifier At puts after a dot with nothing after
// it, so that x. parses as a selector.
const placeholder = "_"

// At type-checks code[:end], its brackets closed, and finds the
// identifier that starts at start (a placeholder, if start == end); both
// are byte offsets. It returns nil if there is none, or the cursor is in
// a comment or string.
func (c *Checker) At(code string, start, end int) *Cursor {
	defer c.dropFiles(c.fset.Base())
	text := code[:end]
	if start == end {
		text += placeholder
	}
	closing, ok := closers(text)
	if !ok {
		return nil
	}
	text += closing
	units := cells.Split(text)
	cf := c.parseCell(units, "", nil) // all the session's names, to complete
	offset := cf.offsetOf(start)
	if offset < 0 {
		return nil
	}
	written := ParseImports(units)
	redeclared := cf.declared()
	keep := func(name string) bool { return !redeclared[name] }
	pos := c.fset.File(cf.Parsed.Pos()).Pos(offset)
	check := func(auto map[string]bool) (*Cursor, []string) {
		imports := c.cursorImports(written, auto)
		return c.checkCursor(cf.withImports(importDecl(imports, c.typeImports), keep), pos, imports, auto)
	}
	auto := map[string]bool{}
	for range 2 { // a second time with the packages the cell uses unimported
		at, missing := check(auto)
		if len(missing) == 0 {
			return at
		}
		for _, p := range missing {
			auto[p] = true
		}
	}
	at, _ := check(auto)
	return at
}

// cursorImports returns the imports a cell cut at the cursor is checked
// with, path → name: the session's, the packages of auto, and those the
// cell writes that yaegi has.
func (c *Checker) cursorImports(f ImportFile, auto map[string]bool) map[string]string {
	imports := map[string]string{}
	for p, n := range c.imports {
		imports[p] = n
	}
	for p := range auto {
		if _, ok := imports[p]; !ok {
			imports[p] = ""
		}
	}
	for _, u := range f.Units {
		for _, is := range u.Specs {
			if is.Valid && c.lib.Has(is.Path) {
				imports[is.Path] = is.Name
			}
		}
	}
	return imports
}

// checkCursor type-checks file, the session and a cell cut at the cursor
// with imports, and returns the identifier at pos, with the packages the
// cell uses without importing them, other than those of auto.
func (c *Checker) checkCursor(file *ast.File, pos token.Pos, imports map[string]string, auto map[string]bool) (*Cursor, []string) {
	pkg, info, errs := c.checkFile(file)
	var missing []string
	for _, te := range errs {
		if name, ok := strings.CutPrefix(te.Msg, "undefined: "); ok {
			if p := c.lib.Named(name); p != "" && !auto[p] {
				if _, imported := imports[p]; !imported {
					missing = append(missing, p)
				}
			}
		}
	}
	at := &Cursor{File: file, Pkg: pkg, Info: info}
	ast.Inspect(file, func(n ast.Node) bool {
		if at.Ident != nil || n == nil || !within(pos, n.Pos(), n.End()) {
			return false
		}
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if n.Sel.Pos() == pos {
				at.Ident, at.Sel = n.Sel, n
				return false
			}
		case *ast.Ident:
			if n.Pos() == pos {
				at.Ident = n
				return false
			}
		}
		return true
	})
	if at.Ident == nil {
		return nil, missing
	}
	return at, missing
}

// closers returns the brackets that close those open at the end of text,
// innermost first; ok is false if text ends in a comment or a string.
func closers(text string) (closing string, ok bool) {
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(text))
	var s scanner.Scanner
	s.Init(file, []byte(text), func(token.Position, string) {}, scanner.ScanComments)
	var open []byte
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		switch tok {
		case token.LPAREN:
			open = append(open, ')')
		case token.LBRACK:
			open = append(open, ']')
		case token.LBRACE:
			open = append(open, '}')
		case token.RPAREN, token.RBRACK, token.RBRACE:
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
		case token.COMMENT, token.STRING, token.CHAR:
			if file.Offset(pos)+len(lit) >= len(text) && !closedAtEnd(tok, lit) {
				return "", false
			}
		}
	}
	for i := len(open) - 1; i >= 0; i-- {
		closing += string(open[i])
	}
	return closing, true
}

// closedAtEnd reports whether a comment or literal that reaches the end
// of the text is complete there: a /* */ comment or a quoted literal is;
// a // comment never is, since the cursor is in it.
func closedAtEnd(tok token.Token, lit string) bool {
	switch tok {
	case token.COMMENT:
		return strings.HasPrefix(lit, "/*") && strings.HasSuffix(lit, "*/") && len(lit) >= 4
	case token.STRING:
		if strings.HasPrefix(lit, "`") {
			return len(lit) >= 2 && strings.HasSuffix(lit, "`")
		}
		_, err := strconv.Unquote(lit)
		return err == nil
	case token.CHAR:
		_, _, _, err := strconv.UnquoteChar(strings.TrimPrefix(lit, "'"), '\'')
		return err == nil && len(lit) >= 3 && strings.HasSuffix(lit, "'")
	}
	return true
}
