package interp

import (
	"bytes"
	"go/ast"
	"go/scanner"
	"go/token"
	"go/types"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tensornb/tensornb/kernel/internal/cells"
	"github.com/tensornb/tensornb/kernel/internal/front"
)

// Completion and inspection type-check the cell, cut at the cursor,
// against the session as a cell is checked before it runs, and answer
// from go/types: the members of the type or package before a dot, or the
// names in scope at the cursor.

// A candidate is one completion: a name, its kind as JupyterLab names
// kinds, and its declaration.
type candidate struct {
	name, kind, signature string
}

// complete returns the candidates for the name that ends at cursor (a
// byte offset) in code, and the byte offset where that name starts.
func (c *checker) complete(code string, cursor int) ([]candidate, int) {
	defer c.dropFiles(c.fset.Base())
	start := identStart(code, cursor)
	prefix := code[start:cursor]
	afterDot := start > 0 && code[start-1] == '.'
	if prefix == "" && !afterDot {
		return nil, start
	}
	at := c.checkAt(code, start, cursor)
	if at == nil {
		return nil, start
	}
	var objs []types.Object
	if at.sel != nil {
		objs = at.members(at.sel.X)
	} else if prefix != "" {
		objs = at.inScope()
	}
	seen := map[string]bool{}
	var out []candidate
	for _, obj := range objs {
		name := obj.Name()
		if !strings.HasPrefix(name, prefix) || seen[name] || internalName(name) {
			continue
		}
		seen[name] = true
		out = append(out, candidate{name: name, kind: completionKind(obj), signature: declaration(obj)})
	}
	if at.sel == nil && prefix != "" {
		// Packages a cell may use without importing them.
		for path := range compiledIn() {
			name := path[strings.LastIndex(path, "/")+1:]
			if strings.HasPrefix(name, prefix) && !seen[name] && packageNamed(name) == path && token.IsIdentifier(name) {
				seen[name] = true
				out = append(out, candidate{name: name, kind: "module", signature: "package " + name + " " + strconv.Quote(path)})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out, start
}

// inspect returns the declaration and doc comment of the name at cursor
// (a byte offset) in code, or, between a call's parentheses, of the
// function called.
func (c *checker) inspect(code string, cursor int, d *docs) (signature, doc string, found bool) {
	defer c.dropFiles(c.fset.Base())
	start, end := identStart(code, cursor), identEnd(code, cursor)
	if start == end {
		open, ok := callOpen(code, cursor)
		if !ok {
			return "", "", false
		}
		end = len(strings.TrimRightFunc(code[:open], unicode.IsSpace))
		start = identStart(code, end)
		if start == end {
			return "", "", false
		}
	}
	at := c.checkAt(code, start, end)
	if at == nil {
		return "", "", false
	}
	obj := at.object()
	if obj == nil {
		return "", "", false
	}
	if _, isPkg := obj.(*types.PkgName); !isPkg && obj.Pkg() == at.pkg {
		doc = at.docInFile(obj)
	} else if v, ok := obj.(*types.Var); ok && v.IsField() && at.sel != nil {
		doc = d.lookupField(at.info.Types[at.sel.X].Type, obj)
	} else {
		doc = d.of(obj)
	}
	return declaration(obj), trimDoc(doc), true
}

// A cursorCheck is a cell cut at the cursor and type-checked against the
// session, and the identifier at the cursor in it.
type cursorCheck struct {
	file  *ast.File
	pkg   *types.Package
	info  *types.Info
	ident *ast.Ident
	sel   *ast.SelectorExpr // the selector whose Sel is ident, if any
}

// placeholder is the identifier completion puts after a dot with nothing
// after it, so that x. parses as a selector.
const placeholder = "_"

// checkAt type-checks code[:end], its brackets closed, and finds the
// identifier that starts at start (the placeholder, if start == end). It
// returns nil if there is none, or the cursor is in a comment or string.
func (c *checker) checkAt(code string, start, end int) *cursorCheck {
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
	written := parseImports(units)
	redeclared := cf.declared()
	keep := func(name string) bool { return !redeclared[name] }
	pos := c.fset.File(cf.parsed.Pos()).Pos(offset)
	check := func(auto map[string]bool) (*cursorCheck, []string) {
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
func (c *checker) cursorImports(f importFile, auto map[string]bool) map[string]string {
	imports := map[string]string{}
	for p, n := range c.imports {
		imports[p] = n
	}
	for p := range auto {
		if _, ok := imports[p]; !ok {
			imports[p] = ""
		}
	}
	for _, u := range f.units {
		for _, is := range u.specs {
			if is.valid && c.has(is.path) {
				imports[is.path] = is.name
			}
		}
	}
	return imports
}

// checkCursor type-checks file, the session and a cell cut at the cursor
// with imports, and returns the identifier at pos, with the packages the
// cell uses without importing them, other than those of auto.
func (c *checker) checkCursor(file *ast.File, pos token.Pos, imports map[string]string, auto map[string]bool) (*cursorCheck, []string) {
	pkg, info, errs := c.checkFile(file)
	var missing []string
	for _, te := range errs {
		if name, ok := strings.CutPrefix(te.Msg, "undefined: "); ok {
			if p := packageNamed(name); p != "" && !auto[p] {
				if _, imported := imports[p]; !imported {
					missing = append(missing, p)
				}
			}
		}
	}
	at := &cursorCheck{file: file, pkg: pkg, info: info}
	ast.Inspect(file, func(n ast.Node) bool {
		if at.ident != nil || n == nil || !within(pos, n.Pos(), n.End()) {
			return false
		}
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if n.Sel.Pos() == pos {
				at.ident, at.sel = n.Sel, n
				return false
			}
		case *ast.Ident:
			if n.Pos() == pos {
				at.ident = n
				return false
			}
		}
		return true
	})
	if at.ident == nil {
		return nil, missing
	}
	return at, missing
}

// members returns the exported fields and methods of x's type, or the
// exported names of the package x names; names of the cells' own package
// whether exported or not.
func (at *cursorCheck) members(x ast.Expr) []types.Object {
	if id, ok := x.(*ast.Ident); ok {
		if pn, ok := at.info.Uses[id].(*types.PkgName); ok {
			scope := pn.Imported().Scope()
			var out []types.Object
			for _, name := range scope.Names() {
				if obj := scope.Lookup(name); obj.Exported() {
					out = append(out, obj)
				}
			}
			return out
		}
	}
	tv, ok := at.info.Types[x]
	if !ok || tv.Type == nil || tv.Type == types.Typ[types.Invalid] {
		return nil
	}
	t := tv.Type
	var names []string
	// A value's pointer methods are there for an addressable value; the
	// method set of *T has T's too.
	withPointer := t
	if _, isPtr := t.Underlying().(*types.Pointer); !isPtr && !types.IsInterface(t) {
		withPointer = types.NewPointer(t)
	}
	ms := types.NewMethodSet(withPointer)
	for i := range ms.Len() {
		names = append(names, ms.At(i).Obj().Name())
	}
	if !tv.IsType() {
		names = append(names, fieldNames(t, map[types.Type]bool{})...)
	}
	var out []types.Object
	for _, name := range names {
		obj, _, _ := types.LookupFieldOrMethod(t, true, at.pkg, name)
		if obj != nil && (obj.Exported() || obj.Pkg() == at.pkg) {
			out = append(out, obj)
		}
	}
	return out
}

// fieldNames lists the names of the fields of the struct t is or points
// to, with those of its embedded fields.
func fieldNames(t types.Type, seen map[types.Type]bool) []string {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if seen[t] {
		return nil
	}
	seen[t] = true
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	var names []string
	for i := range st.NumFields() {
		f := st.Field(i)
		names = append(names, f.Name())
		if f.Embedded() {
			names = append(names, fieldNames(f.Type(), seen)...)
		}
	}
	return names
}

// inScope returns the objects visible at the identifier: the cell's and
// the session's names, the imported packages, Go's predeclared names.
func (at *cursorCheck) inScope() []types.Object {
	pos := at.ident.Pos()
	inner := at.pkg.Scope().Innermost(pos)
	if inner == nil {
		inner = at.pkg.Scope()
	}
	seen := map[string]bool{}
	var out []types.Object
	for s := inner; s != nil; s = s.Parent() {
		for _, name := range s.Names() {
			if seen[name] {
				continue
			}
			if _, obj := inner.LookupParent(name, pos); obj != nil {
				seen[name] = true
				out = append(out, obj)
			}
		}
	}
	return out
}

// object returns what the identifier names.
func (at *cursorCheck) object() types.Object {
	if at.sel != nil {
		if id, ok := at.sel.X.(*ast.Ident); ok {
			if pn, ok := at.info.Uses[id].(*types.PkgName); ok {
				return pn.Imported().Scope().Lookup(at.ident.Name)
			}
		}
		tv, ok := at.info.Types[at.sel.X]
		if !ok || tv.Type == nil {
			return nil
		}
		// Addressable, so that tensor.Tensor.View, a method of *Tensor,
		// is found too.
		obj, _, _ := types.LookupFieldOrMethod(tv.Type, true, at.pkg, at.ident.Name)
		return obj
	}
	if obj := at.info.Uses[at.ident]; obj != nil {
		return obj
	}
	if obj := at.info.Defs[at.ident]; obj != nil {
		return obj
	}
	if inner := at.pkg.Scope().Innermost(at.ident.Pos()); inner != nil {
		_, obj := inner.LookupParent(at.ident.Name, at.ident.Pos())
		return obj
	}
	_, obj := at.pkg.Scope().LookupParent(at.ident.Name, at.ident.Pos())
	return obj
}

// docInFile returns the doc comment of a declaration of the cells' own
// package: the session's (the checked file carries their docs) or the
// cell's.
func (at *cursorCheck) docInFile(obj types.Object) string {
	doc := ""
	ast.Inspect(at.file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if n.Name.Pos() == obj.Pos() {
				doc = n.Doc.Text()
			}
			return false
		case *ast.GenDecl:
			for _, spec := range n.Specs {
				var names []*ast.Ident
				var own *ast.CommentGroup
				switch spec := spec.(type) {
				case *ast.TypeSpec:
					names, own = []*ast.Ident{spec.Name}, spec.Doc
				case *ast.ValueSpec:
					names, own = spec.Names, spec.Doc
				}
				for _, id := range names {
					if id.Pos() == obj.Pos() {
						doc = own.Text()
						if doc == "" && len(n.Specs) == 1 {
							doc = n.Doc.Text()
						}
					}
				}
			}
			return false
		}
		return true
	})
	return doc
}

// lookupField returns the doc of a field selected on a value of type owner.
func (d *docs) lookupField(owner types.Type, field types.Object) string {
	if d == nil || field.Pkg() == nil {
		return ""
	}
	return d.lookup(field.Pkg().Path(), fieldDocKey(owner, field.Name()))
}

// completionKind names obj's kind as the types of JupyterLab's completer do.
func completionKind(obj types.Object) string {
	switch obj := obj.(type) {
	case *types.Func:
		if obj.Signature().Recv() != nil {
			return "method"
		}
		return "function"
	case *types.Builtin:
		return "function"
	case *types.Var:
		if obj.IsField() {
			return "field"
		}
		return "variable"
	case *types.Const, *types.Nil:
		return "constant"
	case *types.TypeName:
		return "type"
	case *types.PkgName:
		return "module"
	}
	return "text"
}

// declaration writes obj as Go declares it, names of its own package
// unqualified: func (x *Tensor) View(shape ...int) *Tensor.
func declaration(obj types.Object) string {
	q := func(p *types.Package) string {
		if p == obj.Pkg() {
			return ""
		}
		return p.Name()
	}
	switch obj := obj.(type) {
	case *types.Func:
		var b bytes.Buffer
		b.WriteString("func ")
		sig := obj.Signature()
		if recv := sig.Recv(); recv != nil {
			b.WriteString("(")
			if recv.Name() != "" && recv.Name() != "_" {
				b.WriteString(recv.Name() + " ")
			}
			b.WriteString(types.TypeString(recv.Type(), q) + ") ")
		}
		b.WriteString(obj.Name())
		types.WriteSignature(&b, sig, q)
		return b.String()
	case *types.TypeName:
		under := types.TypeString(obj.Type().Underlying(), q)
		switch obj.Type().Underlying().(type) {
		case *types.Struct:
			under = "struct{ ... }"
		case *types.Interface:
			under = "interface{ ... }"
		}
		if obj.IsAlias() {
			return "type " + obj.Name() + " = " + types.TypeString(obj.Type(), q)
		}
		return "type " + obj.Name() + " " + under
	case *types.PkgName:
		return "package " + obj.Imported().Name() + " " + strconv.Quote(obj.Imported().Path())
	}
	return types.ObjectString(obj, q)
}

// internalName reports whether name is one of the session's own, which
// no cell is meant to use (tensornbCell, tensornbPkg_hash), or a blank.
func internalName(name string) bool {
	return name == "_" || strings.HasPrefix(name, "tensornb")
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

// identStart returns where the identifier ending at i in code starts: i
// if there is none, or what ends at i is a number.
func identStart(code string, i int) int {
	start := i
	for start > 0 {
		r, n := utf8.DecodeLastRuneInString(code[:start])
		if !isIdentRune(r) {
			break
		}
		start -= n
	}
	if r, _ := utf8.DecodeRuneInString(code[start:]); start < i && unicode.IsDigit(r) {
		return i
	}
	return start
}

// identEnd returns where the identifier going on at i in code ends: i if
// there is none.
func identEnd(code string, i int) int {
	if identStart(code, i) == i {
		if r, _ := utf8.DecodeRuneInString(code[i:]); unicode.IsDigit(r) {
			return i
		}
	}
	end := i
	for end < len(code) {
		r, n := utf8.DecodeRuneInString(code[end:])
		if !isIdentRune(r) {
			break
		}
		end += n
	}
	return end
}

// isIdentRune reports whether r may be part of an identifier.
func isIdentRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// callOpen returns the offset of the parenthesis that opens the call the
// cursor is in, on the cursor's line or before it.
func callOpen(code string, cursor int) (int, bool) {
	depth := 0
	for i := cursor - 1; i >= 0; i-- {
		switch code[i] {
		case ')':
			depth++
		case '(':
			if depth == 0 {
				return i, true
			}
			depth--
		case '{', '}', ';':
			return 0, false
		}
	}
	return 0, false
}

// Complete returns the completions at cursor, a rune offset in code: the
// members after a dot (of a package, of a value's or a type's type), or
// the names in scope that start with the name before the cursor.
func (s *Session) Complete(code string, cursor int) front.Completion {
	<-s.ready
	at := cells.ByteOffset(code, cursor)
	cands, start := s.check.complete(code, at)
	c := front.Completion{Matches: []string{}, CursorStart: utf8.RuneCountInString(code[:start]), CursorEnd: utf8.RuneCountInString(code[:at])}
	for _, k := range cands {
		c.Matches = append(c.Matches, k.name)
		c.Types = append(c.Types, front.MatchType{Start: c.CursorStart, End: c.CursorEnd, Text: k.name, Type: k.kind, Signature: k.signature})
	}
	return c
}

// Inspect returns the declaration and doc comment of the name at cursor,
// a rune offset in code, as text/plain and text/markdown, or found =
// false.
func (s *Session) Inspect(code string, cursor int) (data map[string]any, found bool) {
	<-s.ready
	signature, doc, found := s.check.inspect(code, cells.ByteOffset(code, cursor), s.docs)
	if !found {
		return nil, false
	}
	plain, markdown := signature, "```go\n"+signature+"\n```"
	if doc != "" {
		plain += "\n\n" + doc
		markdown += "\n\n" + doc
	}
	return map[string]any{"text/plain": plain, "text/markdown": markdown}, true
}
