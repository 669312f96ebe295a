package browsercheck

import (
	"errors"
	"fmt"
	"go/token"
	"os"
	"reflect"
	"slices"
	"strings"

	"github.com/traefik/yaegi/stdlib"

	"github.com/tensornb/tensornb/kernel/internal/cells"
	"github.com/tensornb/tensornb/kernel/internal/interp/cell"
	"github.com/tensornb/tensornb/kernel/internal/interp/check"
	"github.com/tensornb/tensornb/kernel/internal/interp/compiled"
	"github.com/tensornb/tensornb/kernel/internal/interp/golist"
	"github.com/tensornb/tensornb/kernel/internal/interp/rewrite"
	"github.com/tensornb/tensornb/kernel/internal/interp/symbols"
)

// A Cell is a code cell to check.
type Cell struct {
	Code string
	// MayFail is set for a cell that is meant to fail (tagged
	// raises-exception): a teacher shows its error on purpose, so that it
	// does not type-check is no problem. A package the browser's engine
	// does not have still is: the cell would fail otherwise than meant.
	MayFail bool
}

// A Problem is why a cell cannot run in the browser's engine as it is.
type Problem struct {
	Cell int // the cell's index among those checked
	Line int // the cell line (from 1) the problem is on, or 0
	Msg  string
}

// String is the problem as the site's builder words it: "line L: MSG",
// or MSG alone when no line is named.
func (p Problem) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("line %d: %s", p.Line, p.Msg)
	}
	return p.Msg
}

// A Checker checks notebooks' cells as the browser's engine would.
type Checker struct {
	fset *token.FileSet
	imp  *golist.Importer
	lib  *compiled.Library
}

// browserGOOS is the environment the browser's engine is built in.
var browserGOOS = []string{"GOOS=js", "GOARCH=wasm"}

// New returns a checker whose packages' types come from the go command,
// run in the tensornb module at moduleDir, which compiles them for
// js/wasm once (as browser.Build does, with -trimpath, so that the build
// after the check finds them compiled).
func New(moduleDir string) (*Checker, error) {
	fset := token.NewFileSet()
	env := append(os.Environ(), browserGOOS...)
	imp := golist.New(fset, moduleDir, env)
	listed, err := golist.ListPackages(moduleDir, env, append([]string{"-trimpath", "-deps"}, compiled.BrowserPackages()...)...)
	if err != nil {
		return nil, fmt.Errorf("go list -export of the browser's packages: %w", err)
	}
	imp.Add(listed)
	return &Checker{fset: fset, imp: imp, lib: browserLibrary()}, nil
}

// browserLibrary is the browser engine's compiled packages, as a
// server's tables have them: the browser's tables have the names the
// server's have (package browserstd), and the server's standard packages
// that the browser lacks are elsewhere.
func browserLibrary() *compiled.Library {
	standard := map[string]map[string]reflect.Value{}
	for key, table := range stdlib.Symbols {
		if slices.Contains(symbols.BrowserStandard, key[:max(strings.LastIndex(key, "/"), 0)]) {
			standard[key] = table
		}
	}
	return compiled.New(compiled.Tables{Standard: standard, Elsewhere: symbols.ServerStandard})
}

// Check checks cells in order, as one session of the browser's engine
// would run them from the first, and returns the problems of those that
// could not run there. What a cell that passes declares is there for the
// cells after it; what a failing cell declares is not, as in the engine,
// so that a cell that uses it fails too. A cell fails the check if:
//
//   - it starts with %%gonb: the browser has no GoNB to compile it;
//   - it imports a package the browser's engine does not have, or uses
//     one of the server's without importing it (even if it MayFail);
//   - it does not type-check against the cells before it, or the
//     instant engine refuses it (Unsupported), unless it MayFail.
func (b *Checker) Check(cells []Cell) []Problem {
	c := check.New(b.fset, b.imp, b.lib)
	var problems []Problem
	for i, cl := range cells {
		for _, p := range b.checkOne(c, cl) {
			p.Cell = i
			problems = append(problems, p)
		}
	}
	return problems
}

// checkOne checks one cell with c, committing what it declares if it
// passes, and returns its problems.
func (b *Checker) checkOne(c *check.Checker, cl Cell) []Problem {
	if line, ok := gonbLine(cl.Code); ok {
		return []Problem{{Line: line, Msg: gonbMagic + ": the browser has no GoNB to compile this cell (the tensornb kernel in Jupyter has)"}}
	}
	var problems []Problem
	for _, iu := range check.ParseImports(cells.Split(cl.Code)).Units {
		for _, is := range iu.Specs {
			if is.Valid && !b.lib.Has(is.Path) {
				problems = append(problems, Problem{Msg: fmt.Sprintf("import %s: %s", is.Literal, lacks)})
			}
		}
	}
	if problems != nil {
		return problems
	}
	var sites cell.Sites
	steps, _, err := c.Check(cl.Code, func(cc *check.Cell) ([]cell.Step, error) {
		return rewrite.Steps(cc, &sites, cell.NewSource(cl.Code, 0))
	})
	var nb *cell.NotInBrowser
	var ce *cell.CompileError
	var un *cell.Unsupported
	switch {
	case err == nil:
		for _, st := range steps {
			c.Commit(st)
		}
		return nil
	case errors.As(err, &nb):
		return []Problem{{Line: nb.Line, Msg: fmt.Sprintf("package %q, used without an import: %s", nb.Path, lacks)}}
	case cl.MayFail:
		return nil
	case errors.As(err, &ce):
		return []Problem{{Line: ce.Line, Msg: ce.Msg}}
	case errors.As(err, &un):
		return []Problem{{Line: un.Line, Msg: "the browser engine cannot run " + un.What}}
	}
	return []Problem{{Msg: err.Error()}}
}

// gonbMagic is the first line that sends a cell to GoNB in the tensornb
// kernel (package dual's Magic).
const gonbMagic = "%%gonb"

// gonbLine reports whether code's first line that is not blank is
// gonbMagic, and which line it is.
func gonbLine(code string) (int, bool) {
	for i, l := range strings.Split(code, "\n") {
		if t := strings.TrimSpace(l); t != "" {
			return i + 1, t == gonbMagic
		}
	}
	return 0, false
}

// Lacks is how a Problem says that the browser's engine lacks a package:
// it names what the engine has, its standard packages, then the
// module's (tensor, display).
func Lacks() string { return lacks }

var lacks = func() string {
	has := slices.Clone(symbols.BrowserStandard)
	for _, p := range compiled.BrowserPackages() {
		if !slices.Contains(has, p) {
			has = append(has, p)
		}
	}
	return "the browser engine does not have it (it has: " + strings.Join(has, ", ") + ")"
}()
