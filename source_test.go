package tensornb

import (
	"io/fs"
	"os/exec"
	"path"
	"strings"
	"testing"
)

// Source holds every package of this module that the packages cells
// import need to build: a package left out makes every compiled cell of
// an installation fail with "go get" errors.
func TestSourceHoldsWhatCellsImport(t *testing.T) {
	const module = "github.com/tensornb/tensornb"
	roots := []string{module + "/tensor", module + "/display", module + "/kernel/gonb/cellpanic"}
	out, err := exec.Command("go", append([]string{"list", "-deps", "-f", "{{.ImportPath}}"}, roots...)...).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		dir, ok := strings.CutPrefix(pkg, module+"/")
		if !ok {
			continue
		}
		files, err := fs.Glob(Source, path.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Errorf("Source lacks %s, which cells need (add it to the go:embed line)", pkg)
		}
	}
}
