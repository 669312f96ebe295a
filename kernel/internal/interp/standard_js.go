//go:build js

package interp

import (
	"slices"

	"github.com/traefik/yaegi/stdlib/generic"

	"github.com/tensornb/tensornb/kernel/internal/interp/symbols"
	"github.com/tensornb/tensornb/kernel/internal/interp/symbols/browserstd"
)

// standardSymbols are the standard packages the interpreter has compiled
// in: in a browser, a chosen few (symbols.BrowserStandard), which start
// in a fraction of the time yaegi's whole standard library takes.
var standardSymbols = browserstd.Symbols

// lazySymbols make the tables a session takes only as a cell first
// imports their packages (browserstd.Lazy): those of math, strings,
// unicode, time and others, whose maps cost the start of a page that does
// not use them.
var lazySymbols = browserstd.Lazy

// elsewhere reports whether the package at path is one that the server's
// engine has compiled in and the browser's does not: a cell that imports
// it is refused with a *NotInBrowser error.
func elsewhere(path string) bool {
	return !hasPackage(path) && slices.Contains(symbols.ServerStandard, path)
}

// deferredGeneric are the sources of the generic standard packages that
// yaegi interprets (cmp, maps, slices), which its Use compiles as a
// session starts: in a browser, where that took a third of a second of
// the start, a session compiles them only as a cell first imports one of
// them (Session.compileGeneric), and Use finds none. Nothing else in the
// program uses yaegi.
var deferredGeneric = takeGeneric()

func takeGeneric() []string {
	sources := generic.Sources[:]
	taken := append([]string(nil), sources...)
	clear(sources)
	return taken
}

// compileInstead ends an *Unsupported error: how to run the cell
// otherwise. A browser has no GoNB: the kernel in Jupyter has.
const compileInstead = "the tensornb kernel in Jupyter compiles it with GoNB when %%gonb is the cell's first line"
