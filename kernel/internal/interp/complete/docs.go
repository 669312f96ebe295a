package complete

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"
	"sync"
)

// Docs finds the doc comments of compiled-in packages' names, which
// export data lacks, in the packages' source: the standard library's in
// GOROOT, tensor's and display's in the module the kernel installed; in
// a browser, in the index of them Build wrote. A package's files are
// parsed (or its index read) once, the first time one of its names is
// inspected.
type Docs struct {
	// index returns a package's doc comments, as PackageDocs indexes
	// them, or nil.
	index func(path string) map[string]string

	mu        sync.Mutex
	byPackage map[string]map[string]string // import path → docKey → doc
}

// NewDocs returns the Docs of the packages whose doc comments index
// returns, as PackageDocs indexes them (nil if there are none).
func NewDocs(index func(path string) map[string]string) *Docs {
	return &Docs{index: index, byPackage: map[string]map[string]string{}}
}

// of returns the doc comment of obj, or "".
func (d *Docs) of(obj types.Object) string {
	if d == nil || obj.Pkg() == nil {
		return ""
	}
	if pn, ok := obj.(*types.PkgName); ok {
		return d.Lookup(pn.Imported().Path(), "")
	}
	return d.Lookup(obj.Pkg().Path(), docKey(obj))
}

// Lookup returns the doc of key in the package at path: a name, a
// method or field as Type.Name, or "" for the package's own.
func (d *Docs) Lookup(path, key string) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	index, ok := d.byPackage[path]
	if !ok {
		index = d.index(path)
		d.byPackage[path] = index
	}
	return index[key]
}

// PackageDocs indexes the doc comments of a package's Go files, in dir,
// as an inspection finds them: by name, a method's and a field's under
// its type's name, a dot and its own, and the package's under "".
// browser.Build writes it, as JSON, for a browser's session, which has no
// source.
func PackageDocs(dir string, files []string) map[string]string {
	index := map[string]string{}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		addDocs(index, f)
	}
	return index
}

// addDocs adds the doc comments of a file's declarations to index, by
// docKey: the package's under "", a method's and a field's under its
// type's name, a dot and its own.
func addDocs(index map[string]string, f *ast.File) {
	set := func(key string, groups ...*ast.CommentGroup) {
		for _, g := range groups {
			if text := g.Text(); text != "" && index[key] == "" {
				index[key] = text
				return
			}
		}
	}
	set("", f.Doc)
	for _, decl := range f.Decls {
		switch decl := decl.(type) {
		case *ast.FuncDecl:
			key := decl.Name.Name
			if decl.Recv != nil && len(decl.Recv.List) > 0 {
				key = receiverName(decl.Recv.List[0].Type) + "." + key
			}
			set(key, decl.Doc)
		case *ast.GenDecl:
			var group *ast.CommentGroup
			if len(decl.Specs) == 1 {
				group = decl.Doc // the doc of a lone spec is the declaration's
			}
			for _, spec := range decl.Specs {
				switch spec := spec.(type) {
				case *ast.TypeSpec:
					set(spec.Name.Name, spec.Doc, group)
					if st, ok := spec.Type.(*ast.StructType); ok {
						for _, field := range st.Fields.List {
							for _, n := range field.Names {
								set(spec.Name.Name+"."+n.Name, field.Doc, field.Comment)
							}
						}
					}
				case *ast.ValueSpec:
					for _, n := range spec.Names {
						set(n.Name, spec.Doc, spec.Comment, group)
					}
				}
			}
		}
	}
}

// receiverName is the name of a method's receiver type: T for *T and
// T[P].
func receiverName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// docKey is the key of obj's doc in a docs index: a method's is its
// receiver type's name, a dot and its own.
func docKey(obj types.Object) string {
	if f, ok := obj.(*types.Func); ok {
		if recv := f.Signature().Recv(); recv != nil {
			if n := namedOf(recv.Type()); n != nil {
				return n.Obj().Name() + "." + f.Name()
			}
		}
	}
	return obj.Name()
}

// namedOf returns the named type t is, or points to, or nil.
func namedOf(t types.Type) *types.Named {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := types.Unalias(t).(*types.Named)
	return n
}

// fieldDocKey is the key of a field's doc, found on the type owner.
func fieldDocKey(owner types.Type, field string) string {
	if n := namedOf(owner); n != nil {
		return n.Obj().Name() + "." + field
	}
	return field
}

// trimDoc drops a doc's trailing blank lines.
func trimDoc(s string) string { return strings.TrimRight(s, "\n") }
