package golist

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
)

// Named returns the import path of the one package named name in the
// modules of the Importer's module graph, as goimports (and so GoNB)
// finds a package a cell uses without importing it: constraints is
// golang.org/x/exp/constraints. It returns "" if there is none, or more
// than one, or if a standard package has the name: rand is math/rand or
// crypto/rand, never golang.org/x/exp/rand. The modules' directories are
// read once.
func (e *Importer) Named(name string) string {
	e.namedOnce.Do(func() {
		e.named = packageNames(e.graph())
		for _, p := range e.standard() {
			delete(e.named, path.Base(p))
		}
	})
	paths := e.named[name]
	if len(paths) != 1 {
		return ""
	}
	return paths[0]
}

// standard returns the import paths of the standard library's packages.
func (e *Importer) standard() []string {
	cmd := exec.Command("go", "list", "std")
	cmd.Dir, cmd.Env = e.dir, e.env
	out, err := cmd.Output()
	if err != nil {
		return nil
	}
	return strings.Fields(string(out))
}

// A module is one of the module graph's: its path, version and
// directory in the module cache ("" if it is not downloaded).
type module struct{ path, version, dir string }

// graph returns the modules of the Importer's module graph, but its
// own, listed by the go command once, from the module cache alone: a
// module whose go.mod is not there is left out, not fetched.
func (e *Importer) graph() []module {
	e.graphOnce.Do(func() {
		cmd := exec.Command("go", "list", "-m", "-e", "-f", "{{if not .Main}}{{.Path}} {{.Version}} {{.Dir}}{{end}}", "all")
		env := e.env
		if env == nil {
			env = os.Environ()
		}
		cmd.Dir, cmd.Env = e.dir, append(env, "GOPROXY=off")
		out, err := cmd.Output()
		if err != nil {
			return
		}
		for _, line := range strings.Split(string(out), "\n") {
			if f := strings.Fields(line); len(f) >= 2 {
				m := module{path: f[0], version: f[1]}
				if len(f) == 3 {
					m.dir = f[2]
				}
				e.modules = append(e.modules, m)
			}
		}
	})
	return e.modules
}

// versionOf returns the version of the module of the Importer's graph
// that holds the package at path, the one with the longest path of
// those that could; "" if none could.
func (e *Importer) versionOf(path string) string {
	best := module{}
	for _, m := range e.graph() {
		if (path == m.path || strings.HasPrefix(path, m.path+"/")) && len(m.path) > len(best.path) {
			best = m
		}
	}
	return best.version
}

// packageNames indexes by name the importable packages of modules:
// directories with Go files whose package clause names them as the
// directory is named, outside internal, testdata and vendor
// directories, and outside the modules nested in them.
func packageNames(modules []module) map[string][]string {
	names := map[string][]string{}
	for _, m := range modules {
		if m.dir == "" {
			continue // a module not downloaded
		}
		root := m.dir
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.IsDir() {
				return nil
			}
			base := d.Name()
			if p != root && (skipDir(base) || hasFile(filepath.Join(p, "go.mod"))) {
				return filepath.SkipDir
			}
			rel, _ := filepath.Rel(root, p)
			if p != root && packageName(p) == base {
				names[base] = append(names[base], path.Join(m.path, filepath.ToSlash(rel)))
			}
			return nil
		})
	}
	return names
}

// skipDir reports whether a directory of that name holds no package
// another module may import.
func skipDir(base string) bool {
	return base == "internal" || base == "testdata" || base == "vendor" || strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_")
}

// hasFile reports whether the file exists.
func hasFile(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}

// packageName returns the package clause's name of the first Go file of
// dir that is not a test, "" if it has none.
func packageName(dir string) string {
	entries, _ := os.ReadDir(dir)
	for _, en := range entries {
		n := en.Name()
		if en.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, n), nil, parser.PackageClauseOnly)
		if err == nil {
			return f.Name.Name
		}
	}
	return ""
}
