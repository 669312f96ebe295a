package browserstd

import (
	"bytes"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/traefik/yaegi/stdlib"

	"github.com/tensornb/tensornb/kernel/internal/interp/symbols"
)

// Each table has the names of yaegi's table of its package, which the
// server engine uses, and no other: a cell means the same in both
// engines.
func TestTablesAreYaegis(t *testing.T) {
	for _, p := range symbols.BrowserStandard {
		key := p + "/" + path.Base(p)
		got, ok := Symbols[key]
		if build, lazy := Lazy[key]; lazy {
			if ok {
				t.Errorf("%s has a table and a lazy one", p)
			}
			got, ok = build(), true
		}
		if !ok {
			t.Errorf("no table of %s", p)
			continue
		}
		want := stdlib.Symbols[key]
		for name := range want {
			if _, ok := got[name]; !ok {
				t.Errorf("%s: %s is missing", p, name)
			}
		}
		for name := range got {
			if _, ok := want[name]; !ok {
				t.Errorf("%s: %s is not in yaegi's table", p, name)
			}
		}
	}
	if n := len(Symbols) + len(Lazy); n != len(symbols.BrowserStandard)+1 { // and "."
		t.Errorf("%d tables for %d packages", n, len(symbols.BrowserStandard))
	}
	for key, table := range Lazy {
		for name := range table() {
			if strings.HasPrefix(name, "_") {
				t.Errorf("%s is lazy, and has the interface wrapper %s", key, name)
			}
		}
	}
	for _, p := range []string{"fmt/fmt", "os/os", "math/bits/bits", "io/io", "encoding/encoding"} {
		if _, ok := Symbols[p]; !ok {
			t.Errorf("the table of %s is not one a session starts with", p)
		}
	}
	for _, p := range symbols.BrowserStandard {
		if !slices.Contains(symbols.ServerStandard, p) {
			t.Errorf("%s is not among the server's packages", p)
		}
	}
}

// The files are generate.go's, as it writes them now: run `go generate`
// in kernel/internal/interp/symbols when this fails.
func TestTablesAreUpToDate(t *testing.T) {
	if testing.Short() {
		t.Skip("extracting the tables takes half a minute")
	}
	dir := t.TempDir()
	lists := filepath.Join(dir, "standard.go")
	cmd := exec.Command("go", "run", "generate.go", "-tables", dir, "-lists", lists)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("generate.go: %v\n%s", err, out)
	}
	fresh, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fresh {
		mine := filepath.Base(f)
		if f == lists {
			mine = filepath.Join("..", "standard.go")
		}
		want, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(mine)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s is out of date: run go generate in kernel/internal/interp/symbols", mine)
		}
	}
}
