package interp_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/kernel/internal/front"
	"github.com/tensornb/tensornb/kernel/internal/interp"
	"github.com/tensornb/tensornb/kernel/internal/interp/worker"
)

// runPrinted runs a cell and returns what it printed, to standard output
// and standard error together.
func runPrinted(t *testing.T, s *interp.Session, out *bytes.Buffer, code string) string {
	t.Helper()
	out.Reset()
	if err := s.Run(context.Background(), code); err != nil {
		t.Fatalf("cell %q: %v", code, err)
	}
	return out.String()
}

// refusal runs a cell the session must refuse and returns its message.
func refusal(t *testing.T, s *interp.Session, code string) string {
	t.Helper()
	err := s.Run(context.Background(), code)
	var ce *front.CellError
	if !errors.As(err, &ce) || ce.Name != "Unsupported" {
		t.Fatalf("cell %q: got %v, want it refused", code, err)
	}
	return ce.Value
}

// The packages of the modules tensornb requires that the interpreter
// does not have compiled in are interpreted from their source: GoNB's
// tutorial's constraints, used without an import as GoNB's goimports
// allows, and its cache package, generic, with what it uses of
// github.com/pkg/errors. What cannot run is refused, naming what the
// interpreter lacks; so is another module's internal package.
func TestModulePackagesFromSource(t *testing.T) {
	var out bytes.Buffer
	s, err := interp.Open(worker.Host("../../.."), &out, &out, nil)
	if err != nil {
		t.Fatal(err)
	}
	runPrinted(t, s, &out, "func incr[T interface{constraints.Float|constraints.Integer}](x T) T {\n\treturn x+T(1)\n}")
	if got, want := runPrinted(t, s, &out, "%%\nx := incr(1)\ny := incr(math.Pi)\nfmt.Printf(\"incr: x=%d, y=%.2f\\n\", x, y)"), "incr: x=2, y=4.14\n"; got != want {
		t.Errorf("incr printed %q, want %q", got, want)
	}
	cell := `import "github.com/janpfeifer/gonb/cache"

var calls int

func expensive() int {
	calls++
	return 42
}

store := cache.MustNew(` + "`" + t.TempDir() + "`" + `)
a := cache.CacheWith(store, "answer", expensive)
b := cache.CacheWith(store, "answer", expensive)
fmt.Println(a, b, calls)
_, err := cache.New("/dev/null/none")
fmt.Println(err != nil)`
	// The first cell with statements outside a function says that the
	// session keeps its variables from now on, since %% ran a program.
	if got, want := runPrinted(t, s, &out, cell), "42 42 1\ntrue\n"; !strings.HasPrefix(got, "Note: this cell runs statements outside a function") || !strings.HasSuffix(got, "\n"+want) {
		t.Errorf("the cache cell printed %q, want the note, then %q", got, want)
	}
	msg := refusal(t, s, "import \"github.com/janpfeifer/gonb/gonbui/dom\"\nfmt.Println(dom.GetInnerHtml(\"x\"))")
	if !strings.Contains(msg, "dom.GetInnerHtml (it uses comms.Listen[string]: it uses github.com/janpfeifer/gonb/gonbui.OnCommValueUpdate, which the interpreter does not have)") {
		t.Errorf("gonbui/dom: %s", msg)
	}
	msg = refusal(t, s, "import _ \"github.com/pkg/errors\"")
	if !strings.Contains(msg, "cell line 1: the instant engine cannot run import _ \"github.com/pkg/errors\": the engine runs the init functions of a module's package when a cell first uses one of its names") {
		t.Errorf("a blank import: %s", msg)
	}
	msg = refusal(t, s, "import \"k8s.io/klog/v2/internal/buffer\"\nvar b buffer.Buffer")
	if !strings.Contains(msg, "package k8s.io/klog/v2/internal/buffer, which it does not have compiled in") {
		t.Errorf("another module's internal package: %s", msg)
	}
}

// A package of a module tensornb does not require is fetched with go
// get, as GoNB fetches it, and interpreted from its source, generic or
// not, its init functions run first; one the module proxy does not
// serve is refused with what the go command said.
func TestFetchedModulePackages(t *testing.T) {
	var out bytes.Buffer
	s, err := interp.Open(worker.Host("../../.."), &out, &out, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := runPrinted(t, s, &out, "import \"github.com/montanaflynn/stats\"\nm, err := stats.Median([]float64{5, 1, 3, 2})\nfmt.Println(m, err)")
	got += runPrinted(t, s, &out, "import \"github.com/samber/lo\"\nfmt.Println(lo.Uniq([]string{\"a\", \"b\", \"a\"}), lo.Map([]int{1, 2}, func(x int, _ int) string { return fmt.Sprint(x * 2) }))")
	// go-humanize's func init compiles the expression ParseBytes uses: it
	// runs before the cell's var declaration, as in a program.
	got += runPrinted(t, s, &out, "import \"github.com/dustin/go-humanize\"\nvar n, err = humanize.ParseBytes(\"42 MB\")\nfmt.Println(humanize.Bytes(82854982), n, err)")
	if want := "2.5 <nil>\n[a b] [2 4]\n83 MB 42000000 <nil>\n"; got != want {
		t.Errorf("printed %q, want %q", got, want)
	}
	// An import path that is none, which would reach the go command's
	// arguments, is refused before it does.
	for _, bad := range []string{"github.com/nobody/evil/../../etc", "-toolexec=x.sh", "x.org/-modfile=y", "x.org/a b"} {
		if msg := refusal(t, s, "import \""+bad+"\""); !strings.Contains(msg, "invalid import path") {
			t.Errorf("import %q: %s", bad, msg)
		}
	}
	msg := refusal(t, s, "import \"github.com/tensornb/no-such-module/pkg\"\nfmt.Println(1)")
	if !strings.Contains(msg, "package github.com/tensornb/no-such-module/pkg, which the go command could not find: go get github.com/tensornb/no-such-module/pkg: ") {
		t.Errorf("a module nobody serves: %s", msg)
	}
}
