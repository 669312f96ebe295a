//go:build !js

package interp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
)

// NewSession returns a session with the standard library, tensor and
// display importable; dir is a directory of the tensornb module, where the
// go command finds the packages' type information. Interpreted code's
// os.Stderr, and yaegi's own messages, go to stderr.
func NewSession(dir string, stderr io.Writer) (*Session, error) {
	return openSession(func(fset *token.FileSet) packages { return newExportImporter(fset, dir) }, nil, stderr)
}

// exportImporter gives the type checker the packages cells import, from
// the export data the go command writes into its build cache: `go list
// -export` compiles each package once (a warm cache answers at once), run
// in dir, the tensornb module, so that tensor and display resolve.
type exportImporter struct {
	dir string

	mu      sync.Mutex
	files   map[string]string   // import path → export data file
	sources map[string][]string // import path → its directory, then its Go files
	gc      types.Importer
}

func newExportImporter(fset *token.FileSet, dir string) *exportImporter {
	e := &exportImporter{dir: dir, files: map[string]string{}, sources: map[string][]string{}}
	e.gc = importer.ForCompiler(fset, "gc", e.lookup)
	return e
}

// Import imports path, listing its export data first if needed.
func (e *exportImporter) Import(path string) (*types.Package, error) {
	e.mu.Lock()
	_, known := e.files[path]
	e.mu.Unlock()
	if !known {
		if err := e.list(path); err != nil {
			return nil, err
		}
	}
	return e.gc.Import(path)
}

// list asks the go command for the export data of path and of every
// package it depends on, and where their source files are.
func (e *exportImporter) list(path string) error {
	cmd := exec.Command("go", "list", "-export", "-deps", "-json=ImportPath,Export,Dir,GoFiles", path)
	cmd.Dir = e.dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("package %s is not available: %s", path, strings.TrimSpace(stderr.String()))
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath, Export, Dir string
			GoFiles                 []string
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return err
		}
		if p.Export != "" {
			e.files[p.ImportPath] = p.Export
		}
		e.sources[p.ImportPath] = append([]string{p.Dir}, p.GoFiles...)
	}
}

// source returns the directory of the package at path and its Go files,
// once the package was imported.
func (e *exportImporter) source(path string) (dir string, files []string, ok bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	s, ok := e.sources[path]
	if !ok {
		return "", nil, false
	}
	return s[0], s[1:], true
}

func (e *exportImporter) lookup(path string) (io.ReadCloser, error) {
	e.mu.Lock()
	file, ok := e.files[path]
	e.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("no export data for %s", path)
	}
	return os.Open(file)
}
