// Package jupytertest installs the tensornb kernel in scratch directories
// for tests that drive it with real Jupyter clients (jupyter_kernel_test,
// nbclient, nbconvert).
//
// The tests need Debian's Jupyter packages; scripts/test installs them and
// sets TENSORNB_REQUIRE_JUPYTER, so that in CI their absence fails the
// tests instead of skipping them.
package jupytertest

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

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

// Main runs the tests of a package that calls Install: call it from
// TestMain, as os.Exit(jupytertest.Main(m)). It removes the shared
// installation when the tests end.
func Main(m *testing.M) int {
	shared.main = true
	code := m.Run()
	if shared.dir != "" {
		if err := os.RemoveAll(shared.dir); err != nil {
			fmt.Fprintln(os.Stderr, "jupytertest:", err)
		}
	}
	return code
}

// shared is the installation Install makes once per test binary.
var shared struct {
	main bool // whether Main runs the tests
	once sync.Once
	dir  string   // the scratch directory it is in
	env  []string // the environment that points Jupyter at it
	err  error
}

// Install returns the environment that points Jupyter at a scratch
// installation of the kernel: the tensornb command, built and installed
// into a prefix (tensornb install -prefix) once per test binary and
// shared by every test that calls Install, which must only read it (a
// test of install itself makes its own, with Command). The package's
// TestMain must call Main.
func Install(t *testing.T) []string {
	t.Helper()
	if !shared.main {
		t.Fatal("jupytertest.Install needs the package's TestMain to call jupytertest.Main(m)")
	}
	shared.once.Do(func() {
		start := time.Now()
		shared.dir, shared.err = os.MkdirTemp("", "tensornb-jupytertest-")
		if shared.err == nil {
			shared.env, shared.err = installInto(shared.dir)
		}
		t.Logf("installed the kernel for this package's tests in %.1f s", time.Since(start).Seconds())
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	// Clipped, so that tests appending to it at once (parallel subtests)
	// each get an array of their own.
	return slices.Clip(shared.env)
}

// installInto builds the command into dir/bin and installs the kernel into
// dir/prefix.
func installInto(dir string) ([]string, error) {
	prefix := filepath.Join(dir, "prefix")
	if err := seedTools(install.PrefixLayout(prefix).Bin()); err != nil {
		return nil, err
	}
	binary, err := build(filepath.Join(dir, "bin"))
	if err != nil {
		return nil, err
	}
	if out, err := exec.Command(binary, "install", "-prefix", prefix).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("tensornb install: %v\n%s", err, out)
	}
	return append(os.Environ(), "JUPYTER_PATH="+filepath.Join(prefix, "share", "jupyter")), nil
}

// Command builds the tensornb command into a scratch directory and
// returns its path.
func Command(t *testing.T) string {
	t.Helper()
	binary, err := build(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return binary
}

// build builds the tensornb command into dir.
func build(dir string) (string, error) {
	binary := filepath.Join(dir, "tensornb")
	build := exec.Command("go", "build", "-o", binary, "github.com/tensornb/tensornb/kernel/cmd/tensornb")
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return binary, nil
}

// SeedTools copies the pinned tools into bin, where tensornb install
// finds them and so builds none. They come from the test cache that
// kernel/internal/gonb's tests fill, so that they are built once.
func SeedTools(t *testing.T, bin string) {
	t.Helper()
	if err := seedTools(bin); err != nil {
		t.Fatal(err)
	}
}

func seedTools(bin string) error {
	toolsCache, err := tools.BuildForTests(io.Discard)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(bin, 0o755); err != nil {
		return err
	}
	for _, name := range []string{"gonb", "goimports", "gopls", ".gonb.version", ".goimports.version", ".gopls.version"} {
		data, err := os.ReadFile(filepath.Join(toolsCache, name))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(bin, name), data, 0o755); err != nil {
			return err
		}
	}
	return nil
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
