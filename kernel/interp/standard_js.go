//go:build js

package interp

import (
	"slices"

	"github.com/tensornb/tensornb/kernel/interp/symbols"
	"github.com/tensornb/tensornb/kernel/interp/symbols/browserstd"
)

// standardSymbols are the standard packages the interpreter has compiled
// in: in a browser, a chosen few (symbols.BrowserStandard), which start
// in a fraction of the time yaegi's whole standard library takes.
var standardSymbols = browserstd.Symbols

// elsewhere reports whether the package at path is one that the server's
// engine has compiled in and the browser's does not: a cell that imports
// it is refused with a *NotInBrowser error.
func elsewhere(path string) bool {
	return !hasPackage(path) && slices.Contains(symbols.ServerStandard, path)
}
