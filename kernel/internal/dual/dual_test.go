package dual

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tensornb/tensornb/kernel/internal/front"
	"github.com/tensornb/tensornb/kernel/internal/gonb"
	"github.com/tensornb/tensornb/kernel/internal/interp/worker"
	"github.com/tensornb/tensornb/kernel/internal/tools"
)

// toolsDir holds the pinned GoNB, goimports and gopls (see package gonb's
// tests).
var toolsDir string

// The test binary is also the instant engine's worker: with
// TENSORNB_TEST_WORKER set, it serves instead of testing.
func TestMain(m *testing.M) {
	if os.Getenv("TENSORNB_TEST_WORKER") != "" {
		if err := worker.Serve("../../..", os.NewFile(worker.RequestsFD, "requests"), os.NewFile(worker.EventsFD, "events"), os.NewFile(worker.CrashFD, "crash")); err != nil {
			os.Stderr.WriteString(err.Error())
			os.Exit(1)
		}
		os.Exit(0)
	}
	var err error
	if toolsDir, err = tools.BuildForTests(os.Stderr); err != nil {
		fmt.Fprintf(os.Stderr, "cannot build the pinned tools the tests need: %v\n", err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

func TestCompiledCells(t *testing.T) {
	for _, c := range []struct {
		code, rest string
		compiled   bool
	}{
		{"%%gonb\nfmt.Println(1)", "\nfmt.Println(1)", true},
		{"\n  %%gonb  \nx := 1\ny", "\n\nx := 1\ny", true},
		{"fmt.Println(1)\n%%gonb", "fmt.Println(1)\n%%gonb", false},
		{"// %%gonb\nx", "// %%gonb\nx", false},
		{"", "", false},
	} {
		g, ok := compiled(c.code)
		if ok != c.compiled || g.code != c.rest {
			t.Errorf("compiled(%q) = %q, %v; want %q, %v", c.code, g.code, ok, c.rest, c.compiled)
		}
	}
}

// A %%gonb cell's compile error about a name interpreted cells declared
// says that GoNB does not see them; other names, and other errors, get
// no hint.
func TestStateHint(t *testing.T) {
	interpreted := func(name string) bool { return name == "x" || name == "ys" }
	ce := &front.CellError{Name: "CompileError", Value: "cell line 2: undefined: x", Traceback: []string{
		"CompileError: the cell does not compile", "cell line 2: undefined: x", "    fmt.Println(x)",
		"cell line 3: undefined: z", "    fmt.Println(z)", "cell line 4: undefined: x", "    x++",
	}}
	addStateHint(ce, interpreted)
	want := "hint: x was declared by an interpreted cell; a %%gonb cell is compiled by GoNB and does not see interpreted state, so declare x in this cell or in an earlier %%gonb cell"
	if got := ce.Traceback[len(ce.Traceback)-1]; got != want || len(ce.Traceback) != 8 {
		t.Fatalf("traceback %q", ce.Traceback)
	}
	p := &front.CellError{Name: "panic", Value: "undefined: x", Traceback: []string{"panic: undefined: x"}}
	addStateHint(p, interpreted)
	if strings.Contains(strings.Join(p.Traceback, "\n"), "hint") {
		t.Fatalf("a panic got a hint: %q", p.Traceback)
	}
}

// Cursors map between the cell and the code GoNB gets, whose %%gonb line
// is blank.
func TestCursorsSkipTheMagicLine(t *testing.T) {
	const cell = "\n  %%gonb  \nx.Vi"
	g, _ := compiled(cell)
	// The x of x.Vi is at 12 in the cell and 2 in GoNB's code.
	if x := strings.Index(g.code, "x"); g.toGoNB(12) != x || g.toCell(x) != 12 {
		t.Errorf("x: to GoNB %d, want %d; back %d, want 12", g.toGoNB(12), x, g.toCell(x))
	}
	if g.toGoNB(0) != 0 || g.toCell(0) != 0 || g.toGoNB(5) != 1 {
		t.Errorf("before and in the magic line: %d %d %d", g.toGoNB(0), g.toCell(0), g.toGoNB(5))
	}
}

// A cell completes and inspects on the engine it runs on: an interpreted
// cell from the session, a %%gonb cell from gopls, its cursor past the
// %%gonb line.
func TestCompletionFollowsTheCell(t *testing.T) {
	e := newEngine(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := e.Execute(ctx, "x := tensor.Zeros(2)", front.Discard{}); err != nil {
		t.Fatal(err)
	}
	c, err := e.Complete(ctx, "x.Vi", 4)
	if err != nil || !slices.Equal(c.Matches, []string{"View"}) {
		t.Errorf("interpreted x.Vi: %+v %v", c, err)
	}
	// gopls, past the %%gonb line.
	const gonbCell = "%%gonb\nimport \"github.com/tensornb/tensornb/tensor\"\n\ntensor.Z"
	c, err = e.Complete(ctx, gonbCell, len(gonbCell))
	if err != nil || !slices.Contains(c.Matches, "Zeros") || c.CursorStart != len(gonbCell)-1 || c.CursorEnd != len(gonbCell) {
		t.Errorf("%%%%gonb tensor.Z: %+v %v", c, err)
	}
	const gonbView = "%%gonb\ntensor.Zeros(2).View(2)"
	data, found, err := e.Inspect(ctx, gonbView, len(gonbView)-5, 0)
	plain, _ := data["text/plain"].(string)
	if err != nil || !found || !strings.HasPrefix(plain, "func (x *tensor.Tensor) View(shape ...int) *tensor.Tensor\n") || !strings.Contains(plain, "View returns a tensor") {
		t.Errorf("%%%%gonb inspect View: %v %v %q", found, err, data)
	}
	data, found, err = e.Inspect(ctx, "x.View(2)", 3, 0)
	if plain, _ := data["text/plain"].(string); err != nil || !found || !strings.HasPrefix(plain, "func (x *Tensor) View(shape ...int) *Tensor\n\nView: View returns") {
		t.Errorf("interpreted inspect View: %v %v %q", found, err, data)
	}
}

// A cell with a command of GoNB's that only GoNB runs goes to GoNB, as
// it is; the commands the instant engine runs stay there.
func TestCommandsForGoNB(t *testing.T) {
	for code, want := range map[string]bool{
		"%goflags --cover --covermode=set": true,
		"//gonb:%test":                     true,
		"%wasm\nfmt.Println(1)":            true,
		"%track ../x":                      true,
		"%goworkfix":                       true,
		"%autoget":                         true,
		"%reset go.mod":                    true,
		"!*go get x@v1":                    true,
		"%%writefile a.txt\nhello":         true,
		"%%bash\necho 1":                   true,
		"%capture out.txt\nfmt.Println(1)": true,
		"%%\nfmt.Println(1)":               false,
		"%exec f -x=13":                    false,
		"%rm a\n%reset\n%ls":               false,
		"!ls\n%env A b\n%cd /tmp":          false,
		"x := 5 %\n3":                      false,
		"fmt.Println(1)":                   false,
	} {
		if got := forGoNB(code); got != want {
			t.Errorf("forGoNB(%q) = %v, want %v", code, got, want)
		}
	}
}

// streams keeps what a cell printed.
type streams struct {
	front.Discard
	text strings.Builder
}

func (s *streams) Stream(_, text string) { s.text.WriteString(text) }

// %goflags runs on GoNB, which says the flags it compiles with, and a
// %% cell on the instant engine.
func TestGoFlagsOnGoNB(t *testing.T) {
	e := newEngine(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, c := range []struct{ code, want string }{
		{"%goflags --cover --covermode=set", "%goflags=[\"--cover\" \"--covermode=set\"]\n"},
		{"var x = flag.Int(\"x\", 0, \"\")\n%% -x=17\nfmt.Println(*x)", "17\n"},
	} {
		out := &streams{}
		if err := e.Execute(ctx, c.code, out); err != nil {
			t.Fatalf("%q: %v", c.code, err)
		}
		if out.text.String() != c.want {
			t.Errorf("%q printed %q, want %q", c.code, out.text.String(), c.want)
		}
	}
}

// newEngine returns an Engine of a worker run by the test binary and of
// the GoNB the tools directory holds, shut down when the test ends.
func newEngine(t *testing.T) *Engine {
	module, _ := filepath.Abs("../../..")
	instant := worker.NewEngine(os.Args[0], "-test.run=^$")
	instant.Env = []string{"TENSORNB_TEST_WORKER=1"}
	e := &Engine{Instant: instant, Compiled: gonb.New(gonb.Options{GoNB: tools.GoNB.Path(toolsDir), ToolsDir: toolsDir, Module: module})}
	t.Cleanup(func() { _ = e.Shutdown(false) })
	return e
}
