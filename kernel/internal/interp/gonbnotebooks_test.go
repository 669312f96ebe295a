package interp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/tensornb/tensornb/internal/displaysink"
	"github.com/tensornb/tensornb/kernel/internal/interp"
	"github.com/tensornb/tensornb/kernel/internal/interp/worker"
)

// gonbSkipped are the cells of GoNB's test notebooks that the instant
// engine does not run as GoNB does, by notebook and cell number (from 1),
// with why.
var gonbSkipped = map[string]map[int]string{
	"hello":     {1: "%goflags: a flag of go build, which the dual engine sends to GoNB"},
	"functions": {1: "%goflags"},
	"gonbui":    {1: "%goflags", 2: "a shell line that asks for GONB_GIT_ROOT, a checkout of GoNB's repository", 3: "!* and %goworkfix, which use that checkout"},
	"init":      {1: "%goflags"},
}

// A notebook cell, as far as the test reads it.
type nbCell struct {
	CellType string `json:"cell_type"`
	Source   []string
	Outputs  []struct {
		OutputType string `json:"output_type"`
		Text       []string
		Data       map[string]any
	}
}

// GoNB's test notebooks, from its module at the version go.mod requires,
// run cell by cell on the instant engine: each cell prints what it
// printed on GoNB (standard output and error together), and shows the
// same HTML, a blank variable's name aside, which GoNB makes at random.
func TestGoNBNotebooks(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/janpfeifer/gonb").Output()
	if err != nil {
		t.Fatalf("GoNB's module, which go.mod requires: %v", err)
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "examples", "tests")
	for _, name := range []string{"hello", "functions", "vartuple", "init", "gonbui"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, name+".ipynb"))
			if err != nil {
				t.Fatal(err)
			}
			var nb struct{ Cells []nbCell }
			if err := json.Unmarshal(data, &nb); err != nil {
				t.Fatal(err)
			}
			runGoNBNotebook(t, name, nb.Cells)
		})
	}
}

// blankName is the name %list gives a blank variable: GoNB's is random.
var blankName = regexp.MustCompile(`_~\d+`)

func runGoNBNotebook(t *testing.T, name string, cells []nbCell) {
	var printed bytes.Buffer
	var mu sync.Mutex
	var shown []map[string]string
	displaysink.Set(func(b map[string]string, _ string, _ bool) error {
		mu.Lock()
		defer mu.Unlock()
		b = maps.Clone(b)
		for mime, data := range b {
			b[mime] = blankName.ReplaceAllString(data, "_~N")
		}
		shown = append(shown, b)
		return nil
	})
	t.Cleanup(func() { displaysink.Set(nil) })
	s, err := interp.Open(worker.Host("../../.."), &printed, &printed, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range cells {
		if c.CellType != "code" {
			continue
		}
		n++
		code := strings.Join(c.Source, "")
		if why, ok := gonbSkipped[name][n]; ok {
			t.Logf("cell %d skipped: %s", n, why)
			continue
		}
		printed.Reset()
		shown = nil
		if err := s.Run(context.Background(), code); err != nil {
			t.Errorf("cell %d %q: %v", n, code, err)
			continue
		}
		var wantText strings.Builder
		var wantShown []map[string]string
		for _, o := range c.Outputs {
			switch o.OutputType {
			case "stream":
				wantText.WriteString(strings.Join(o.Text, ""))
			case "display_data":
				want := map[string]string{}
				for mime, data := range o.Data {
					want[mime] = blankName.ReplaceAllString(joined(data), "_~N")
				}
				wantShown = append(wantShown, want)
			}
		}
		if got := printed.String(); got != wantText.String() {
			t.Errorf("cell %d %q printed %q, GoNB %q", n, code, got, wantText.String())
		}
		// The forms GoNB showed; the engine may show others besides.
		for i, want := range wantShown {
			if i < len(shown) {
				for mime := range shown[i] {
					if _, ok := want[mime]; !ok {
						delete(shown[i], mime)
					}
				}
			}
		}
		if fmt.Sprint(shown) != fmt.Sprint(wantShown) {
			t.Errorf("cell %d %q showed %q, GoNB %q", n, code, shown, wantShown)
		}
	}
}

// joined is a notebook's multi-line string, a list of lines or one string.
func joined(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []any:
		var b strings.Builder
		for _, l := range v {
			fmt.Fprint(&b, l)
		}
		return b.String()
	}
	return ""
}
