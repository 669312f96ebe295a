package interp_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/kernel/internal/front"
	"github.com/tensornb/tensornb/kernel/internal/interp"
	"github.com/tensornb/tensornb/kernel/internal/interp/worker"
)

// commandSession is a session of a server's host, with the module's
// directory absolute (a cell may change the working directory), whose
// standard output and error the test reads.
type commandSession struct {
	s              *interp.Session
	stdout, stderr bytes.Buffer
}

func newCommandSession(t *testing.T, edit func(*interp.Host)) *commandSession {
	t.Helper()
	dir, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	host := worker.Host(dir)
	if edit != nil {
		edit(&host)
	}
	cs := &commandSession{}
	if cs.s, err = interp.Open(host, &cs.stdout, &cs.stderr, nil); err != nil {
		t.Fatal(err)
	}
	return cs
}

// run runs a cell that must succeed and returns what it printed to
// standard output.
func (cs *commandSession) run(t *testing.T, code string) string {
	t.Helper()
	cs.stdout.Reset()
	if err := cs.s.Run(context.Background(), code); err != nil {
		t.Fatalf("cell %q: %v\nprinted:\n%s", code, err, cs.stdout.String())
	}
	return cs.stdout.String()
}

// fail runs a cell that must fail and returns its error.
func (cs *commandSession) fail(t *testing.T, code string) *front.CellError {
	t.Helper()
	err := cs.s.Run(context.Background(), code)
	var ce *front.CellError
	if !errors.As(err, &ce) {
		t.Fatalf("cell %q: error %v, want a cell error", code, err)
	}
	return ce
}

// %% makes the rest of the cell main's body, with the //gonb: prefix
// too, and a package line is left out; main's variables are its own.
func TestMainCommand(t *testing.T) {
	checkPrinted(t, "Hello World!\nWorks\n3\n",
		"// Package abc is left out.\npackage abc\n\n%%\nfmt.Println(\"Hello World!\")",
		"//gonb:%%\nfmt.Println(\"Works\")",
		"x := 1\n%main\nx := 3\nfmt.Println(x)")
	cs := newCommandSession(t, nil)
	cs.run(t, "%%\ny := 2\n_ = y")
	if ce := cs.fail(t, "y"); !strings.Contains(ce.Value, "undefined: y") {
		t.Errorf("y after %%%%: %v", ce.Value)
	}
	// main is not kept: a later cell cannot call it.
	if ce := cs.fail(t, "main()"); !strings.Contains(ce.Value, "undefined: main") {
		t.Errorf("main() after %%%%: %v", ce.Value)
	}
}

// %% and %exec set os.Args and parse the flags first; running a cell that
// defines a flag again does not define it twice; %args gives the
// arguments of a later cell's main.
func TestProgramArguments(t *testing.T) {
	flags := "var x = flag.Int(\"x\", 0, \"value of x\")\n\nfunc f() {\n\tfmt.Printf(\"Got x=%d\\n\", *x)\n}\n\n%% -x=17\nf()"
	checkPrinted(t, "Got x=17\nGot x=17\nGot x=13\n[a b]\nGot x=5\n",
		flags, flags,
		"//gonb:%exec f -x=13",
		"%% a b\nfmt.Println(os.Args[1:])",
		"%args -x=5",
		"func main() {\n\tflag.Parse()\n\tf()\n}")
	cs := newCommandSession(t, nil)
	cs.run(t, flags)
	if ce := cs.fail(t, "%% -y=1\nf()"); ce.Name != "Exit" || ce.Value != "exit status 2" {
		t.Errorf("a flag not defined: %s: %s", ce.Name, ce.Value)
	}
	if !strings.Contains(cs.stderr.String(), "flag provided but not defined: -y") {
		t.Errorf("stderr %q", cs.stderr.String())
	}
	if ce := cs.fail(t, "%exec"); !strings.Contains(ce.Value, "name the function") {
		t.Errorf("%%exec alone: %v", ce.Value)
	}
}

// GoNB makes init_… functions init functions of every program: every cell
// with Go code calls them, in the order of their names, before its
// statements; a cell of commands alone does not.
func TestInitFunctions(t *testing.T) {
	checkPrinted(t, "init_a\ninit_a\ninit_b\ninit_a\ninit_b\nx\n1\n. removed func init_a\n. removed func init_b\nDone\n",
		"func init_a() {\n\tfmt.Println(\"init_a\")\n}",
		"func init_b() {\n\tfmt.Println(\"init_b\")\n}",
		"var v = 1\nfmt.Println(\"x\")\nfmt.Println(v)",
		"%rm init_a init_b",
		"%%\nfmt.Println(\"Done\")")
}

// %rm forgets declarations and says so, GoNB's way; %reset forgets all;
// %list shows what is kept.
func TestRemoveResetList(t *testing.T) {
	cs := newCommandSession(t, nil)
	cs.run(t, "import \"strings\"\nvar a = 1\nconst k = 2\ntype T int\nfunc (T) M() {}\nfunc g() {}\n_ = strings.ToUpper")
	if got, want := cs.run(t, "%rm a g T~M strings\n%rm nothere"), ". removed var a\n. removed func g\n. removed func T~M\n. removed import strings\n"; got != want {
		t.Errorf("%%rm printed %q, want %q", got, want)
	}
	if got := cs.stderr.String(); got != ". key \"nothere\" not found in any definition, not removed\n" {
		t.Errorf("%%rm's stderr %q", got)
	}
	if ce := cs.fail(t, "fmt.Println(a)"); !strings.Contains(ce.Value, "undefined: a") {
		t.Errorf("a after %%rm: %v", ce.Value)
	}
	if got := cs.run(t, "var a = \"again\"\nfmt.Println(a, k)"); got != "again 2\n" {
		t.Errorf("a declared again: %q", got)
	}
	s, shows := newSession(t)
	run(t, s, "var a, c = 1, 2\nfunc f() {}\ntype T struct{}")
	run(t, s, "%ls")
	want := []string{"Memorized Definitions", "== Types\nT", "== Variables\na\nc", "== Functions\nf"}
	if strings.Join(shows.shows, "|") != strings.Join(want, "|") {
		t.Errorf("%%ls showed %q, want %q", shows.shows, want)
	}
	run(t, s, "%reset")
	if names := s.Names(); len(names) != 0 {
		t.Errorf("names after %%reset: %q", names)
	}
}

// %env sets a variable the cells' code and shell lines see; %cd changes
// the directory, and says which it is.
func TestEnvAndCd(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chdir(wd) })
	t.Setenv("GONB_CELLCMD_TEST", "")
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cs := newCommandSession(t, nil)
	if got := cs.run(t, "%env GONB_CELLCMD_TEST one\nfmt.Println(os.Getenv(\"GONB_CELLCMD_TEST\"))"); got != "Set: GONB_CELLCMD_TEST=\"one\"\none\n" {
		t.Errorf("%%env printed %q", got)
	}
	if got := cs.run(t, "%env GONB_CELLCMD_TEST=two\n!echo $GONB_CELLCMD_TEST"); got != "Set: GONB_CELLCMD_TEST=\"two\"\ntwo\n" {
		t.Errorf("%%env NAME=value printed %q", got)
	}
	if got, want := cs.run(t, "%cd "+dir+"\n!pwd"), "Changed directory to \""+dir+"\"\n"+dir+"\n"; got != want {
		t.Errorf("%%cd printed %q, want %q", got, want)
	}
	if got, want := cs.run(t, "%cd"), "Current directory: \""+dir+"\"\n"; got != want {
		t.Errorf("%%cd alone printed %q, want %q", got, want)
	}
	if ce := cs.fail(t, "%env A"); ce.Name != "CommandError" {
		t.Errorf("%%env A: %s: %s", ce.Name, ce.Value)
	}
}

// A shell line runs with bash, before the cell's Go code, whose lines keep
// their numbers; one that fails ends the cell. The browser has no shell.
func TestShellLines(t *testing.T) {
	cs := newCommandSession(t, nil)
	if got := cs.run(t, "fmt.Println(\"go\")\n!echo one \\\n  two\n!echo three | tr a-z A-Z"); got != "one two\nTHREE\ngo\n" {
		t.Errorf("printed %q", got)
	}
	if ce := cs.fail(t, "!exit 3\nfmt.Println(\"not run\")"); ce.Name != "ShellError" || !strings.Contains(ce.Value, "exit status 3") {
		t.Errorf("!exit 3: %s: %s", ce.Name, ce.Value)
	}
	if ce := cs.fail(t, "!true\nx := undefinedName"); !strings.Contains(ce.Value, "cell line 2") {
		t.Errorf("the error's line: %s", ce.Value)
	}
	browser := newCommandSession(t, func(h *interp.Host) { h.Shell = nil })
	if ce := browser.fail(t, "!ls"); ce.Name != "NotInBrowser" || !strings.Contains(ce.Value, "tensornb kernel in Jupyter runs them") {
		t.Errorf("!ls without a shell: %s: %s", ce.Name, ce.Value)
	}
}

// %help and %version say what the engine has; the commands of GoNB's
// compiler are refused, saying where they run.
func TestHelpVersionAndGoNBCommands(t *testing.T) {
	s, shows := newSession(t)
	run(t, s, "%help")
	if len(shows.shows) != 1 || !strings.Contains(shows.shows[0], "%rm") || !strings.Contains(shows.shows[0], "!command") {
		t.Errorf("%%help showed %q", shows.shows)
	}
	if got := printed(t, "%version"); !strings.HasPrefix(got, "Go: go") {
		t.Errorf("%%version printed %q", got)
	}
	cs := newCommandSession(t, nil)
	for _, c := range []string{"%goflags --cover", "%test", "%wasm", "%track x", "%goworkfix", "%autoget", "%reset go.mod", "!*ls", "%%writefile f.txt\nhello"} {
		ce := cs.fail(t, c)
		if ce.Name != "Unsupported" || !strings.Contains(ce.Value, "GoNB's") || !strings.Contains(ce.Value, "%%gonb") {
			t.Errorf("%q: %s: %s", c, ce.Name, ce.Value)
		}
	}
	if ce := cs.fail(t, "%nosuch"); ce.Name != "CommandError" || !strings.Contains(ce.Value, "%help") {
		t.Errorf("%%nosuch: %s: %s", ce.Name, ce.Value)
	}
}

// The Go code of a cell with commands keeps its lines, in main's body
// too, and completion its offsets.
func TestCommandsKeepLinesAndOffsets(t *testing.T) {
	cs := newCommandSession(t, nil)
	if ce := cs.fail(t, "var a = 1\n%% -x=1\nb := 2\nfmt.Println(b + \"s\")"); !strings.Contains(ce.Value, "cell line 4:") {
		t.Errorf("compile error %q, want it on cell line 4", ce.Value)
	}
	if ce := cs.fail(t, "%%\nvar s []int\n_ = s[5]"); !strings.Contains(strings.Join(ce.Traceback, "\n"), "line 3") {
		t.Errorf("panic's traceback %q, want it on line 3", ce.Traceback)
	}
	code := "%env A b\nstrings.ToU"
	if c := cs.s.Complete(code, len(code)); !slices.Contains(c.Matches, "ToUpper") || c.CursorStart != len(code)-3 {
		t.Errorf("completion after a command: %+v", c)
	}
}
