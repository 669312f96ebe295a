package interp

import (
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"sort"
	"strings"

	"github.com/tensornb/tensornb/kernel/interp/symbols"
)

// ExportData returns the type information of the package at an import
// path as the Go compiler exports it, built for the GOOS and GOARCH the
// session runs on: the file `go list -export` names, or its first member,
// __.PKGDEF, alone in an archive. It returns an error if it has none. A
// session that cannot run the go command, in a browser, learns the types
// of the packages cells import from it.
type ExportData func(path string) (io.ReadCloser, error)

// CompiledPackages are the import paths of the packages compiled into the
// interpreter, which cells can import: the export data a session needs is
// theirs.
func CompiledPackages() []string {
	paths := make([]string, 0, len(compiledIn()))
	for p := range compiledIn() {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	return paths
}

// BrowserPackages are the import paths of the packages the browser's
// engine (built for js) has compiled in: tensor, display, and the
// standard packages of symbols.BrowserStandard. There, they are
// CompiledPackages.
func BrowserPackages() []string {
	paths := append([]string(nil), symbols.BrowserStandard...)
	for key := range symbols.Symbols {
		paths = append(paths, key[:strings.LastIndex(key, "/")])
	}
	sort.Strings(paths)
	return paths
}

// exportDataPackages are packages whose types come from ExportData. Doc
// comments, which export data lacks, are not at hand.
type exportDataPackages struct{ gc types.Importer }

func newExportDataPackages(fset *token.FileSet, data ExportData) exportDataPackages {
	return exportDataPackages{gc: importer.ForCompiler(fset, "gc", importer.Lookup(data))}
}

func (p exportDataPackages) Import(path string) (*types.Package, error) { return p.gc.Import(path) }

func (exportDataPackages) source(string) (string, []string, bool) { return "", nil, false }
