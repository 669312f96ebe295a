// Package tools finds or builds the pinned programs the kernel runs: GoNB,
// which compiles and runs cells, and goimports and gopls, which GoNB calls
// to fix imports and to answer completion and inspection.
package tools

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// A Tool is one pinned program.
type Tool struct {
	Name    string // the binary's name
	Package string // the package path of its main package
	Version string // the version of the module that holds it
}

// The pinned tools.
var (
	GoNB      = Tool{Name: "gonb", Package: "github.com/janpfeifer/gonb", Version: "v0.11.4"}
	GoImports = Tool{Name: "goimports", Package: "golang.org/x/tools/cmd/goimports", Version: "v0.36.0"}
	Gopls     = Tool{Name: "gopls", Package: "golang.org/x/tools/gopls", Version: "v0.20.0"}
)

// All lists the tools in the order they are built.
var All = []Tool{GoImports, Gopls, GoNB}

// Dir returns the directory the tools are installed in:
// $TENSORNB_HOME/bin, or bin under the user's data directory
// (~/.local/share/tensornb/bin).
func Dir() (string, error) {
	if home := os.Getenv("TENSORNB_HOME"); home != "" {
		return filepath.Join(home, "bin"), nil
	}
	data := os.Getenv("XDG_DATA_HOME")
	if data == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("no home directory to install into (set TENSORNB_HOME): %w", err)
		}
		data = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(data, "tensornb", "bin"), nil
}

// Path returns where t is installed in dir.
func (t Tool) Path(dir string) string { return filepath.Join(dir, t.Name) }

// stamp returns the file recording which version of t is in dir.
func (t Tool) stamp(dir string) string { return filepath.Join(dir, "."+t.Name+".version") }

// Files lists what Build writes in dir: t's binary and the file
// recording its version.
func (t Tool) Files(dir string) []string { return []string{t.Path(dir), t.stamp(dir)} }

// Installed reports whether t, at its pinned version, is in dir.
func (t Tool) Installed(dir string) bool {
	v, err := os.ReadFile(t.stamp(dir))
	if err != nil || strings.TrimSpace(string(v)) != t.Version {
		return false
	}
	_, err = os.Stat(t.Path(dir))
	return err == nil
}

// Build builds t at its pinned version into dir, unless it is there
// already, writing the go command's progress to log. It builds in a
// scratch module, since some tools cannot be installed with go install
// pkg@version (GoNB's deprecation notice makes the go command refuse).
func (t Tool) Build(dir string, log io.Writer) error {
	if t.Installed(dir) {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	scratch, err := os.MkdirTemp("", "tensornb-build-"+t.Name)
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	fmt.Fprintf(log, "building %s %s ...\n", t.Name, t.Version)
	// Build beside the target and rename, so that two builds at once (two
	// test packages, say) each leave a whole binary.
	f, err := os.CreateTemp(dir, "."+t.Name+".*.new")
	if err != nil {
		return err
	}
	built := f.Name()
	f.Close()
	steps := [][]string{
		{"go", "mod", "init", "tensornb.build/" + t.Name},
		{"go", "get", t.Package + "@" + t.Version},
		{"go", "build", "-o", built, t.Package},
	}
	for _, step := range steps {
		cmd := exec.Command(step[0], step[1:]...)
		cmd.Dir = scratch
		cmd.Stdout, cmd.Stderr = log, log
		if err := cmd.Run(); err != nil {
			os.Remove(built)
			return fmt.Errorf("building %s: %s failed: %w (is the Go module proxy reachable?)", t.Name, strings.Join(step, " "), err)
		}
	}
	if err := os.Rename(built, t.Path(dir)); err != nil {
		return err
	}
	stamp := built + ".version"
	if err := os.WriteFile(stamp, []byte(t.Version+"\n"), 0o644); err != nil {
		return err
	}
	return os.Rename(stamp, t.stamp(dir))
}

// BuildAll builds every tool missing from dir.
func BuildAll(dir string, log io.Writer) error {
	var errs []error
	for _, t := range All {
		if err := t.Build(dir, log); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// BuildForTests builds every tool missing from the directory the tests
// share, in the user's cache directory (a few minutes the first time), and
// returns that directory.
func BuildForTests(log io.Writer) (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "tensornb-test", "bin")
	return dir, BuildAll(dir, log)
}
