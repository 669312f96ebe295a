package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/kernel/internal/install"
	"github.com/tensornb/tensornb/kernel/internal/jupytertest"
)

// These tests install into directories that already hold the user's
// files: tensornb install and uninstall must remove nothing they did not
// create. The pinned tools are seeded into bin from the test cache, so
// the installer finds them rather than building them; it did not create
// them either.

// scratchUser is a per-user installation in scratch directories: its
// TENSORNB_HOME and JUPYTER_DATA_DIR.
type scratchUser struct {
	binary, home, data string
}

func newScratchUser(t *testing.T) *scratchUser {
	t.Helper()
	u := &scratchUser{binary: jupytertest.Command(t), home: t.TempDir(), data: t.TempDir()}
	jupytertest.SeedTools(t, filepath.Join(u.home, "bin"))
	return u
}

// run runs the tensornb command with args for this user and returns its
// output.
func (u *scratchUser) run(args ...string) (string, error) {
	cmd := exec.Command(u.binary, args...)
	cmd.Env = append(os.Environ(), "TENSORNB_HOME="+u.home, "JUPYTER_DATA_DIR="+u.data)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (u *scratchUser) kernelspec() string { return filepath.Join(u.data, "kernels", install.Name) }
func (u *scratchUser) compiledKernelspec() string {
	return filepath.Join(u.data, "kernels", install.CompiledName)
}

// writeFiles writes each file of files (path: content), making its
// directory.
func writeFiles(t *testing.T, files map[string]string) {
	t.Helper()
	for path, content := range files {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// checkKept fails the test unless each file of files is there with its
// content.
func checkKept(t *testing.T, when string, files map[string]string) {
	t.Helper()
	for path, content := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: the user's file is gone: %v", when, err)
		} else if string(data) != content {
			t.Errorf("%s: the user's %s was changed to %q", when, path, data)
		}
	}
}

// checkGone fails the test if any of paths is still there.
func checkGone(t *testing.T, when string, paths ...string) {
	t.Helper()
	for _, path := range paths {
		if _, err := os.Lstat(path); err == nil {
			t.Errorf("%s: %s is still there", when, path)
		}
	}
}

// checkThere fails the test unless each of paths is there.
func checkThere(t *testing.T, when string, paths ...string) {
	t.Helper()
	for _, path := range paths {
		if _, err := os.Lstat(path); err != nil {
			t.Errorf("%s: %v", when, err)
		}
	}
}

// An install into a TENSORNB_HOME that holds the user's files refuses to
// touch a file in src, where it writes the module source, and says what
// to do; once that file is moved, it installs and keeps every user file.
func TestInstallKeepsUserFilesInHome(t *testing.T) {
	u := newScratchUser(t)
	inSource := filepath.Join(u.home, "src", "mine.go")
	user := map[string]string{
		filepath.Join(u.home, "notes.txt"):     "my notes\n",
		inSource:                               "package mine\n",
		filepath.Join(u.home, "bin", "mytool"): "#!/bin/sh\necho mine\n",
	}
	writeFiles(t, user)

	out, err := u.run("install")
	if err == nil {
		t.Errorf("install into a home whose src holds a user file succeeded:\n%s", out)
	} else if !strings.Contains(out, inSource) || !strings.Contains(out, "TENSORNB_HOME") {
		t.Errorf("the refusal does not name %s and say to move it or set TENSORNB_HOME:\n%s", inSource, out)
	}
	checkKept(t, "after the refused install", user)
	checkGone(t, "after the refused install", filepath.Join(u.home, "bin", "tensornb"), filepath.Join(u.home, "src", "go.mod"), u.kernelspec())
	if t.Failed() {
		return
	}

	// The user does what the message says.
	moved := filepath.Join(u.home, "mine.go")
	if err := os.Rename(inSource, moved); err != nil {
		t.Fatal(err)
	}
	delete(user, inSource)
	user[moved] = "package mine\n"
	if out, err := u.run("install"); err != nil {
		t.Fatalf("install: %v\n%s", err, out)
	}
	checkKept(t, "after install", user)
	checkThere(t, "after install", filepath.Join(u.home, "bin", "tensornb"), filepath.Join(u.home, "src", "go.mod"), filepath.Join(u.kernelspec(), "kernel.json"))
}

// Reinstalling over an installation (an upgrade) works, removes the files
// the earlier install recorded and no longer needs, refuses to touch a
// file the user put in src, and keeps the user's files.
func TestReinstallKeepsUserFiles(t *testing.T) {
	u := newScratchUser(t)
	user := map[string]string{filepath.Join(u.home, "notes.txt"): "my notes\n"}
	writeFiles(t, user)
	if out, err := u.run("install"); err != nil {
		t.Fatalf("install: %v\n%s", err, out)
	}

	scratch := filepath.Join(u.home, "src", "tensor", "scratch.go")
	writeFiles(t, map[string]string{scratch: "package tensor\n"})
	out, err := u.run("install")
	if err == nil {
		t.Errorf("reinstall over a user file in src succeeded:\n%s", out)
	} else if !strings.Contains(out, scratch) {
		t.Errorf("the refusal does not name %s:\n%s", scratch, out)
	}
	checkKept(t, "after the refused reinstall", map[string]string{scratch: "package tensor\n"})
	checkThere(t, "after the refused reinstall", filepath.Join(u.home, "bin", "tensornb"), filepath.Join(u.home, "src", "go.mod"), filepath.Join(u.kernelspec(), "kernel.json"))
	if err := os.Rename(scratch, filepath.Join(u.home, "scratch.go")); err != nil {
		t.Fatal(err)
	}
	user[filepath.Join(u.home, "scratch.go")] = "package tensor\n"

	// A file an older version installed, and this one does not: the
	// manifest lists it, so the upgrade removes it.
	old := filepath.Join(u.home, "src", "tensor", "old.go")
	writeFiles(t, map[string]string{old: "package tensor\n"})
	manifest := filepath.Join(u.home, install.ManifestName)
	f, err := os.OpenFile(manifest, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatalf("no manifest after install: %v", err)
	}
	if _, err := f.WriteString(old + "\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()

	if out, err := u.run("install"); err != nil {
		t.Fatalf("reinstall: %v\n%s", err, out)
	}
	checkKept(t, "after reinstall", user)
	checkGone(t, "after reinstall", old)
	checkThere(t, "after reinstall", filepath.Join(u.home, "bin", "tensornb"), filepath.Join(u.home, "src", "go.mod"), filepath.Join(u.kernelspec(), "kernel.json"), filepath.Join(u.compiledKernelspec(), "kernel.json"))
}

// uninstall -purge removes what install created, in the home and the
// kernelspec directories of a -prefix installation, and keeps everything
// else: the user's files there, and the tools install found rather than
// built.
func TestUninstallPurgeKeepsUserFiles(t *testing.T) {
	binary := jupytertest.Command(t)
	prefix := t.TempDir()
	l := install.PrefixLayout(prefix)
	jupytertest.SeedTools(t, l.Bin())
	user := map[string]string{
		filepath.Join(l.Home, "notes.txt"):         "my notes\n",
		filepath.Join(l.Bin(), "mytool"):           "#!/bin/sh\necho mine\n",
		filepath.Join(l.Kernelspec, "README.txt"):  "my notes on this kernel\n",
		filepath.Join(prefix, "share", "mine.txt"): "mine\n",
	}
	writeFiles(t, user)
	if out, err := exec.Command(binary, "install", "-prefix", prefix).CombinedOutput(); err != nil {
		t.Fatalf("install: %v\n%s", err, out)
	}
	checkKept(t, "after install", user)
	later := filepath.Join(l.Home, "later.txt") // written after install
	user[later] = "written after install\n"
	writeFiles(t, map[string]string{later: user[later]})

	out, err := exec.Command(binary, "uninstall", "-prefix", prefix, "-purge").CombinedOutput()
	if err != nil {
		t.Fatalf("uninstall -purge: %v\n%s", err, out)
	}
	checkKept(t, "after uninstall -purge", user)
	checkThere(t, "after uninstall -purge", filepath.Join(l.Bin(), "gonb"), filepath.Join(l.Bin(), ".gonb.version"))
	checkGone(t, "after uninstall -purge", l.Binary(), l.Source(), filepath.Join(l.Home, install.ManifestName),
		filepath.Join(l.Kernelspec, "kernel.json"), filepath.Join(l.Kernelspec, "logo-64x64.png"), l.CompiledKernelspec())
	if !strings.Contains(string(out), l.Home) {
		t.Errorf("uninstall -purge does not say it kept %s:\n%s", l.Home, out)
	}
}

// A kernelspec directory that an earlier tensornb wrote is replaced, and
// a file of the user's in it is kept, through install and uninstall; one
// that holds another kernel's kernel.json is refused.
func TestKernelspecKeepsForeignFile(t *testing.T) {
	u := newScratchUser(t)
	earlier := `{"argv": ["/old/bin/tensornb", "kernel", "{connection_file}"], "display_name": "Go (tensornb)", "language": "go", "metadata": {"tensornb_version": "0.0.1"}}`
	other := `{"argv": ["python3", "-m", "ipykernel_launcher", "-f", "{connection_file}"], "display_name": "Not tensornb", "language": "python"}`
	foreign := filepath.Join(u.compiledKernelspec(), "kernel.json")
	user := map[string]string{
		filepath.Join(u.kernelspec(), "NOTES.md"): "my notes\n",
		foreign: other,
	}
	writeFiles(t, user)
	writeFiles(t, map[string]string{filepath.Join(u.kernelspec(), "kernel.json"): earlier})

	out, err := u.run("install")
	if err == nil {
		t.Errorf("install over another kernel's kernel.json succeeded:\n%s", out)
	} else if !strings.Contains(out, foreign) {
		t.Errorf("the refusal does not name %s:\n%s", foreign, out)
	}
	checkKept(t, "after the refused install", user)
	if t.Failed() {
		return
	}

	if err := os.Remove(foreign); err != nil {
		t.Fatal(err)
	}
	delete(user, foreign)
	if out, err := u.run("install"); err != nil {
		t.Fatalf("install: %v\n%s", err, out)
	}
	checkKept(t, "after install", user)
	spec, err := os.ReadFile(filepath.Join(u.kernelspec(), "kernel.json"))
	if err != nil || !strings.Contains(string(spec), filepath.Join(u.home, "bin", "tensornb")) {
		t.Errorf("install did not replace the earlier kernel.json: %v\n%s", err, spec)
	}

	if out, err := u.run("uninstall"); err != nil {
		t.Fatalf("uninstall: %v\n%s", err, out)
	}
	checkKept(t, "after uninstall", user)
	checkGone(t, "after uninstall", filepath.Join(u.kernelspec(), "kernel.json"), filepath.Join(u.kernelspec(), "logo-svg.svg"), u.compiledKernelspec())
	checkThere(t, "after uninstall", filepath.Join(u.home, "bin", "tensornb"), filepath.Join(u.home, "src", "go.mod"))
}
