package lower

import "strings"

// The packages of modules the interpreter does not have compiled in are
// written from their source as the standard packages of StdPackages
// are, all of their declarations that cells use: a server finds their
// source with the go command (ModuleSource), and a browser has none.

// A ModuleSource finds the source of a package outside the standard
// library that the interpreter does not have compiled in: its directory
// and the Go files there that build for the engine's platform. It
// returns no directory and no error for a path that is not such a
// package's, and an error that says why for one it cannot find.
type ModuleSource func(path string) (dir string, files []string, err error)

// moduleFiles are where a module's package is, its directory and files,
// or why it could not be found.
type moduleFiles struct {
	dir   string
	files []string
	err   error
}

// ReadModules makes s write from source, as it writes StdPackages, every
// package that modules finds: the packages of the modules a cell imports
// that the interpreter does not have compiled in (GoNB's cache,
// golang.org/x/exp/constraints). Call it before s is used.
// named, if not nil, gives the import path of the one module's package of
// a name, for a cell that uses it without importing it (ModuleNamed).
func (s *Std) ReadModules(modules ModuleSource, named func(name string) string) {
	s.modules, s.named = modules, named
}

// ModuleNamed returns the import path of the one module's package named
// name, for a cell that uses it without importing it, or "".
func (s *Std) ModuleNamed(name string) string {
	if s == nil || s.named == nil {
		return ""
	}
	return s.named(name)
}

// module returns where the package at path is, if it is a module's that
// s reads from source; it asks s's ModuleSource once for each path.
func (s *Std) module(path string) *moduleFiles {
	mf := s.lookModule(path)
	if mf == nil || mf.err != nil {
		return nil
	}
	return mf
}

// ModuleError returns why the package at path, a module's that the
// interpreter does not have compiled in, could not be found; nil if it
// was, or is not such a package.
func (s *Std) ModuleError(path string) error {
	if mf := s.lookModule(path); mf != nil {
		return mf.err
	}
	return nil
}

// lookModule returns what s's ModuleSource answered for path, asking it
// on first use; nil if path is not a module's package.
func (s *Std) lookModule(path string) *moduleFiles {
	if s == nil || s.modules == nil || StandardPath(path) {
		return nil
	}
	s.mu.Lock()
	mf, ok := s.sources[path]
	s.mu.Unlock()
	if ok {
		return mf
	}
	// Outside the lock: the go command may take seconds (go get).
	if dir, files, err := s.modules(path); dir != "" || err != nil {
		mf = &moduleFiles{dir: dir, files: files, err: err}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if had, ok := s.sources[path]; ok {
		return had
	}
	s.sources[path] = mf
	return mf
}

// StandardPath reports whether path is a standard package's, as the go
// command tells them apart: no dot in its first element.
func StandardPath(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}
