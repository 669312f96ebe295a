package tensornb

import (
	"io/fs"
	"os/exec"
	"path"
	"strings"
	"testing"
)

// Source holds every file of this module's packages that the packages
// cells import need to build (Go and assembly): a package left out makes
// every compiled cell of an installation fail with "go get" errors, and a
// file left out with a build error.
func TestSourceHoldsWhatCellsImport(t *testing.T) {
	const module = "github.com/tensornb/tensornb"
	roots := []string{module + "/tensor", module + "/display", module + "/check", module + "/widget", module + "/kernel/cellpanic", module + "/kernel/cellstream"}
	format := `{{.ImportPath}} {{join .GoFiles " "}} {{join .SFiles " "}} {{join .EmbedFiles " "}}`
	out, err := exec.Command("go", append([]string{"list", "-deps", "-f", format}, roots...)...).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		dir, ok := strings.CutPrefix(fields[0], module+"/")
		if !ok {
			continue
		}
		for _, file := range fields[1:] {
			if _, err := fs.Stat(Source, path.Join(dir, file)); err != nil {
				t.Errorf("Source lacks %s/%s, which cells need (add it to the go:embed line)", dir, file)
			}
		}
	}
}
