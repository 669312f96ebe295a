//go:build !js

package interp

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// goCalls puts on PATH a go command that records each run of the real
// one, and gives the user's cache directory, where listings are kept, a
// scratch one. It returns a
// function that counts the runs so far.
func goCalls(t *testing.T) func() int {
	t.Helper()
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
	// The go command's build cache stays where it is: by default it is
	// in the user's cache directory too.
	gocache, err := exec.Command(real, "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOCACHE", strings.TrimSpace(string(gocache)))
	t.Setenv("PATH", shims+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	return func() int {
		data, err := os.ReadFile(calls)
		if os.IsNotExist(err) {
			return 0
		} else if err != nil {
			t.Fatal(err)
		}
		return strings.Count(string(data), "\n")
	}
}

// TestWarmListsOnce checks that a session's warm-up runs the go command
// once for the export data of all the packages it imports (each run
// costs about 0.15 s of CPU, and a class starts 20 workers at once), that
// a first cell importing them runs it no more, and that the next
// session's warm-up does not run it at all: it reads the listing the
// first kept.
func TestWarmListsOnce(t *testing.T) {
	calls := goCalls(t)
	const cell = "import (\n\t\"fmt\"\n\t\"github.com/tensornb/tensornb/display\"\n\t\"github.com/tensornb/tensornb/tensor\"\n)\nx := tensor.Arange(6)\nfmt.Println(x)\ndisplay.Show(display.Layout(x))"
	for i, want := range []int{1, 1} {
		s, _ := newSession(t)
		s.Warm()
		s.Ready()
		run(t, s, cell)
		if n := calls(); n != want {
			t.Errorf("session %d: the go command has run %d times for the warm-ups and first cells of the sessions so far, want %d", i+1, n, want)
		}
	}
}
