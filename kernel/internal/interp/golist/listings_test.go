package golist

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestListingKept checks the listing file that spares a worker's start
// the go command: it is read while it holds, and the go command runs
// again when a source file changed, when the GO* environment differs, and
// when an export file is not as it was.
func TestListingKept(t *testing.T) {
	calls := goCalls(t)
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module scratch\n\ngo 1.22\n")
	write("p/p.go", "package p\n\nimport \"fmt\"\n\nfunc P() { fmt.Println() }\n")
	list := func(want int, env []string) []ListedPackage {
		t.Helper()
		listed, err := listDeps(dir, env, "scratch/p")
		if err != nil {
			t.Fatal(err)
		}
		if n := calls(); n != want {
			t.Fatalf("the go command has run %d times, want %d", n, want)
		}
		if last := listed[len(listed)-1]; last.ImportPath != "scratch/p" || last.Export == "" || last.Standard {
			t.Fatalf("the last package listed is %+v, want scratch/p with its export data", last)
		}
		return listed
	}
	first := list(1, nil)
	if again := list(1, nil); !reflect.DeepEqual(again, first) {
		t.Errorf("the listing read back differs from the go command's:\n%+v\n%+v", again, first)
	}

	write("p/p.go", "package p\n\nimport \"fmt\"\n\nfunc P() { fmt.Println() }\n\nfunc Q() {}\n")
	changed := list(2, nil)
	if changed[len(changed)-1].Export == first[len(first)-1].Export {
		t.Errorf("after p.go changed, its export data is the same file %s", first[len(first)-1].Export)
	}
	list(2, nil)

	list(3, append(os.Environ(), "GOFLAGS=-tags=other"))

	file := listingFile(dir, nil, []string{"scratch/p"})
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var l listing
	if err := json.Unmarshal(data, &l); err != nil {
		t.Fatal(err)
	}
	for i := range l.Stamps {
		if l.Stamps[i].ModTime == 0 { // an export file
			l.Stamps[i].Size++
			break
		}
	}
	data, _ = json.Marshal(l)
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	list(4, nil)
	list(4, nil)
}
