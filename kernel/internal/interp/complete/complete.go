package complete

import (
	"bytes"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tensornb/tensornb/kernel/internal/cells"
	"github.com/tensornb/tensornb/kernel/internal/front"
	"github.com/tensornb/tensornb/kernel/internal/interp/check"
	"github.com/tensornb/tensornb/kernel/internal/interp/compiled"
)

// A candidate is one completion: a name, its kind as JupyterLab names
// kinds, and its declaration.
type candidate struct {
	name, kind, signature string
}

// candidates returns the candidates for the name that ends at cursor (a
// byte offset) in code, and the byte offset where that name starts; lib
// has the packages a cell may use without importing them.
func candidates(c *check.Checker, lib *compiled.Library, code string, cursor int) ([]candidate, int) {
	start := identStart(code, cursor)
	prefix := code[start:cursor]
	afterDot := start > 0 && code[start-1] == '.'
	if prefix == "" && !afterDot {
		return nil, start
	}
	at := c.At(code, start, cursor)
	if at == nil {
		return nil, start
	}
	var objs []types.Object
	if at.Sel != nil {
		objs = members(at, at.Sel.X)
	} else if prefix != "" {
		objs = inScope(at)
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
	if at.Sel == nil && prefix != "" {
		// Packages a cell may use without importing them.
		for _, path := range lib.Paths() {
			name := path[strings.LastIndex(path, "/")+1:]
			if strings.HasPrefix(name, prefix) && !seen[name] && lib.Named(name) == path && token.IsIdentifier(name) {
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
func inspect(c *check.Checker, d *Docs, code string, cursor int) (signature, doc string, found bool) {
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
	at := c.At(code, start, end)
	if at == nil {
		return "", "", false
	}
	obj := object(at)
	if obj == nil {
		return "", "", false
	}
	if _, isPkg := obj.(*types.PkgName); !isPkg && obj.Pkg() == at.Pkg {
		doc = docInFile(at, obj)
	} else if v, ok := obj.(*types.Var); ok && v.IsField() && at.Sel != nil {
		doc = d.lookupField(at.Info.Types[at.Sel.X].Type, obj)
	} else {
		doc = d.of(obj)
	}
	return declaration(obj), trimDoc(doc), true
}

// members returns the exported fields and methods of x's type, or the
// exported names of the package x names; names of the cells' own package
// whether exported or not.
func members(at *check.Cursor, x ast.Expr) []types.Object {
	if id, ok := x.(*ast.Ident); ok {
		if pn, ok := at.Info.Uses[id].(*types.PkgName); ok {
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
	tv, ok := at.Info.Types[x]
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
		obj, _, _ := types.LookupFieldOrMethod(t, true, at.Pkg, name)
		if obj != nil && (obj.Exported() || obj.Pkg() == at.Pkg) {
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
func inScope(at *check.Cursor) []types.Object {
	pos := at.Ident.Pos()
	inner := at.Pkg.Scope().Innermost(pos)
	if inner == nil {
		inner = at.Pkg.Scope()
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
func object(at *check.Cursor) types.Object {
	if at.Sel != nil {
		if id, ok := at.Sel.X.(*ast.Ident); ok {
			if pn, ok := at.Info.Uses[id].(*types.PkgName); ok {
				return pn.Imported().Scope().Lookup(at.Ident.Name)
			}
		}
		tv, ok := at.Info.Types[at.Sel.X]
		if !ok || tv.Type == nil {
			return nil
		}
		// Addressable, so that tensor.Tensor.View, a method of *Tensor,
		// is found too.
		obj, _, _ := types.LookupFieldOrMethod(tv.Type, true, at.Pkg, at.Ident.Name)
		return obj
	}
	if obj := at.Info.Uses[at.Ident]; obj != nil {
		return obj
	}
	if obj := at.Info.Defs[at.Ident]; obj != nil {
		return obj
	}
	if inner := at.Pkg.Scope().Innermost(at.Ident.Pos()); inner != nil {
		_, obj := inner.LookupParent(at.Ident.Name, at.Ident.Pos())
		return obj
	}
	_, obj := at.Pkg.Scope().LookupParent(at.Ident.Name, at.Ident.Pos())
	return obj
}

// docInFile returns the doc comment of a declaration of the cells' own
// package: the session's (the checked file carries their docs) or the
// cell's.
func docInFile(at *check.Cursor, obj types.Object) string {
	doc := ""
	ast.Inspect(at.File, func(n ast.Node) bool {
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
func (d *Docs) lookupField(owner types.Type, field types.Object) string {
	if d == nil || field.Pkg() == nil {
		return ""
	}
	return d.Lookup(field.Pkg().Path(), fieldDocKey(owner, field.Name()))
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

// Complete returns the completions at cursor, a rune offset in code,
// checked by c against the session: the members after a dot (of a
// package, of a value's or a type's type), or the names in scope that
// start with the name before the cursor, and the packages of lib a cell
// may use without importing them.
func Complete(c *check.Checker, lib *compiled.Library, code string, cursor int) front.Completion {
	at := cells.ByteOffset(code, cursor)
	cands, start := candidates(c, lib, code, at)
	comp := front.Completion{Matches: []string{}, CursorStart: utf8.RuneCountInString(code[:start]), CursorEnd: utf8.RuneCountInString(code[:at])}
	for _, k := range cands {
		comp.Matches = append(comp.Matches, k.name)
		comp.Types = append(comp.Types, front.MatchType{Start: comp.CursorStart, End: comp.CursorEnd, Text: k.name, Type: k.kind, Signature: k.signature})
	}
	return comp
}

// Inspect returns the declaration and doc comment of the name at cursor,
// a rune offset in code, as text/plain and text/markdown, or found =
// false; d has the doc comments of compiled packages.
func Inspect(c *check.Checker, d *Docs, code string, cursor int) (data map[string]any, found bool) {
	signature, doc, found := inspect(c, d, code, cells.ByteOffset(code, cursor))
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
