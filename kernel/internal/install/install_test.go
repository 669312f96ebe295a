package install

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

// An installation with no manifest, as tensornb 0.1.0 left one, or a
// TENSORNB_HOME that never held one: uninstall -purge has no record of
// what install created there, so it removes nothing from the home. It
// removes a kernelspec whose kernel.json tensornb wrote, but not a file of
// the user's beside it, nor another kernel's kernelspec.
func TestUninstallWithoutManifest(t *testing.T) {
	root := t.TempDir()
	l := Layout{Home: filepath.Join(root, "home"), Kernelspec: filepath.Join(root, "kernels", Name)}
	tensornbSpec := `{"argv": ["/x/bin/tensornb", "kernel", "{connection_file}"], "display_name": "Go (tensornb)", "language": "go", "metadata": {"tensornb_version": "0.1.0"}}`
	otherSpec := `{"argv": ["other-kernel", "{connection_file}"], "display_name": "Other", "language": "go"}`
	kept := map[string]string{
		filepath.Join(l.Home, "notes.txt"):                   "mine",
		filepath.Join(l.Home, "bin", "tensornb"):             "a binary",
		filepath.Join(l.Home, "src", "go.mod"):               "module mine",
		filepath.Join(l.Kernelspec, "NOTES.md"):              "mine",
		filepath.Join(l.CompiledKernelspec(), "kernel.json"): otherSpec,
	}
	removed := map[string]string{
		filepath.Join(l.Kernelspec, "kernel.json"):    tensornbSpec,
		filepath.Join(l.Kernelspec, "logo-64x64.png"): "png",
	}
	for _, files := range []map[string]string{kept, removed} {
		for path, content := range files {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}

	if err := Uninstall(l, true, io.Discard); err != nil {
		t.Fatal(err)
	}
	for path, content := range kept {
		if data, err := os.ReadFile(path); err != nil || string(data) != content {
			t.Errorf("%s was not kept: %v %q", path, err, data)
		}
	}
	for path := range removed {
		if _, err := os.Lstat(path); err == nil {
			t.Errorf("%s, tensornb's kernelspec, is still there", path)
		}
	}
}
