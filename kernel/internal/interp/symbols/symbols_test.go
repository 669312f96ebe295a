package symbols

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The symbol tables must match the packages: this runs yaegi extract (as
// go generate does) into a scratch directory in the module and compares.
// Run `go generate ./kernel/internal/interp/symbols` when it fails.
func TestSymbolsAreUpToDate(t *testing.T) {
	if err := os.MkdirAll("testdata", 0o755); err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("testdata", "extract")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir); os.Remove("testdata") })
	packages := extracted(t)
	cmd := exec.Command("go", append([]string{"run", "github.com/traefik/yaegi/cmd/yaegi", "extract", "-name", "symbols"}, packages...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("yaegi extract: %v\n%s", err, out)
	}
	fresh, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(fresh) != len(packages) {
		t.Fatalf("yaegi extract wrote %q (%v)", fresh, err)
	}
	for _, f := range fresh {
		want, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Base(f))
		if err != nil {
			t.Fatalf("%s is missing: run go generate ./kernel/internal/interp/symbols", filepath.Base(f))
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is out of date: run go generate ./kernel/internal/interp/symbols", filepath.Base(f))
		}
	}
}

// extracted returns the packages symbols.go's go:generate line extracts.
func extracted(t *testing.T) []string {
	t.Helper()
	src, err := os.ReadFile("symbols.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(src), "\n") {
		if _, packages, ok := strings.Cut(line, "yaegi/cmd/yaegi extract "); ok && strings.HasPrefix(line, "//go:generate ") {
			return strings.Fields(packages)
		}
	}
	t.Fatal("symbols.go has no go:generate line that runs yaegi extract")
	return nil
}
