package interp

import (
	"encoding/json"
	"go/importer"
	"go/token"
	"go/types"
	"io"
)

// ExportData returns the type information of the package at an import
// path as the Go compiler exports it, built for the GOOS and GOARCH the
// session runs on: the file `go list -export` names, or its first member,
// __.PKGDEF, alone in an archive. It returns an error if it has none. A
// session that cannot run the go command, in a browser, learns the types
// of the packages cells import from it.
type ExportData func(path string) (io.ReadCloser, error)

// DocData returns the doc comments of the package at an import path, as
// the JSON of what complete.PackageDocs returns for its files, or an
// error if it has none.
type DocData func(path string) (io.ReadCloser, error)

// FromExportData gives a Host's checker the types of the packages cells
// import from data, and their doc comments, which export data lacks,
// from docs, if it is not nil.
func FromExportData(data ExportData, docs DocData) func(*token.FileSet) Packages {
	return func(fset *token.FileSet) Packages {
		return exportDataPackages{gc: importer.ForCompiler(fset, "gc", importer.Lookup(data)), docs: docs}
	}
}

// exportDataPackages are packages whose types come from ExportData, and
// their doc comments from DocData.
type exportDataPackages struct {
	gc   types.Importer
	docs DocData
}

// DocIndex reads the doc comments of the package at path from DocData.
func (p exportDataPackages) DocIndex(path string) map[string]string {
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

// DocsAtHand is false: DocData may fetch across a network.
func (exportDataPackages) DocsAtHand() bool { return false }

// Import imports the package at path, from its export data.
func (p exportDataPackages) Import(path string) (*types.Package, error) { return p.gc.Import(path) }
