package interp

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/interp/symbols"
)

// SandboxStandard are the standard packages a sandboxed session lets
// cells use: the browser's (symbols.BrowserStandard) but os, so that none
// of them reaches a file, a process, the environment or the network.
var SandboxStandard = slices.DeleteFunc(slices.Clone(symbols.BrowserStandard), func(p string) bool { return p == "os" })

// sandboxAllows reports whether a sandboxed session lets cells import the
// package at path: one of SandboxStandard, or one of this module's
// (tensor, display, check).
func sandboxAllows(path string) bool {
	return slices.Contains(SandboxStandard, path) || strings.HasPrefix(path, "github.com/tensornb/tensornb/")
}

// Sandbox restricts the session to what untrusted code may use: from now
// on a cell that imports, or uses without importing, a package outside
// SandboxStandard and this module's fails with a *NotInSandbox before
// anything of it runs. tensornb grade's workers run submissions so
// (Sandboxed, the worker's option).
func (s *Session) Sandbox() {
	has := s.check.has
	s.check.has = func(path string) bool { return sandboxAllows(path) && has(path) }
	s.check.elsewhere = func(path string) bool {
		return !sandboxAllows(path) && (has(path) || standard(path))
	}
	s.check.refused = func(line int, path string) error { return &NotInSandbox{Line: line, Path: path} }
}

// Sandboxed is the option of Serve that sandboxes the worker's session
// (Session.Sandbox).
func Sandboxed(s *Session) { s.Sandbox() }

// A NotInSandbox is a cell of a sandboxed session that uses a package
// the sandbox does not allow.
type NotInSandbox struct {
	Line int
	Path string
}

// Error names the package, what the sandbox allows, and why.
func (n *NotInSandbox) Error() string {
	return fmt.Sprintf("cell line %d: import %q: graded code cannot use it, for it could reach files, processes or the network (it has tensor, display, check and, of the standard library, %s)", n.Line, n.Path, strings.Join(SandboxStandard, ", "))
}

// standard reports whether path is a standard package's, as the go
// command tells them apart: no dot in its first element.
func standard(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}
