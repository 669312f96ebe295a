// Package install puts the tensornb kernel where Jupyter finds it: the
// kernelspec, the pinned tools it runs, the module source its cells
// import, and a Go build cache warm enough that the first cell is quick.
package install

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/tensornb/tensornb"
	"github.com/tensornb/tensornb/kernel/internal/atomicfile"
	"github.com/tensornb/tensornb/kernel/internal/tools"
)

// Install builds or finds the pinned tools, copies the running tensornb
// binary and the module source into l.Home, warms the build cache with
// warm (which runs a first cell on the installed engines), and writes the
// kernelspecs. It reports progress to log.
//
// It records what it creates in the manifest (ManifestName) in l.Home,
// and overwrites or removes nothing else: if it would have to, it changes
// nothing and says which files are in the way.
func Install(l Layout, warm func(Layout, io.Writer) error, log io.Writer) error {
	m, err := readManifest(l)
	if err != nil {
		return err
	}
	l = m.l
	if err := m.conflicts(); err != nil {
		return err
	}
	if err := m.mkdirAll(l.Home); err != nil {
		return err
	}
	if err := m.save(); err != nil {
		return err
	}
	step := func(format string, args ...any) { fmt.Fprintf(log, "==> "+format+"\n", args...) }

	step("tools (gonb, goimports, gopls) in %s", l.Bin())
	if err := buildTools(m, log); err != nil {
		return err
	}

	step("the tensornb command in %s", l.Binary())
	if err := copySelf(m, l.Binary()); err != nil {
		return err
	}

	step("the tensor, display, check and widget source, version %s, in %s", tensornb.Version, l.Source())
	if err := writeSource(m, l.Source()); err != nil {
		return err
	}
	download := exec.Command("go", "mod", "download")
	download.Dir = l.Source()
	download.Stdout, download.Stderr = log, log
	if err := download.Run(); err != nil {
		return fmt.Errorf("downloading the modules tensornb needs (go mod download in %s): %w", l.Source(), err)
	}

	step("a first cell on each engine, to warm Go's build cache")
	start := time.Now()
	if err := warm(l, log); err != nil {
		return err
	}
	fmt.Fprintf(log, "    done in %.1f s\n", time.Since(start).Seconds())

	step("the kernelspecs %q in %s and %q in %s", DisplayName, l.Kernelspec, CompiledDisplayName, l.CompiledKernelspec())
	if err := writeKernelspec(m, l.Kernelspec, DisplayName, l.Binary(), "kernel", "{connection_file}"); err != nil {
		return err
	}
	return writeKernelspec(m, l.CompiledKernelspec(), CompiledDisplayName, l.Binary(), "kernel", "-engine", "gonb", "{connection_file}")
}

// Uninstall removes the kernelspecs, and with purge the rest of what
// install created in l.Home: only what the manifest records (and the
// files of a kernelspec whose kernel.json a tensornb wrote), so the
// user's files in those directories stay. It says on log what it kept.
func Uninstall(l Layout, purge bool, log io.Writer) error {
	m, err := readManifest(l)
	if err != nil {
		return err
	}
	l = m.l
	roots := l.kernelspecs()
	if purge {
		roots = append(roots, l.Home)
	}
	// What is in the roots, and the directories install made above them
	// (removed only when empty).
	match := func(path string) bool {
		return slices.ContainsFunc(roots, func(root string) bool { return within(path, root) || within(root, path) })
	}
	if err := m.remove(match); err != nil {
		return err
	}
	if purge {
		if err := os.Remove(m.file()); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		// The home and the directories above it, now that the manifest
		// has left them.
		if err := m.remove(match); err != nil {
			return err
		}
	} else if m.found {
		if err := m.save(); err != nil {
			return err
		}
	}
	for _, dir := range roots {
		left := leftovers(dir)
		switch {
		case len(left) == 0:
		case dir == l.Home && !m.found:
			fmt.Fprintf(log, "kept %s: it has no %s recording what tensornb install created there (tensornb 0.1.0 wrote none), so -purge removed nothing from it; delete what is tensornb's in it yourself\n", dir, ManifestName)
		default:
			fmt.Fprintf(log, "kept %s: tensornb install did not create what is left in it (%s)\n", dir, strings.Join(left, ", "))
		}
	}
	return nil
}

// buildTools builds, into l.Bin(), the tools it lacks at their pinned
// versions, recording their files.
func buildTools(m *manifest, log io.Writer) error {
	bin := m.l.Bin()
	if err := m.mkdirAll(bin); err != nil {
		return err
	}
	var errs []error
	for _, t := range tools.All {
		if t.Installed(bin) {
			continue
		}
		for _, path := range t.Files(bin) {
			if err := m.add(path); err != nil {
				return err
			}
		}
		if err := t.Build(bin, log); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// copySelf copies the running executable to path, so that the kernelspec
// names a binary that stays (not one `go run` made in a temporary
// directory).
func copySelf(m *manifest, path string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	if same, _ := filepath.EvalSymlinks(self); same == path {
		return nil
	}
	data, err := os.ReadFile(self)
	if err != nil {
		return err
	}
	if err := m.mkdirAll(filepath.Dir(path)); err != nil {
		return err
	}
	if err := m.add(path); err != nil {
		return err
	}
	// Write beside path and rename: a kernel may be running the old
	// binary, which cannot be written over.
	return atomicfile.Write(path, data, 0o755)
}

// writeSource writes the module source embedded in the binary into dir,
// after removing the files an earlier install recorded there that this
// version does not have.
func writeSource(m *manifest, dir string) error {
	want := map[string]bool{}
	err := fs.WalkDir(tensornb.Source, ".", func(path string, d fs.DirEntry, err error) error {
		want[filepath.Join(dir, path)] = true
		return err
	})
	if err != nil {
		return err
	}
	if err := m.remove(func(path string) bool { return within(path, dir) && !want[path] }); err != nil {
		return err
	}
	return fs.WalkDir(tensornb.Source, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		target := filepath.Join(dir, path)
		if d.IsDir() {
			return m.mkdirAll(target)
		}
		data, err := tensornb.Source.ReadFile(path)
		if err != nil {
			return err
		}
		return m.writeFile(target, data, 0o644)
	})
}
