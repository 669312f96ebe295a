package compiled_test

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/traefik/yaegi/stdlib"

	"github.com/tensornb/tensornb/kernel/internal/interp/cell"
	"github.com/tensornb/tensornb/kernel/internal/interp/compiled"
	"github.com/tensornb/tensornb/kernel/internal/interp/symbols"
	"github.com/tensornb/tensornb/kernel/internal/interp/symbols/browserstd"
)

// A server's library has yaegi's whole standard library and the module's
// packages, and finds a package by its name when one alone has it.
func TestServerLibrary(t *testing.T) {
	l := compiled.New(compiled.Tables{Standard: stdlib.Symbols})
	for _, p := range []string{"net/http", "strings", "github.com/tensornb/tensornb/tensor", "github.com/tensornb/tensornb/widget"} {
		if !l.Has(p) || l.Elsewhere(p) {
			t.Errorf("%s: Has %v, Elsewhere %v; want compiled in", p, l.Has(p), l.Elsewhere(p))
		}
	}
	if !l.HasSymbol("strings", "ToUpper") || l.HasSymbol("strings", "NoSuchName") || l.HasSymbol("no/such", "X") {
		t.Error("HasSymbol does not tell the names of strings from others")
	}
	for name, want := range map[string]string{"strings": "strings", "http": "net/http", "rand": "", "tensor": "github.com/tensornb/tensornb/tensor", "nosuch": ""} {
		if got := l.Named(name); got != want {
			t.Errorf("Named(%q) = %q, want %q", name, got, want)
		}
	}
	if paths := l.Paths(); !slices.IsSorted(paths) || !slices.Contains(paths, "github.com/tensornb/tensornb/display") {
		t.Errorf("Paths: sorted %v, with display %v", slices.IsSorted(paths), slices.Contains(paths, "github.com/tensornb/tensornb/display"))
	}
}

// A browser's library has the packages BrowserPackages names, makes the
// lazy tables as asked, and refuses the server's other standard packages
// as not in the browser, by the names they have there.
func TestBrowserLibrary(t *testing.T) {
	l := compiled.New(compiled.Tables{Standard: browserstd.Symbols, Lazy: browserstd.Lazy, Elsewhere: symbols.ServerStandard})
	if got, want := l.Paths(), compiled.BrowserPackages(); !slices.Equal(got, want) {
		t.Errorf("the browser's library has %v, BrowserPackages says %v", got, want)
	}
	if l.Has("net/http") || !l.Elsewhere("net/http") || l.Elsewhere("no/such") {
		t.Errorf("net/http: Has %v, Elsewhere %v; want elsewhere only", l.Has("net/http"), l.Elsewhere("net/http"))
	}
	if got := l.Named("http"); got != "net/http" {
		t.Errorf(`Named("http") = %q, want net/http, which the server has`, got)
	}
	var nb *cell.NotInBrowser
	if err := l.Refuse(3, "net/http"); !errors.As(err, &nb) || nb.Line != 3 || nb.Path != "net/http" {
		t.Errorf("Refuse: %v", err)
	}
	for key := range browserstd.Lazy {
		path := key[:strings.LastIndex(key, "/")]
		got, table, ok := l.Lazy(path)
		if !ok || got != key || len(table) == 0 || !l.HasSymbol(path, slices.Collect(maps.Keys(table))[0]) {
			t.Errorf("Lazy(%q) = %q, %d names, %v; want %q and its table", path, got, len(table), ok, key)
		}
	}
	if _, _, ok := l.Lazy("fmt"); ok {
		t.Error("fmt's table is lazy, want one a session starts with")
	}
}
