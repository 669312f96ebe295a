package compiled

import (
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/traefik/yaegi/interp"

	"github.com/tensornb/tensornb/kernel/internal/interp/cell"
	"github.com/tensornb/tensornb/kernel/internal/interp/symbols"
)

// Tables are what an engine has compiled in besides the packages of
// symbols.Symbols, which every engine has.
type Tables struct {
	// Standard are the tables of the standard packages a session starts
	// with, keyed as yaegi expects: "path/name".
	Standard interp.Exports
	// Lazy make the tables a session takes only as a cell first imports
	// their packages, keyed as Standard is.
	Lazy map[string]func() map[string]reflect.Value
	// Generic are the sources of the generic standard packages yaegi
	// interprets (GenericPackages), for a session to compile as a cell
	// first imports one; nil where yaegi's Use compiles them as a session
	// starts.
	Generic []string
	// Elsewhere are the standard packages another engine has, the
	// server's in a browser: a cell that uses one that this engine lacks
	// is refused as not here (a *cell.NotInBrowser), not as unknown.
	Elsewhere []string
}

// GenericPackages are the standard packages yaegi interprets from
// source.
var GenericPackages = []string{"cmp", "maps", "slices"}

// A Library is an engine's compiled packages, indexed by import path.
type Library struct {
	tables Tables
	index  map[string]table
	named  []string // the paths Named looks through
}

// A table is yaegi's symbol table of a package: its key in
// interp.Exports, and a function that returns it, made at the first call
// if it is lazy.
type table struct {
	key     string
	symbols func() map[string]reflect.Value
	lazy    bool
}

// New indexes the packages of t and those of symbols.Symbols.
func New(t Tables) *Library {
	l := &Library{tables: t, index: map[string]table{}}
	add := func(key string, tb table) {
		if i := strings.LastIndex(key, "/"); i > 0 {
			tb.key = key
			l.index[key[:i]] = tb
		}
	}
	for _, tables := range []interp.Exports{t.Standard, symbols.Symbols} {
		for key, syms := range tables {
			add(key, table{symbols: func() map[string]reflect.Value { return syms }})
		}
	}
	for key, build := range t.Lazy {
		add(key, table{symbols: sync.OnceValue(build), lazy: true})
	}
	l.named = l.Paths()
	for _, p := range t.Elsewhere {
		if l.Elsewhere(p) {
			l.named = append(l.named, p)
		}
	}
	return l
}

// Standard are the tables of the standard packages a session starts
// with (Tables.Standard).
func (l *Library) Standard() interp.Exports { return l.tables.Standard }

// Generic are the sources of the generic standard packages a session
// compiles as a cell first imports one (Tables.Generic).
func (l *Library) Generic() []string { return l.tables.Generic }

// Has reports whether the package at path is compiled in.
func (l *Library) Has(path string) bool {
	_, ok := l.index[path]
	return ok
}

// HasSymbol reports whether name is compiled in, in the package at path.
func (l *Library) HasSymbol(path, name string) bool {
	tb, ok := l.index[path]
	if !ok {
		return false
	}
	_, ok = tb.symbols()[name]
	return ok
}

// Elsewhere reports whether the package at path is one that another
// engine has compiled in and this one has not.
func (l *Library) Elsewhere(path string) bool {
	return !l.Has(path) && slices.Contains(l.tables.Elsewhere, path)
}

// Refuse is the error of a cell that uses, at line, a package this
// engine lacks and another has (Elsewhere).
func (l *Library) Refuse(line int, path string) error {
	return &cell.NotInBrowser{Line: line, Path: path}
}

// Named returns the import path of the one package compiled in under
// name, or "" if there is none or several (rand: math/rand or
// crypto/rand). The packages another engine has count as well, so that
// a name means the package it means there, or is refused.
func (l *Library) Named(name string) string {
	found := ""
	for _, p := range l.named {
		if p[strings.LastIndex(p, "/")+1:] == name {
			if found != "" {
				return ""
			}
			found = p
		}
	}
	return found
}

// Paths are the import paths of the packages compiled in, in order.
func (l *Library) Paths() []string {
	paths := make([]string, 0, len(l.index))
	for p := range l.index {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	return paths
}

// Lazy returns the lazy table of the package at path, with its key in
// interp.Exports, if it has one.
func (l *Library) Lazy(path string) (key string, symbols map[string]reflect.Value, ok bool) {
	tb, ok := l.index[path]
	if !ok || !tb.lazy {
		return "", nil, false
	}
	return tb.key, tb.symbols(), true
}

// BrowserPackages are the import paths of the packages the browser's
// engine has compiled in: tensor, display, check, widget, and the
// standard packages of symbols.BrowserStandard, in order.
func BrowserPackages() []string {
	paths := append([]string(nil), symbols.BrowserStandard...)
	for key := range symbols.Symbols {
		paths = append(paths, key[:strings.LastIndex(key, "/")])
	}
	sort.Strings(paths)
	return paths
}
