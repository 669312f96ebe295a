package golist

import (
	"go/token"
	"testing"

	"github.com/tensornb/tensornb/kernel/internal/tools"
)

// A package used without an import is found by its name among the
// packages of the module graph's modules, unless it is not the only one
// of that name or a standard package has it; a module tensornb requires
// is fetched at the version the graph has.
func TestNamedAndVersions(t *testing.T) {
	e := New(token.NewFileSet(), "../../../..", nil)
	for name, want := range map[string]string{
		"constraints": "golang.org/x/exp/constraints",
		"gonbui":      "github.com/janpfeifer/gonb/gonbui",
		"rand":        "", // math/rand, crypto/rand: golang.org/x/exp/rand is never guessed
		"severity":    "", // klog's, the only one, is internal
		"nosuchname":  "",
	} {
		if got := e.Named(name); got != want {
			t.Errorf("Named(%q) = %q, want %q", name, got, want)
		}
	}
	if got := e.versionOf("github.com/janpfeifer/gonb/gonbui/plotly"); got != tools.GoNB.Version {
		t.Errorf("the version of GoNB's gonbui/plotly is %q, want %s, go.mod's", got, tools.GoNB.Version)
	}
	if got := e.versionOf("example.com/elsewhere"); got != "" {
		t.Errorf("a module outside the graph has version %q", got)
	}
}
