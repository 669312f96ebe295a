package interp

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"
	"sync"
)

// docs finds the doc comments of compiled-in packages' names, which
// export data lacks, in the packages' source: the standard library's in
// GOROOT, tensor's and display's in the module the kernel installed; in
// a browser, in the index of them Build wrote. A package's files are
// parsed (or its index read) once, the first time one of its names is
// inspected.
type docs struct {
	// source returns a package's directory and Go files.
	source func(path string) (dir string, files []string, ok bool)
	// indexed, if set, returns a package's index made elsewhere
	// (PackageDocs, which Build writes for a browser, where there is no
	// source), in place of source.
	indexed func(path string) (map[string]string, bool)

	mu        sync.Mutex
	byPackage map[string]map[string]string // import path → docKey → doc
}

func newDocs(source func(path string) (string, []string, bool)) *docs {
	return &docs{source: source, byPackage: map[string]map[string]string{}}
}

// of returns the doc comment of obj, or "".
func (d *docs) of(obj types.Object) string {
	if d == nil || obj.Pkg() == nil {
		return ""
	}
	if pn, ok := obj.(*types.PkgName); ok {
		return d.lookup(pn.Imported().Path(), "")
	}
	return d.lookup(obj.Pkg().Path(), docKey(obj))
}

// lookup returns the doc of key in the package at path.
func (d *docs) lookup(path, key string) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	index, ok := d.byPackage[path]
	if !ok {
		index = d.parse(path)
		d.byPackage[path] = index
	}
	return index[key]
}

// parse indexes the doc comments of a package's files.
func (d *docs) parse(path string) map[string]string {
	if d.indexed != nil {
		if index, ok := d.indexed(path); ok {
			return index
		}
		return map[string]string{}
	}
	dir, files, ok := d.source(path)
	if !ok {
		return map[string]string{}
	}
	return PackageDocs(dir, files)
}

// PackageDocs indexes the doc comments of a package's Go files, in dir,
// as an inspection finds them: by name, a method's and a field's under
// its type's name, a dot and its own, and the package's under "". Build
// writes it, as JSON, for a browser's session, which has no source.
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
