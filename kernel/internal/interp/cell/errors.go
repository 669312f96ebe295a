package cell

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/interp/symbols"
)

// A CompileError is a cell that does not type-check. A cell that does not
// parse has Msg "syntax error: " and go/parser's message, as the Go
// compiler names it.
type CompileError struct {
	Line int
	Msg  string
}

// Error names the cell line and the compiler's message.
func (c *CompileError) Error() string { return fmt.Sprintf("cell line %d: %s", c.Line, c.Msg) }

// An Unsupported error is a cell the interpreter cannot run as Go would.
// The session ends its message with how to run the cell otherwise, which
// depends on where it runs.
type Unsupported struct {
	Line int
	What string
}

// Error names the cell line and what the interpreter cannot run.
func (u *Unsupported) Error() string {
	return fmt.Sprintf("cell line %d: the instant engine cannot run %s", u.Line, u.What)
}

// A NotInBrowser is a cell that imports, or uses without importing, a
// standard package that the server's engine has compiled in and the
// browser's does not.
type NotInBrowser struct {
	Line int
	Path string
}

// Error names the package, the packages the browser has, and where the
// cell runs.
func (n *NotInBrowser) Error() string {
	return fmt.Sprintf("cell line %d: package %s is not in the browser's engine, which has tensor, display and, of the standard library, only %s; the tensornb kernel in Jupyter has it", n.Line, n.Path, strings.Join(symbols.BrowserStandard, ", "))
}

// SandboxStandard are the standard packages a sandboxed session lets
// cells use: the browser's (symbols.BrowserStandard) but os, so that none
// of them reaches a file, a process, the environment or the network.
var SandboxStandard = slices.DeleteFunc(slices.Clone(symbols.BrowserStandard), func(p string) bool { return p == "os" })

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
