//go:build !js

package interp

import "github.com/traefik/yaegi/stdlib"

// standardSymbols are the standard packages the interpreter has compiled
// in: on a server, yaegi's whole standard library.
var standardSymbols = stdlib.Symbols

// elsewhere reports whether the package at path is one that another
// engine, not this one, has compiled in: none, on a server.
func elsewhere(string) bool { return false }

// deferredGeneric are the sources of the generic standard packages that
// yaegi interprets (cmp, maps, slices) when a session compiles them only
// as a cell first imports one: none on a server, where yaegi's Use
// compiles them as the session starts.
var deferredGeneric []string
