package check

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/interp/cell"
)

// Commit records what a step that ran declared, for the cells after it:
// of a step that joins declarations, what each of them declared.
func (c *Checker) Commit(s cell.Step) {
	for _, p := range s.Parts {
		c.Commit(p)
	}
	switch {
	case s.Redeclared != "":
		delete(c.unmarked, s.Redeclared)
	case s.FuncName != "" && s.Unmarked != "":
		c.unmarked[s.FuncName] = s.Unmarked
	case s.FuncName != "":
		delete(c.unmarked, s.FuncName)
	}
	for p, n := range s.Imports {
		c.imports[p] = n
	}
	for p, n := range s.TypeImports {
		c.typeImported[p] = n
	}
	for _, d := range s.Decls {
		c.index.set(d)
		if i, ok := c.declAt[d.Name]; ok {
			if c.decls[i].Src != d.Src {
				c.changed[d.Name] = true
			}
			c.decls[i] = d // the order of package-level declarations does not matter
			continue
		}
		c.changed[d.Name] = true
		c.declAt[d.Name] = len(c.decls)
		c.decls = append(c.decls, d)
	}
}

// forget drops the session's declaration of name.
func (c *Checker) forget(name string) {
	i, ok := c.declAt[name]
	if !ok {
		return
	}
	c.decls = append(c.decls[:i], c.decls[i+1:]...)
	delete(c.declAt, name)
	delete(c.unmarked, name)
	c.index.remove(name)
	for j := i; j < len(c.decls); j++ {
		c.declAt[c.decls[j].Name] = j
	}
}

// Decls are what the cells declared so far, one for each name.
func (c *Checker) Decls() []cell.Decl { return c.decls }

// Decl returns the session's declaration of name.
func (c *Checker) Decl(name string) (cell.Decl, bool) {
	i, ok := c.declAt[name]
	if !ok {
		return cell.Decl{}, false
	}
	return c.decls[i], true
}

// DeclsOf returns what a declaration unit declares: types and funcs as
// written, variables and constants by type and value.
func (cc *Cell) DeclsOf(sp Span) []cell.Decl {
	var out []cell.Decl
	for _, n := range sp.Nodes {
		switch d := n.(type) {
		case *ast.FuncDecl:
			out = append(out, cell.Decl{Name: cell.FuncName(d), Src: cc.File.Text(d), Doc: d.Doc.Text()})
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch spec := spec.(type) {
				case *ast.TypeSpec:
					doc := spec.Doc.Text()
					if doc == "" && len(d.Specs) == 1 {
						doc = d.Doc.Text()
					}
					out = append(out, cell.Decl{Name: spec.Name.Name, Src: "type " + cc.File.Text(spec), Doc: doc})
				case *ast.ValueSpec:
					out = append(out, cc.objectDecls(spec.Names)...)
				}
			}
		}
	}
	return out
}

// VarsOf returns the variables a statement unit defines at the top level
// of the cell, which live on as session variables.
func (cc *Cell) VarsOf(sp Span) []cell.Decl {
	var out []cell.Decl
	for _, st := range sp.Nodes {
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
func (cc *Cell) objectDecls(idents []*ast.Ident) []cell.Decl {
	var out []cell.Decl
	for _, id := range idents {
		if obj := cc.Info.Defs[id]; obj != nil && id.Name != "_" && cc.c.writable(obj) {
			out = append(out, cc.c.objectDecl(obj))
		}
	}
	return out
}

// writable reports whether obj's type can be written in a later cell: not
// an unexported type of a compiled package (http.NoBody's). A variable of
// such a type is not kept for later cells.
func (c *Checker) writable(obj types.Object) bool {
	return c.TypeFor(obj.Type(), obj.Pkg(), nil, map[string]string{}) != ""
}

// objectDecl writes a variable or constant as a declaration by its type.
func (c *Checker) objectDecl(obj types.Object) cell.Decl {
	q := c.Qualifier(obj.Pkg())
	if k, ok := obj.(*types.Const); ok {
		if b, ok := k.Type().(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
			return cell.Decl{Name: k.Name(), Src: fmt.Sprintf("const %s = %s", k.Name(), cell.ConstLiteral(k.Val(), k.Type()))}
		}
		return cell.Decl{Name: k.Name(), Src: fmt.Sprintf("const %s %s = %s", k.Name(), types.TypeString(k.Type(), q), cell.ConstLiteral(k.Val(), k.Type()))}
	}
	return cell.Decl{Name: obj.Name(), Src: fmt.Sprintf("var %s %s", obj.Name(), types.TypeString(obj.Type(), q))}
}

// Qualifier names packages in type strings as the session imports them;
// a package the session does not import is imported for checking under
// its cell.TypeAlias.
func (c *Checker) Qualifier(main *types.Package) types.Qualifier {
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
		c.typeImports[p.Path()] = cell.TypeAlias(p)
		return cell.TypeAlias(p)
	}
}

// Forget drops the session's declaration of name (a method's as
// Type.Method), as if no cell had made it, and returns its kind, the
// first word of its source (var, const, type, func); ok is false if the
// session has none. A declaration that used it fails in the next cell
// that needs it, and is forgotten then, with a note.
func (c *Checker) Forget(name string) (kind string, ok bool) {
	d, ok := c.Decl(name)
	if !ok {
		return "", false
	}
	kind, _, _ = strings.Cut(d.Src, " ")
	c.forget(name)
	return kind, true
}

// Imports returns the session's imports that cells wrote, not those
// made for a cell that used a package without importing it: each path,
// with the name it was imported as ("" for the package's own).
func (c *Checker) Imports() map[string]string {
	m := maps.Clone(c.imports)
	maps.DeleteFunc(m, func(p, _ string) bool { return !c.written[p] })
	return m
}

// ForgetImport drops the session's import of path, reporting whether it
// had one: a later cell that uses the package imports it again.
func (c *Checker) ForgetImport(path string) bool {
	_, ok := c.imports[path]
	delete(c.imports, path)
	delete(c.written, path)
	return ok
}

// Reset forgets every declaration and import the cells made.
func (c *Checker) Reset() {
	c.decls = nil
	c.declAt = map[string]int{}
	c.index = newSessionIndex()
	clear(c.changed)
	clear(c.unmarked)
	clear(c.imports)
	clear(c.written)
	clear(c.free)
}
