package cell

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// What more than one stage asks of a cell's syntax and types.

// Idents returns the identifiers among exprs, other than the blank.
func Idents(exprs []ast.Expr) []*ast.Ident {
	var out []*ast.Ident
	for _, e := range exprs {
		if id, ok := e.(*ast.Ident); ok && id.Name != "_" {
			out = append(out, id)
		}
	}
	return out
}

// FuncName is the name of a function, or of a method as Type.Method: the
// name of its Decl.
func FuncName(d *ast.FuncDecl) string {
	if d.Recv != nil && len(d.Recv.List) > 0 {
		return types.ExprString(d.Recv.List[0].Type) + "." + d.Name.Name
	}
	return d.Name.Name
}

// StripComments drops the comment lines a unit starts with.
func StripComments(text string) string {
	lines := strings.Split(text, "\n")
	for len(lines) > 0 && (strings.HasPrefix(strings.TrimSpace(lines[0]), "//") || strings.TrimSpace(lines[0]) == "") {
		lines = lines[1:]
	}
	return strings.Join(lines, "\n")
}

// TypeAliasPrefix starts the names under which a session imports a
// package that only the type of a variable needs (TypeAlias).
const TypeAliasPrefix = "tensornbPkg_"

// TypeAlias is the name a package is imported under when only a type
// needs it (hash, for the hash.Hash of sha256.New()): one no cell uses, so
// that a cell may still name a variable hash.
func TypeAlias(p *types.Package) string { return TypeAliasPrefix + p.Name() }

// ConstLiteral writes a constant so that Go reads back the same value and
// the same kind of untyped constant: 1/2 as (1.0/2), a float 2 as 2.0, a
// rune as 'x'.
func ConstLiteral(v constant.Value, t types.Type) string {
	b, _ := t.Underlying().(*types.Basic)
	if b != nil && b.Info()&types.IsFloat != 0 {
		v = constant.ToFloat(v) // min(1, 2.5) is 1, of kind float
	}
	s := v.ExactString()
	switch {
	case b != nil && b.Kind() == types.UntypedRune && v.Kind() == constant.Int:
		if r, ok := constant.Int64Val(v); ok {
			return strconv.QuoteRune(rune(r))
		}
	case v.Kind() == constant.Float:
		if num, den, ok := strings.Cut(s, "/"); ok {
			return "(" + num + ".0/" + den + ")"
		}
		if !strings.ContainsAny(s, ".eE") {
			return s + ".0"
		}
	}
	return s
}

// InspectType calls visit for t and, while visit returns true, for the
// types t is made of: the elements of pointers, slices, arrays and
// channels, the keys and elements of maps, the types of a struct's
// fields. A named type's parts are its own: they are not looked into.
// Each type is visited once.
func InspectType(t types.Type, visit func(types.Type) bool) {
	seen := map[types.Type]bool{}
	var walk func(types.Type)
	walk = func(t types.Type) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		if !visit(t) {
			return
		}
		switch t := t.(type) {
		case *types.Pointer:
			walk(t.Elem())
		case *types.Slice:
			walk(t.Elem())
		case *types.Array:
			walk(t.Elem())
		case *types.Map:
			walk(t.Key())
			walk(t.Elem())
		case *types.Chan:
			walk(t.Elem())
		case *types.Struct:
			for i := 0; i < t.NumFields(); i++ {
				walk(t.Field(i).Type())
			}
		}
	}
	walk(t)
}

// Pure reports whether evaluating e again has no effect and reads only
// variables not in local: names, literals, operators, selectors, indexes
// and len or cap, but no other call and no receive.
func Pure(e ast.Expr, local map[string]bool) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case nil:
		case *ast.Ident:
			if local[n.Name] {
				ok = false
			}
		case *ast.SelectorExpr:
			ok = ok && Pure(n.X, local)
			return false // the field or method name is not a variable
		case *ast.CallExpr:
			if id, isIdent := n.Fun.(*ast.Ident); !isIdent || (id.Name != "len" && id.Name != "cap") || local[id.Name] {
				ok = false
			}
			for _, a := range n.Args {
				ok = ok && Pure(a, local)
			}
			return false
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				ok = false
			}
		case *ast.BasicLit, *ast.ParenExpr, *ast.BinaryExpr, *ast.IndexExpr, *ast.StarExpr:
		default:
			ok = false
		}
		return ok
	})
	return ok
}
