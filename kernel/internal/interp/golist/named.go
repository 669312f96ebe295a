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
// than one. The modules are listed, and their directories read, once.
func (e *Importer) Named(name string) string {
	e.namedOnce.Do(func() { e.named = packageNames(e.dir, e.env) })
	paths := e.named[name]
	if len(paths) != 1 {
		return ""
	}
	return paths[0]
}

// packageNames indexes by name the importable packages of the modules
// of the module graph of the module in dir, but the main module's:
// directories with Go files whose package clause names them as the
// directory is named, outside internal, testdata and vendor
// directories, and outside the modules nested in them.
func packageNames(dir string, env []string) map[string][]string {
	cmd := exec.Command("go", "list", "-m", "-f", "{{if not .Main}}{{.Path}} {{.Dir}}{{end}}", "all")
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.Output()
	if err != nil {
		return nil
	}
	names := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		mod, root, ok := strings.Cut(line, " ")
		if !ok || root == "" {
			continue // a module not downloaded has no directory
		}
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
				names[base] = append(names[base], path.Join(mod, filepath.ToSlash(rel)))
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
