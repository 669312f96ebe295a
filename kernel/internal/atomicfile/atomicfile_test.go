package atomicfile_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tensornb/tensornb/kernel/internal/atomicfile"
)

// TestWrite writes a file, replaces it, and fails in a directory that
// does not exist; nothing but the file is left beside it.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	for _, c := range []struct {
		data string
		perm os.FileMode
	}{{"first", 0o644}, {"second, longer", 0o755}} {
		if err := atomicfile.Write(path, []byte(c.data), c.perm); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != c.data {
			t.Fatalf("read %q (%v), want %q", got, err, c.data)
		}
		if info, _ := os.Stat(path); info.Mode().Perm() != c.perm {
			t.Errorf("mode %v, want %v", info.Mode().Perm(), c.perm)
		}
	}
	if err := atomicfile.Write(filepath.Join(dir, "missing", "f"), []byte("x"), 0o644); err == nil {
		t.Error("no error writing into a directory that does not exist")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the directory holds %d entries, want only f: %v", len(entries), entries)
	}
}

func ExampleWrite() {
	path := filepath.Join(os.TempDir(), "atomicfile-example.txt")
	defer os.Remove(path)
	if err := atomicfile.Write(path, []byte("whole or not at all\n"), 0o644); err != nil {
		panic(err)
	}
	data, _ := os.ReadFile(path)
	os.Stdout.Write(data)
	// Output: whole or not at all
}
