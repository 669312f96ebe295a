package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/kernel/internal/install"
	"github.com/tensornb/tensornb/kernel/internal/jupytertest"
)

// The command the install message gives works on this machine: run as
// printed, it lists the kernelspecs (Debian's jupyter has no kernelspec
// subcommand, so the message must not name it there). Another tensornb in
// the user's own Jupyter directory does not make the prefix's visible.
func TestInstalledMessageGivesAWorkingCommand(t *testing.T) {
	jupytertest.Require(t, "jupyter_client")
	env := jupytertest.Install(t)
	jupyterPath := jupytertest.JupyterPath(env)
	t.Setenv("JUPYTER_PATH", "") // as on a machine where nothing points Jupyter at the prefix
	decoy := t.TempDir()         // as on a machine where tensornb was installed for the user before
	t.Setenv("JUPYTER_DATA_DIR", decoy)
	spec := filepath.Join(decoy, "kernels", install.Name)
	if err := os.MkdirAll(spec, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(spec, "kernel.json"), []byte(`{"argv": ["true"], "display_name": "an older tensornb", "language": "go"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	msg := installedMessage(install.PrefixLayout(filepath.Dir(filepath.Dir(jupyterPath))))
	m := regexp.MustCompile("`([^`]+)`").FindStringSubmatch(msg)
	if m == nil {
		t.Fatalf("no command in %q", msg)
	}
	if !strings.Contains(m[1], "JUPYTER_PATH="+jupyterPath) {
		t.Errorf("the message does not say to point JUPYTER_PATH at the prefix: %q", msg)
	}
	out, err := exec.Command("sh", "-c", m[1]).CombinedOutput()
	if err != nil || !strings.Contains(string(out), install.Name) || !strings.Contains(string(out), install.CompiledName) {
		t.Fatalf("%s: %v\n%s", m[1], err, out)
	}
}
