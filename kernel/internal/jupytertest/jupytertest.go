// Package jupytertest installs the tensornb kernel in scratch directories
// for tests that drive it with real Jupyter clients (jupyter_kernel_test,
// nbclient, nbconvert).
//
// The tests need Debian's Jupyter packages; scripts/test installs them and
// sets TENSORNB_REQUIRE_JUPYTER, so that in CI their absence fails the
// tests instead of skipping them.
package jupytertest

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/kernel/internal/install"
	"github.com/tensornb/tensornb/kernel/internal/tools"
)

// Python is the interpreter with Debian's Jupyter packages.
const Python = "/usr/bin/python3"

// Require skips the test, or fails it in CI, unless Python can import all
// of modules.
func Require(t *testing.T, modules ...string) {
	t.Helper()
	check := exec.Command(Python, "-c", "import "+strings.Join(modules, ", "))
	if out, err := check.CombinedOutput(); err != nil {
		msg := "Debian's Jupyter packages are missing (" + strings.TrimSpace(string(out)) + "); scripts/test installs them"
		if os.Getenv("TENSORNB_REQUIRE_JUPYTER") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
}

// Install builds the tensornb command, installs the kernel into a scratch
// prefix and returns the environment that points Jupyter at it.
func Install(t *testing.T) []string {
	t.Helper()
	prefix := t.TempDir()
	SeedTools(t, install.PrefixLayout(prefix).Bin())
	binary := Command(t)
	if out, err := exec.Command(binary, "install", "-prefix", prefix).CombinedOutput(); err != nil {
		t.Fatalf("tensornb install: %v\n%s", err, out)
	}
	return append(os.Environ(), "JUPYTER_PATH="+filepath.Join(prefix, "share", "jupyter"))
}

// Command builds the tensornb command into a scratch directory and
// returns its path.
func Command(t *testing.T) string {
	t.Helper()
	binary := filepath.Join(t.TempDir(), "tensornb")
	build := exec.Command("go", "build", "-o", binary, "github.com/tensornb/tensornb/kernel/cmd/tensornb")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return binary
}

// SeedTools copies the pinned tools into bin, where tensornb install
// finds them and so builds none. They come from the test cache that
// kernel/internal/gonb's tests fill, so that they are built once.
func SeedTools(t *testing.T, bin string) {
	t.Helper()
	toolsCache, err := tools.BuildForTests(io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"gonb", "goimports", "gopls", ".gonb.version", ".goimports.version", ".gopls.version"} {
		data, err := os.ReadFile(filepath.Join(toolsCache, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(bin, name), data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// JupyterPath returns the JUPYTER_PATH that env, from Install, sets.
func JupyterPath(env []string) string {
	for _, kv := range env {
		if p, ok := strings.CutPrefix(kv, "JUPYTER_PATH="); ok {
			return p
		}
	}
	return ""
}

// Text joins a notebook's multi-line field (a cell's source, a stream's
// text, a MIME value), which nbformat stores as a string or a list of
// strings.
func Text(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []any:
		var b strings.Builder
		for _, s := range v {
			if s, ok := s.(string); ok {
				b.WriteString(s)
			}
		}
		return b.String()
	}
	return ""
}
