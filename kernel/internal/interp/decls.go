package interp

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// A sessionDecl is what a cell declared, as Go source for checking later
// cells: a type or func as written, a variable or constant by its type.
type sessionDecl struct {
	name string
	src  string
	doc  string // the doc comment of a type or func, for inspection
}

// commit records what a step that ran declared, for the cells after it:
// of a step that joins declarations, what each of them declared.
func (c *checker) commit(s step) {
	for _, p := range s.parts {
		c.commit(p)
	}
	switch {
	case s.redeclared != "":
		delete(c.unmarked, s.redeclared)
	case s.funcName != "" && s.unmarked != "":
		c.unmarked[s.funcName] = s.unmarked
	case s.funcName != "":
		delete(c.unmarked, s.funcName)
	}
	for p, n := range s.imports {
		c.imports[p] = n
	}
	for p, n := range s.typeImports {
		c.typeImported[p] = n
	}
	for _, d := range s.decls {
		c.index.set(d)
		if i, ok := c.declAt[d.name]; ok {
			if c.decls[i].src != d.src {
				c.changed[d.name] = true
			}
			c.decls[i] = d // the order of package-level declarations does not matter
			continue
		}
		c.changed[d.name] = true
		c.declAt[d.name] = len(c.decls)
		c.decls = append(c.decls, d)
	}
}

// forget drops the session's declaration of name.
func (c *checker) forget(name string) {
	i, ok := c.declAt[name]
	if !ok {
		return
	}
	c.decls = append(c.decls[:i], c.decls[i+1:]...)
	delete(c.declAt, name)
	delete(c.unmarked, name)
	c.index.remove(name)
	for j := i; j < len(c.decls); j++ {
		c.declAt[c.decls[j].name] = j
	}
}

// decl returns the session's declaration of name.
func (c *checker) decl(name string) (sessionDecl, bool) {
	i, ok := c.declAt[name]
	if !ok {
		return sessionDecl{}, false
	}
	return c.decls[i], true
}

// declsOf returns what a declaration unit declares: types and funcs as
// written, variables and constants by type and value.
func (cc *checkedCell) declsOf(sp span) []sessionDecl {
	var out []sessionDecl
	for _, n := range sp.nodes {
		switch d := n.(type) {
		case *ast.FuncDecl:
			out = append(out, sessionDecl{name: funcName(d), src: cc.file.text(d), doc: d.Doc.Text()})
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch spec := spec.(type) {
				case *ast.TypeSpec:
					doc := spec.Doc.Text()
					if doc == "" && len(d.Specs) == 1 {
						doc = d.Doc.Text()
					}
					out = append(out, sessionDecl{name: spec.Name.Name, src: "type " + cc.file.text(spec), doc: doc})
				case *ast.ValueSpec:
					out = append(out, cc.objectDecls(spec.Names)...)
				}
			}
		}
	}
	return out
}

// varsOf returns the variables a statement unit defines at the top level
// of the cell, which live on as session variables.
func (cc *checkedCell) varsOf(sp span) []sessionDecl {
	var out []sessionDecl
	for _, st := range sp.nodes {
		var idents []*ast.Ident
		switch st := st.(type) {
		case *ast.AssignStmt:
			if st.Tok == token.DEFINE {
				for _, e := range st.Lhs {
					if id, ok := e.(*ast.Ident); ok {
						idents = append(idents, id)
					}
				}
			}
		case *ast.DeclStmt:
			if gd, ok := st.Decl.(*ast.GenDecl); ok {
				for _, spec := range gd.Specs {
					if vs, ok := spec.(*ast.ValueSpec); ok {
						idents = append(idents, vs.Names...)
					}
				}
			}
		}
		out = append(out, cc.objectDecls(idents)...)
	}
	return out
}

// objectDecls returns the declarations of the variables or constants
// idents define that a later cell can write the type of.
func (cc *checkedCell) objectDecls(idents []*ast.Ident) []sessionDecl {
	var out []sessionDecl
	for _, id := range idents {
		if obj := cc.info.Defs[id]; obj != nil && id.Name != "_" && cc.c.writable(obj) {
			out = append(out, cc.c.objectDecl(obj))
		}
	}
	return out
}

// writable reports whether obj's type can be written in a later cell: not
// an unexported type of a compiled package (http.NoBody's). A variable of
// such a type is not kept for later cells.
func (c *checker) writable(obj types.Object) bool {
	return c.typeFor(obj.Type(), obj.Pkg(), nil, map[string]string{}) != ""
}

// objectDecl writes a variable or constant as a declaration by its type.
func (c *checker) objectDecl(obj types.Object) sessionDecl {
	q := c.qualifier(obj.Pkg())
	if k, ok := obj.(*types.Const); ok {
		if b, ok := k.Type().(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
			return sessionDecl{name: k.Name(), src: fmt.Sprintf("const %s = %s", k.Name(), constLiteral(k.Val(), k.Type()))}
		}
		return sessionDecl{name: k.Name(), src: fmt.Sprintf("const %s %s = %s", k.Name(), types.TypeString(k.Type(), q), constLiteral(k.Val(), k.Type()))}
	}
	return sessionDecl{name: obj.Name(), src: fmt.Sprintf("var %s %s", obj.Name(), types.TypeString(obj.Type(), q))}
}

// qualifier names packages in type strings as the session imports them;
// a package the session does not import is imported for checking under
// its typeAlias.
func (c *checker) qualifier(main *types.Package) types.Qualifier {
	return func(p *types.Package) string {
		if p == main {
			return ""
		}
		if n, ok := c.imports[p.Path()]; ok {
			if n == "" {
				return p.Name()
			}
			return n
		}
		c.typeImports[p.Path()] = typeAlias(p)
		return typeAlias(p)
	}
}

// typeAlias is the name a package is imported under when only a type
// needs it (hash, for the hash.Hash of sha256.New()): one no cell uses, so
// that a cell may still name a variable hash.
func typeAlias(p *types.Package) string { return typeAliasPrefix + p.Name() }

// typeAliasPrefix starts the names of typeAlias.
const typeAliasPrefix = "tensornbPkg_"

// constLiteral writes a constant so that Go reads back the same value and
// the same kind of untyped constant: 1/2 as (1.0/2), a float 2 as 2.0, a
// rune as 'x'.
func constLiteral(v constant.Value, t types.Type) string {
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
