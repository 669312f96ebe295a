package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/tensornb/tensornb/kernel/internal/install"
)

// listingCommands are the ways to ask Jupyter for its kernelspecs, in the
// order tried: not every machine has all of them (Debian's jupyter has no
// kernelspec subcommand, and no jupyter-kernelspec).
var listingCommands = [][]string{
	{"jupyter", "kernelspec", "list"},
	{"jupyter-kernelspec", "list"},
	{"python3", "-m", "jupyter_client.kernelspecapp", "list"},
	{"/usr/bin/python3", "-m", "jupyter_client.kernelspecapp", "list"},
}

// installedMessage says where the kernel was installed and gives a
// command that lists it on this machine: the first of listingCommands that
// works here, with JUPYTER_PATH set if Jupyter does not look in the
// installation's directory by itself.
func installedMessage(l install.Layout) string {
	jupyterPath := filepath.Dir(filepath.Dir(l.Kernelspec)) // .../share/jupyter
	for _, argv := range listingCommands {
		if lists(argv, nil, l.Kernelspec) {
			return "installed " + install.DisplayName + " and " + install.CompiledDisplayName + ": `" + strings.Join(argv, " ") + "` lists them as " + install.Name + " and " + install.CompiledName + "\n"
		}
		if lists(argv, []string{"JUPYTER_PATH=" + jupyterPath}, l.Kernelspec) {
			return "installed " + install.DisplayName + " and " + install.CompiledDisplayName + " in " + jupyterPath + ", where Jupyter does not look by itself: run Jupyter with JUPYTER_PATH=" + jupyterPath +
				" (`JUPYTER_PATH=" + jupyterPath + " " + strings.Join(argv, " ") + "` lists them as " + install.Name + " and " + install.CompiledName + ")\n"
		}
	}
	return "installed " + install.DisplayName + " and " + install.CompiledDisplayName + " in " + l.Kernelspec + " and beside it; no Jupyter was found on this machine to list them (install Jupyter, e.g. Debian's jupyter-notebook package)\n"
}

// lists reports whether argv runs, with env added to the environment, and
// lists the tensornb kernelspec at dir (another tensornb, say one in the
// user's own Jupyter directory, does not count: the message is about this
// installation).
func lists(argv, env []string, dir string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == install.Name && sameDir(f[1], dir) {
			return true
		}
	}
	return false
}

// sameDir reports whether a and b name the same directory, following
// symbolic links (Jupyter prints the paths it resolved).
func sameDir(a, b string) bool {
	ra, errA := filepath.EvalSymlinks(a)
	rb, errB := filepath.EvalSymlinks(b)
	if errA != nil || errB != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return ra == rb
}
