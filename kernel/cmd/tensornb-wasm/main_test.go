//go:build !js

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The command builds for js/wasm into a WebAssembly module (the browser
// test in kernel/internal/browser runs it).
func TestBuildsForWasm(t *testing.T) {
	out := filepath.Join(t.TempDir(), "tensornb.wasm")
	cmd := exec.Command("go", "build", "-trimpath", "-o", out, ".")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build for js/wasm: %v\n%s", err, msg)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte("\x00asm")) {
		t.Fatalf("the build is not a WebAssembly module: it begins %q", data[:min(8, len(data))])
	}
}
