package lower

import (
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// StdPackages are the standard packages whose generic API the lowering
// writes instances of from their source, as the Go toolchain ships it:
// all of the packages' declarations are read from there, none from the
// interpreter's copies (yaegi's own slices, maps and cmp are Go 1.21's).
var StdPackages = []string{"cmp", "iter", "maps", "slices"}

// A Std reads the standard packages of StdPackages from their source,
// the directory src of a Go installation ($GOROOT/src, or the copy a
// browser's engine carries), and type-checks each once, on first use.
// It is safe for concurrent use.
type Std struct {
	open    func() (fs.FS, error)
	imp     types.Importer // the types of the packages they import
	has     func(path, name string) bool
	modules ModuleSource
	named   func(name string) string
	fset    *token.FileSet

	opened sync.Once
	src    fs.FS
	srcErr error

	mu      sync.Mutex
	pkgs    map[string]*stdPackage
	sources map[string]*moduleFiles // by import path; nil: not a module's
}

// NewStd returns the standard packages read from the source open
// returns, once, on first use; imp gives the types of the packages they
// import other than StdPackages, and has says which names of which
// packages the interpreter has compiled in.
func NewStd(open func() (fs.FS, error), imp types.Importer, has func(path, name string) bool) *Std {
	return &Std{open: open, imp: imp, has: has, fset: token.NewFileSet(), pkgs: map[string]*stdPackage{}, sources: map[string]*moduleFiles{}}
}

// A stdPackage is a standard package as read from its source: its types,
// and its declarations by what they declare.
type stdPackage struct {
	pkg   *types.Package
	info  *types.Info
	texts map[*token.File]string
	decls
	// inits are a module's package's init functions, in the order Go
	// runs them (package init.go).
	inits []*ast.FuncDecl
	err   error
}

// decls indexes the package-level declarations of a file or package:
// functions, types and their methods, variables and constants.
type decls struct {
	funcs   map[*types.Func]*ast.FuncDecl
	types   map[*types.TypeName]*ast.TypeSpec
	methods map[*types.TypeName][]*ast.FuncDecl
	values  map[types.Object]*ast.ValueSpec
}

// newDecls returns an empty index.
func newDecls() decls {
	return decls{funcs: map[*types.Func]*ast.FuncDecl{}, types: map[*types.TypeName]*ast.TypeSpec{},
		methods: map[*types.TypeName][]*ast.FuncDecl{}, values: map[types.Object]*ast.ValueSpec{}}
}

// add indexes d, whose identifiers info defines.
func (x decls) add(d ast.Decl, info *types.Info) {
	switch d := d.(type) {
	case *ast.FuncDecl:
		obj, _ := info.Defs[d.Name].(*types.Func)
		if obj == nil {
			return
		}
		if sig := obj.Type().(*types.Signature); sig.Recv() != nil {
			if tn := receiverType(sig); tn != nil {
				x.methods[tn] = append(x.methods[tn], d)
			}
			return
		}
		x.funcs[obj] = d
	case *ast.GenDecl:
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				if tn, ok := info.Defs[s.Name].(*types.TypeName); ok {
					x.types[tn] = s
				}
			case *ast.ValueSpec:
				for _, n := range s.Names {
					if obj := info.Defs[n]; obj != nil {
						x.values[obj] = s
					}
				}
			}
		}
	}
}

// Lowers reports whether the package at path is one whose declarations
// the lowering writes from source, all of them, or package unsafe, whose
// Sizeof, Alignof and Offsetof it makes constants.
func (s *Std) Lowers(path string) bool { return path == "unsafe" || s.wholly(path) }

// wholly reports whether the package at path is one all of whose
// declarations the lowering writes from source: one of StdPackages, or
// a module's package that the interpreter does not have compiled in.
func (s *Std) wholly(path string) bool {
	return s != nil && (slices.Contains(StdPackages, path) || s.module(path) != nil)
}

// LowersObject reports whether obj, a package-level name of a standard
// package, is one the lowering writes from source: one of a package it
// lowers, a generic one, or one the interpreter's copy of its package
// lacks (strings.Lines: yaegi's standard library is Go 1.22's).
func (s *Std) LowersObject(obj types.Object) bool {
	if s == nil || obj == nil || obj.Pkg() == nil || obj.Parent() != obj.Pkg().Scope() {
		return false
	}
	p := obj.Pkg().Path()
	if s.wholly(p) {
		return true
	}
	return s.HasSource(p) && (isGeneric(obj) || !s.has(p, obj.Name()))
}

// HasSource reports whether path is that of a standard package the
// lowering can read from source: not an internal one, nor the cells'
// package main.
func (s *Std) HasSource(path string) bool {
	return s != nil && path != "main" && path != "unsafe" && path != "runtime" && StandardPath(path) &&
		!strings.HasPrefix(path, "internal/") && !strings.Contains(path, "/internal/")
}

// isGeneric reports whether obj is a generic function or type.
func isGeneric(obj types.Object) bool {
	switch obj := obj.(type) {
	case *types.Func:
		return obj.Type().(*types.Signature).TypeParams().Len() > 0
	case *types.TypeName:
		if n, ok := obj.Type().(*types.Named); ok {
			return n.TypeParams().Len() > 0
		}
	}
	return false
}

// Import gives the standard packages of StdPackages as read from their
// source, and the types of others from s's importer; the internal
// packages they import are not at hand, and what uses them cannot be
// lowered.
func (s *Std) Import(p string) (*types.Package, error) {
	if s.wholly(p) || s.loaded(p) {
		sp := s.load(p)
		return sp.pkg, sp.err
	}
	if strings.HasPrefix(p, "internal/") || strings.Contains(p, "/internal/") || p == "runtime" {
		return nil, fmt.Errorf("%s is not at hand", p)
	}
	return s.imp.Import(p)
}

// loaded reports whether the package at path has been read from source
// already: the packages read later import it from there, so that its
// lowered names are found in their source too.
func (s *Std) loaded(p string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.pkgs[p]
	return ok
}

// load returns the package at path, read and checked on first use.
func (s *Std) load(p string) *stdPackage {
	s.mu.Lock()
	sp, ok := s.pkgs[p]
	s.mu.Unlock()
	if ok {
		return sp
	}
	sp = s.read(p) // outside the lock: it imports the others
	s.mu.Lock()
	defer s.mu.Unlock()
	if had, ok := s.pkgs[p]; ok {
		return had
	}
	s.pkgs[p] = sp
	return sp
}

// read parses and type-checks the package at path. A package's errors
// (a use of an internal package it imports) leave its other
// declarations checked: only what has errors cannot be lowered. A
// module's package keeps its init functions, which the lowering runs
// (init.go).
func (s *Std) read(p string) *stdPackage {
	sp := &stdPackage{texts: map[*token.File]string{}, decls: newDecls()}
	var files []*ast.File
	files, sp.err = s.parse(p, sp.texts)
	if sp.err != nil {
		return sp
	}
	if s.module(p) != nil {
		sp.inits = initFuncs(files)
	}
	sp.info = &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{},
		Instances: map[*ast.Ident]types.Instance{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	conf := types.Config{Importer: s, Error: func(error) {}}
	sp.pkg, _ = conf.Check(p, s.fset, files, sp.info)
	for _, f := range files {
		for _, d := range f.Decls {
			sp.add(d, sp.info)
		}
	}
	return sp
}

// parse parses the files of the package at path, a module's or the
// standard library's, keeping each file's text in texts.
func (s *Std) parse(p string, texts map[*token.File]string) ([]*ast.File, error) {
	read, names, err := s.files(p)
	if err != nil {
		return nil, err
	}
	var files []*ast.File
	for _, name := range names {
		text, err := read(name)
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(s.fset, path.Join(p, name), text, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		texts[s.fset.File(f.Pos())] = string(text)
		files = append(files, f)
	}
	return files, nil
}

// files returns the names of the Go files of the package at path, and
// how to read one.
func (s *Std) files(p string) (read func(name string) ([]byte, error), names []string, err error) {
	if mf := s.module(p); mf != nil {
		return func(name string) ([]byte, error) { return os.ReadFile(filepath.Join(mf.dir, name)) }, mf.files, nil
	}
	s.opened.Do(func() { s.src, s.srcErr = s.open() })
	if s.srcErr != nil {
		return nil, nil, fmt.Errorf("the standard library's source is not at hand: %w", s.srcErr)
	}
	names, err = s.goFiles(p)
	if err != nil {
		return nil, nil, fmt.Errorf("reading the source of package %s: %w", p, err)
	}
	return func(name string) ([]byte, error) { return fs.ReadFile(s.src, path.Join(p, name)) }, names, nil
}

// goFiles lists the files of the package at path that build for the
// engine's platform, as the go command would choose them.
func (s *Std) goFiles(p string) ([]string, error) {
	ctx := build.Default
	ctx.GOOS, ctx.GOARCH, ctx.CgoEnabled = runtime.GOOS, runtime.GOARCH, false
	ctx.GOROOT, ctx.GOPATH = "/goroot", ""
	ctx.JoinPath = path.Join
	ctx.IsDir = func(name string) bool {
		fi, err := fs.Stat(s.src, s.rel(name))
		return err == nil && fi.IsDir()
	}
	ctx.ReadDir = func(dir string) ([]fs.FileInfo, error) {
		entries, err := fs.ReadDir(s.src, s.rel(dir))
		if err != nil {
			return nil, err
		}
		infos := make([]fs.FileInfo, 0, len(entries))
		for _, e := range entries {
			if fi, err := e.Info(); err == nil {
				infos = append(infos, fi)
			}
		}
		return infos, nil
	}
	ctx.OpenFile = func(name string) (io.ReadCloser, error) { return s.src.Open(s.rel(name)) }
	bp, err := ctx.Import(p, "", 0)
	if err != nil {
		var none *build.NoGoError
		if errors.As(err, &none) {
			return nil, err
		}
		if bp == nil {
			return nil, err
		}
	}
	return bp.GoFiles, nil
}

// rel makes a path of the build context's GOROOT one of the source's.
func (s *Std) rel(name string) string {
	name = strings.TrimPrefix(strings.TrimPrefix(name, "/goroot/src"), "/")
	if name == "" {
		return "."
	}
	return name
}

// lookup returns the package-level object of a lowered standard package
// that obj, as a cell's importer gave it, is.
func (s *Std) lookup(obj types.Object) (types.Object, *stdPackage) {
	sp := s.load(obj.Pkg().Path())
	if sp.pkg == nil {
		return nil, sp
	}
	return sp.pkg.Scope().Lookup(obj.Name()), sp
}
