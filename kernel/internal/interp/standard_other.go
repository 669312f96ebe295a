//go:build !js

package interp

import (
	"reflect"

	"github.com/traefik/yaegi/stdlib"
)

// standardSymbols are the standard packages the interpreter has compiled
// in: on a server, yaegi's whole standard library.
var standardSymbols = stdlib.Symbols

// lazySymbols make the tables a session takes only as a cell first
// imports their packages: none on a server.
var lazySymbols map[string]func() map[string]reflect.Value

// elsewhere reports whether the package at path is one that another
// engine, not this one, has compiled in: none, on a server.
func elsewhere(string) bool { return false }

// deferredGeneric are the sources of the generic standard packages that
// yaegi interprets (cmp, maps, slices) when a session compiles them only
// as a cell first imports one: none on a server, where yaegi's Use
// compiles them as the session starts.
var deferredGeneric []string

// compileInstead ends an *Unsupported error: how to run the cell
// otherwise. On a server, GoNB is at hand.
const compileInstead = "put %%gonb on the cell's first line to compile it with GoNB"
