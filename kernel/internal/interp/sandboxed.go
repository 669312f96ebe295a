package interp

import (
	"slices"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/interp/cell"
	"github.com/tensornb/tensornb/kernel/internal/interp/cellcmd"
	"github.com/tensornb/tensornb/kernel/internal/interp/check"
)

// Sandbox restricts the session to what untrusted code may use: from now
// on a cell that imports, or uses without importing, a package outside
// cell.SandboxStandard and this module's fails with a *cell.NotInSandbox
// before anything of it runs, as does a cell with a command that reaches
// the process: a shell line, %cd, %env. tensornb grade's workers run
// submissions so (Sandboxed, the worker's option).
func (s *Session) Sandbox() {
	s.check.Restrict(sandbox{lowered{s.lib, s.lower.Std()}})
	s.sandboxed = true
}

// reachesProcess reports whether cmd changes or runs something outside
// the interpreter, which a sandboxed session refuses.
func reachesProcess(cmd cellcmd.Command) bool {
	return cmd.Shell || cmd.Name == "cd" || cmd.Name == "env"
}

// Sandboxed is the option of worker.Serve that sandboxes the worker's
// session (Session.Sandbox).
func Sandboxed(s *Session) { s.Sandbox() }

// sandbox is the library of a sandboxed session: what lib has, of the
// packages the sandbox allows.
type sandbox struct{ check.Library }

// Has reports whether a cell may import the package at path.
func (b sandbox) Has(path string) bool { return sandboxAllows(path) && b.Library.Has(path) }

// Elsewhere reports whether the package at path is one the sandbox
// refuses: any it does not allow, a module's too, which it does not ask
// the go command to fetch.
func (sandbox) Elsewhere(path string) bool { return !sandboxAllows(path) }

// Refuse is the error of a cell that uses such a package.
func (sandbox) Refuse(line int, path string) error { return &cell.NotInSandbox{Line: line, Path: path} }

// sandboxAllows reports whether a sandboxed session lets cells import the
// package at path: one of cell.SandboxStandard, or one of this module's
// (tensor, display, check).
func sandboxAllows(path string) bool {
	return slices.Contains(cell.SandboxStandard, path) || ownPackage(path)
}

// ownPackage reports whether path is a package of tensornb's own module.
func ownPackage(path string) bool { return strings.HasPrefix(path, "github.com/tensornb/tensornb/") }
