package interp

import (
	"fmt"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/interp/cell"
	"github.com/tensornb/tensornb/kernel/internal/interp/check"
	"github.com/tensornb/tensornb/kernel/internal/interp/lower"
)

// lowered is the library a session's cells are checked against: what the
// interpreter has compiled in, and the standard packages the lowering
// writes from their source (lower.StdPackages), iter among them, which
// the interpreter lacks, and on a server the packages of modules the
// interpreter does not have compiled in, which it also writes from their
// source.
type lowered struct {
	check.Library
	std *lower.Std
}

// Has reports whether a cell may import the package at path: not
// another module's internal package, which Go lets no other module
// import (a module's own packages may).
func (l lowered) Has(path string) bool {
	if l.Library.Has(path) {
		return true
	}
	return !strings.HasSuffix(path, "/internal") && !strings.Contains(path, "/internal/") && l.std.Lowers(path)
}

// HasSymbol reports whether name of the package at path can run: all of
// a standard package's the lowering reads from source can, or are
// refused by the lowering, which says why, and so can package unsafe's,
// which the lowering and the rewrite write, or refuse.
func (l lowered) HasSymbol(path, name string) bool {
	return path == "unsafe" || l.std.HasSource(path) || l.std.Lowers(path) || l.Library.HasSymbol(path, name)
}

// Elsewhere reports whether the package at path is one only another
// engine has, or a module's package the go command could not find.
func (l lowered) Elsewhere(path string) bool {
	return !l.std.Lowers(path) && (l.Library.Elsewhere(path) || l.std.ModuleError(path) != nil)
}

// Refuse is the error of a cell that uses, at line, a package Elsewhere
// reports: for a module's, what the go command said.
func (l lowered) Refuse(line int, path string) error {
	if err := l.std.ModuleError(path); err != nil {
		return &cell.Unsupported{Line: line, What: fmt.Sprintf("package %s, which the go command could not find: %v", path, err)}
	}
	return l.Library.Refuse(line, path)
}

// Named returns the import path of the one package a name means, or "".
func (l lowered) Named(name string) string {
	if p := l.Library.Named(name); p != "" {
		return p
	}
	if l.std.Lowers(name) { // their names are their paths
		return name
	}
	return l.std.ModuleNamed(name)
}
