//go:build !js

package interp

import (
	"errors"
	"fmt"
	"go/token"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/tensornb/tensornb/kernel/internal/cells"
	"github.com/tensornb/tensornb/kernel/internal/interp/symbols"
)

// A BrowserCell is a code cell for a BrowserChecker.
type BrowserCell struct {
	Code string
	// MayFail is set for a cell that is meant to fail (tagged
	// raises-exception): a teacher shows its error on purpose, so that it
	// does not type-check is no problem. A package the browser's engine
	// does not have still is: the cell would fail otherwise than meant.
	MayFail bool
}

// A BrowserProblem is why a cell cannot run in the browser's engine as
// it is.
type BrowserProblem struct {
	Cell int // the cell's index among those checked
	Line int // the cell line (from 1) the problem is on, or 0
	Msg  string
}

// String is the problem as the site's builder words it: "line L: MSG",
// or MSG alone when no line is named.
func (p BrowserProblem) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("line %d: %s", p.Line, p.Msg)
	}
	return p.Msg
}

// A BrowserChecker checks a notebook's code cells as the browser's engine
// (built for js/wasm: standard_js.go) checks each before it runs them,
// here on a server and without running them: against the packages the
// browser has (tensor, display and symbols.BrowserStandard), and with the
// types of their js/wasm export data, so that the site's builder can name
// the cells a reader would find failing.
type BrowserChecker struct {
	fset *token.FileSet
	imp  *exportImporter
}

// browserGOOS is the environment the browser's engine is built in.
var browserGOOS = []string{"GOOS=js", "GOARCH=wasm"}

// NewBrowserChecker returns a checker whose packages' types come from the
// go command, run in the tensornb module at moduleDir, which compiles
// them for js/wasm once (as browser.Build does, with -trimpath, so that
// the build after the check finds them compiled).
func NewBrowserChecker(moduleDir string) (*BrowserChecker, error) {
	fset := token.NewFileSet()
	imp := newExportImporter(fset, moduleDir)
	imp.env = append(os.Environ(), browserGOOS...)
	listed, err := ListPackages(moduleDir, imp.env, append([]string{"-trimpath", "-deps"}, BrowserPackages()...)...)
	if err != nil {
		return nil, fmt.Errorf("go list -export of the browser's packages: %w", err)
	}
	for _, p := range listed {
		if p.Export != "" {
			imp.files[p.ImportPath] = p.Export
		}
		imp.sources[p.ImportPath] = append([]string{p.Dir}, p.GoFiles...)
	}
	return &BrowserChecker{fset: fset, imp: imp}, nil
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
func (b *BrowserChecker) Check(cells []BrowserCell) []BrowserProblem {
	c := newChecker(b.fset, b.imp, inBrowser, browserHasSymbol)
	c.elsewhere = browserElsewhere
	c.named = browserNamed
	var problems []BrowserProblem
	for i, cell := range cells {
		for _, p := range checkForBrowser(c, cell) {
			p.Cell = i
			problems = append(problems, p)
		}
	}
	return problems
}

// checkForBrowser checks one cell with c, committing what it declares if
// it passes, and returns its problems.
func checkForBrowser(c *checker, cell BrowserCell) []BrowserProblem {
	if line, ok := gonbLine(cell.Code); ok {
		return []BrowserProblem{{Line: line, Msg: gonbMagic + ": the browser has no GoNB to compile this cell (the tensornb kernel in Jupyter has)"}}
	}
	var problems []BrowserProblem
	for _, iu := range parseImports(cells.Split(cell.Code)).units {
		for _, is := range iu.specs {
			if is.valid && !inBrowser(is.path) {
				problems = append(problems, BrowserProblem{Msg: fmt.Sprintf("import %s: %s", is.literal, browserLacks)})
			}
		}
	}
	if problems != nil {
		return problems
	}
	steps, _, err := c.check(cell.Code)
	var nb *NotInBrowser
	var ce *CompileError
	var un *Unsupported
	switch {
	case err == nil:
		for _, st := range steps {
			c.commit(st)
		}
		return nil
	case errors.As(err, &nb):
		return []BrowserProblem{{Line: nb.Line, Msg: fmt.Sprintf("package %q, used without an import: %s", nb.Path, browserLacks)}}
	case cell.MayFail:
		return nil
	case errors.As(err, &ce):
		return []BrowserProblem{{Line: ce.Line, Msg: ce.Msg}}
	case errors.As(err, &un):
		return []BrowserProblem{{Line: un.Line, Msg: "the browser engine cannot run " + un.What}}
	}
	return []BrowserProblem{{Msg: err.Error()}}
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

// BrowserLacks is how a BrowserProblem says that the browser's engine
// lacks a package: it names what the engine has, its standard packages,
// then the module's (tensor, display).
func BrowserLacks() string { return browserLacks }

var browserLacks = func() string {
	has := slices.Clone(symbols.BrowserStandard)
	for _, p := range BrowserPackages() {
		if !slices.Contains(has, p) {
			has = append(has, p)
		}
	}
	return "the browser engine does not have it (it has: " + strings.Join(has, ", ") + ")"
}()

// inBrowser reports whether the browser's engine has the package at path.
func inBrowser(path string) bool { return browserSet()[path] }

// browserSet holds BrowserPackages.
var browserSet = sync.OnceValue(func() map[string]bool {
	set := map[string]bool{}
	for _, p := range BrowserPackages() {
		set[p] = true
	}
	return set
})

// browserHasSymbol reports whether the browser's engine has name in the
// package at path: its tables have the names the server's have
// (package browserstd).
func browserHasSymbol(path, name string) bool { return inBrowser(path) && hasSymbol(path, name) }

// browserElsewhere is standard_js.go's elsewhere, for the browser's
// packages.
func browserElsewhere(path string) bool {
	return !inBrowser(path) && slices.Contains(symbols.ServerStandard, path)
}

// browserNamed is packageNamed in a browser: among the browser's packages
// and those the server's engine has besides.
func browserNamed(name string) string { return namedAmong(browserNames(), name) }

// browserNames are the import paths browserNamed looks through, each
// once.
var browserNames = sync.OnceValue(func() []string {
	paths := BrowserPackages()
	for _, p := range symbols.ServerStandard {
		if browserElsewhere(p) {
			paths = append(paths, p)
		}
	}
	return paths
})
