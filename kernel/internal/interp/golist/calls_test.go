package golist

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

// GoCalls is goCalls, for the tests of package golist_test.
var GoCalls = goCalls
