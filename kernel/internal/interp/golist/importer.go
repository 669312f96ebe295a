package golist

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
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/tensornb/tensornb/kernel/internal/interp/complete"
)

// An Importer gives the type checker the packages cells import, from
// the export data the go command writes into its build cache: `go list
// -export` compiles each package once (a warm cache answers at once), run
// in dir, the tensornb module, so that tensor and display resolve.
type Importer struct {
	dir string
	env []string // the go command's environment; nil for the process's

	mu      sync.Mutex
	files   map[string]string   // import path → export data file
	sources map[string][]string // import path → its directory, then its Go files
	gc      types.Importer

	fetchMu sync.Mutex
	fetched string // the module's directory that fetch adds modules to

	graphOnce sync.Once
	modules   []module // the module graph, but the Importer's module
	namedOnce sync.Once
	named     map[string][]string // package name → import paths (Named)
}

// New returns an Importer that runs the go command in dir, a directory of
// the tensornb module, with the environment env (the process's if nil),
// and adds the positions of the packages it imports to fset.
func New(fset *token.FileSet, dir string, env []string) *Importer {
	e := &Importer{dir: dir, env: env, files: map[string]string{}, sources: map[string][]string{}}
	e.gc = importer.ForCompiler(fset, "gc", e.lookup)
	return e
}

// Import imports path, listing its export data first if needed.
func (e *Importer) Import(path string) (*types.Package, error) {
	e.mu.Lock()
	_, known := e.files[path]
	e.mu.Unlock()
	if !known {
		if err := e.List(path); err != nil {
			return nil, err
		}
	}
	return e.gc.Import(path)
}

// List asks the go command, once, for the export data of the packages
// at paths and of every package they depend on, and where their source
// files are, unless a worker before asked the same (see listDeps). Each
// run of the go command costs about a tenth of a second of CPU, whatever
// it lists: a worker's start lists what Warm imports in one.
func (e *Importer) List(paths ...string) error {
	listed, err := listDeps(e.dir, e.env, paths...)
	if err != nil {
		return fmt.Errorf("package %s is not available: %w", strings.Join(paths, ", "), err)
	}
	e.Add(listed)
	return nil
}

// Add takes what the go command said of packages: where their export
// data and their sources are.
func (e *Importer) Add(listed []ListedPackage) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, p := range listed {
		if p.Export != "" {
			e.files[p.ImportPath] = p.Export
		}
		e.sources[p.ImportPath] = append([]string{p.Dir}, p.GoFiles...)
	}
}

// A ListedPackage is what `go list -export` says of a package: its import
// path, the file of its export data (empty if it has none), its directory
// and its Go files there, and whether it is in the standard library.
type ListedPackage struct {
	ImportPath, Export, Dir string
	GoFiles                 []string
	Standard                bool `json:",omitempty"`
}

// ListPackages runs `go list -export` in dir with the flags and packages
// of args, in the environment env (the process's if nil), and returns
// what it says of each package. Its error is what the go command wrote.
func ListPackages(dir string, env []string, args ...string) ([]ListedPackage, error) {
	cmd := exec.Command("go", append([]string{"list", "-export", "-json=ImportPath,Export,Dir,GoFiles,Standard"}, args...)...)
	cmd.Dir = dir
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return nil, errors.New(msg)
		}
		return nil, err
	}
	var listed []ListedPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p ListedPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			return listed, nil
		} else if err != nil {
			return nil, err
		}
		listed = append(listed, p)
	}
}

// DocIndex indexes the doc comments of the Go files of the package at
// path, once the package was imported.
func (e *Importer) DocIndex(path string) map[string]string {
	e.mu.Lock()
	s, ok := e.sources[path]
	e.mu.Unlock()
	if !ok {
		return nil
	}
	return complete.PackageDocs(s[0], s[1:])
}

// Source returns the directory of the package at path and its Go files
// there. A package the Importer's module does not provide is fetched as
// GoNB fetches it: `go get` adds its module to a module of the
// Importer's own, in a temporary directory: at the version the
// Importer's module graph has, if its module is in it. The error is the
// go command's.
func (e *Importer) Source(path string) (dir string, files []string, err error) {
	if err := checkImportPath(path); err != nil {
		return "", nil, err // before it reaches the go command's arguments
	}
	e.mu.Lock()
	src, known := e.sources[path]
	e.mu.Unlock()
	if !known {
		if err := e.List(path); err != nil {
			listed, ferr := e.fetch(path)
			if ferr != nil {
				return "", nil, ferr
			}
			e.Add(listed)
		}
		e.mu.Lock()
		src, known = e.sources[path]
		e.mu.Unlock()
	}
	if !known || len(src) == 0 {
		return "", nil, fmt.Errorf("the go command did not list package %s", path)
	}
	return src[0], src[1:], nil
}

// checkImportPath refuses what is not an import path a module's package
// can have: an element that is empty, . or .., or starts with a dot or a
// dash (which the go command would take for a flag), or a character
// outside letters, digits and -._~+.
func checkImportPath(path string) error {
	for _, elem := range strings.Split(path, "/") {
		if elem == "" || elem[0] == '.' || elem[0] == '-' || strings.IndexFunc(elem, badPathRune) >= 0 {
			return fmt.Errorf("invalid import path %q", path)
		}
	}
	return nil
}

// badPathRune reports whether r may not be in an import path's element.
func badPathRune(r rune) bool {
	return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-._~+", r))
}

// fetch adds the module of the package at path to the Importer's module
// of fetched ones with `go get`, and lists the package and what it
// depends on there.
func (e *Importer) fetch(path string) ([]ListedPackage, error) {
	e.fetchMu.Lock()
	defer e.fetchMu.Unlock()
	if e.fetched == "" {
		dir, err := newFetchModule()
		if err != nil {
			return nil, err
		}
		e.fetched = dir
	}
	target := path
	if v := e.versionOf(path); v != "" {
		target += "@" + v // a module tensornb requires stays at its version
	}
	cmd := exec.Command("go", "get", target)
	cmd.Dir, cmd.Env = e.fetched, e.env
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go get %s: %s", target, strings.TrimSpace(string(out)))
	}
	listed, err := ListPackages(e.fetched, e.env, "-deps", path)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.DeleteFunc(listed, func(p ListedPackage) bool { // the Importer's module's packages stay its
		_, known := e.sources[p.ImportPath]
		return known
	}), nil
}

// newFetchModule makes a module for the packages cells import that no
// module tensornb requires provides, in the temporary directory
// tensornb-modules-PID, and removes those of the workers that ended.
func newFetchModule() (string, error) {
	removeEnded()
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("%s%d", fetchPrefix, os.Getpid()))
	mod := "module tensornb.cells\n\ngo " + strings.TrimPrefix(runtime.Version(), "go") + "\n"
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("a module for fetched packages: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
		return "", fmt.Errorf("a module for fetched packages: %w", err)
	}
	return dir, nil
}

// fetchPrefix starts the name of a worker's module of fetched packages;
// its process id ends it.
const fetchPrefix = "tensornb-modules-"

// removeEnded removes the modules of fetched packages of the workers
// that no longer run: a worker ends by a signal (an interrupt, a memory
// limit) as often as by itself, and leaves its module behind.
func removeEnded() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), fetchPrefix+"*"))
	for _, dir := range dirs {
		pid, err := strconv.Atoi(strings.TrimPrefix(filepath.Base(dir), fetchPrefix))
		if err != nil || pid == os.Getpid() {
			continue
		}
		if p, err := os.FindProcess(pid); err == nil && p.Signal(syscall.Signal(0)) == nil {
			continue
		}
		_ = os.RemoveAll(dir)
	}
}

// DocsAtHand is true: the packages' sources are files at hand.
func (e *Importer) DocsAtHand() bool { return true }

func (e *Importer) lookup(path string) (io.ReadCloser, error) {
	e.mu.Lock()
	file, ok := e.files[path]
	e.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("no export data for %s", path)
	}
	return os.Open(file)
}
