//go:build !js

package interp

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestWarmListsOnce checks that a session's warm-up runs the go command
// once for the export data of all the packages it imports (each run
// costs about a tenth of a second of CPU, and a class starts 20 workers
// at once), and that a first cell importing them runs it no more.
func TestWarmListsOnce(t *testing.T) {
	real, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	shims := t.TempDir()
	calls := filepath.Join(shims, "calls")
	shim := "#!/bin/sh\necho \"$*\" >> '" + calls + "'\nexec '" + real + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(shims, "go"), []byte(shim), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", shims+string(os.PathListSeparator)+os.Getenv("PATH"))
	s, _ := newSession(t)
	s.Warm()
	s.Ready()
	run(t, s, "import (\n\t\"fmt\"\n\t\"github.com/tensornb/tensornb/display\"\n\t\"github.com/tensornb/tensornb/tensor\"\n)\nx := tensor.Arange(6)\nfmt.Println(x)\ndisplay.Show(display.Layout(x))")
	data, err := os.ReadFile(calls)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 1 {
		t.Errorf("the go command ran %d times for the warm-up and a first cell of its packages, want once:\n%s", len(lines), data)
	}
}
