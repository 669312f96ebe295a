package interp

import (
	"encoding/json"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"sort"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/interp/symbols"
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

// DocData returns the doc comments of the package at an import path, as
// the JSON of what PackageDocs returns for its files, or an error if it
// has none.
type DocData func(path string) (io.ReadCloser, error)

// exportDataPackages are packages whose types come from ExportData, and
// their doc comments, which export data lacks, from DocData, if any.
type exportDataPackages struct {
	gc   types.Importer
	docs DocData
}

func newExportDataPackages(fset *token.FileSet, data ExportData, docs DocData) exportDataPackages {
	return exportDataPackages{gc: importer.ForCompiler(fset, "gc", importer.Lookup(data)), docs: docs}
}

// docIndex reads the doc comments of the package at path from DocData.
func (p exportDataPackages) docIndex(path string) map[string]string {
	if p.docs == nil {
		return nil
	}
	r, err := p.docs(path)
	if err != nil {
		return nil
	}
	defer r.Close()
	var index map[string]string
	if err := json.NewDecoder(r).Decode(&index); err != nil {
		return nil
	}
	return index
}

// docsAtHand is false: DocData may fetch across a network.
func (exportDataPackages) docsAtHand() bool { return false }

func (p exportDataPackages) Import(path string) (*types.Package, error) { return p.gc.Import(path) }
