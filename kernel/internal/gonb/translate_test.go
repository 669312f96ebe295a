package gonb

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/kernel/cellpanic"
	"github.com/tensornb/tensornb/kernel/internal/front"
	"github.com/tensornb/tensornb/kernel/internal/wire"
)

// A panic's stack names cell lines even where GoNB left a position in its
// generated main.go unmarked (it maps positions per read of the program's
// standard error, and misses those split across reads), and names lines
// of earlier cells as such.
func TestPanicPositionsGoNBLeftUnmarked(t *testing.T) {
	first := "func pick(s []int) int {\n\treturn s[3]\n}"
	second := "var s []int\n_ = pick(s)"
	ran := []ranCell{
		{arrange(first, false, false), strings.Split(first, "\n")},
		{arrange(second, false, false), strings.Split(second, "\n")},
	}
	// main.go as GoNB writes it for the second cell: the kept declaration
	// from the first, then the statements in main.
	program := "package main\n\nimport (\n\t\"flag\"\n)\n\nfunc pick(s []int) int {\n\treturn s[3]\n}\n\nfunc main() {\n\tflag.Parse()\nvar s []int\n_ = pick(s)\n}\n"
	path := filepath.Join(t.TempDir(), "main.go")
	if err := os.WriteFile(path, []byte(program), 0o600); err != nil {
		t.Fatal(err)
	}
	tr := &translator{id: 2, ran: ran}
	tr.panicking = true
	tr.panicText.WriteString("panic: runtime error: index out of range [3] with length 0\n\ngoroutine 1 [running]:\nmain.pick(...)\n\t" +
		path + ":8\nmain.main()\n\t \x1b[7m[[ Cell [2] Line 3 ]]\x1b[0m " + path + ":14 +0x1d\nexit status 2\n")
	ce := tr.panicError()
	got := strings.Join(ce.Traceback, "\n")
	want := "panic: runtime error: index out of range [3] with length 0\ngoroutine 1 [running]:\nmain.pick(...)\n\tearlier cell, line 2: return s[3]\nmain.main()\n\t cell line 2: _ = pick(s)"
	if got != want {
		t.Fatalf("traceback:\n%s\nwant:\n%s", got, want)
	}
}

// Among equal lines, the one whose neighbours match the program is taken.
func TestLocatePrefersMatchingNeighbours(t *testing.T) {
	cell := "x := 1\nprint(x)\nx = 2\nprint(x)\nprint(0)"
	tr := &translator{id: 1, ran: []ranCell{{arrange(cell, false, false), strings.Split(cell, "\n")}}}
	program := strings.Split("package main\n\nfunc main() {\n\tflag.Parse()\nx := 1\nprint(x)\nx = 2\nprint(x)\nprint(0)\n}", "\n")
	id, line, ok := tr.locate(program, 8)
	if !ok || id != 1 || tr.ran[0].cell.cellLine(line) != 4 {
		t.Fatalf("locate: %d %d %v", id, line, ok)
	}
	if _, _, ok := tr.locate(program, 1); ok {
		t.Fatal("located a line no cell has")
	}
}

// Stack frames lose what changes from run to run (argument words, program
// counters) and name tensornb's files from "tensornb/".
func TestPanicStackIsStable(t *testing.T) {
	cell := "x.View(-1)"
	tr := &translator{id: 1, ran: []ranCell{{arrange(cell, false, false), []string{cell}}}, module: "/opt/tnb/src"}
	tr.panicking = true
	tr.panicText.WriteString("panic: view: view size is not compatible\n\ngoroutine 1 [running]:\n" +
		"github.com/tensornb/tensornb/tensor.(*Tensor).View(0x2c7abe3dc3c0, {0x2c7abe394168, 0x1, 0x1})\n" +
		"\t/opt/tnb/src/tensor/view.go:21 +0x2d0\nmain.main()\n\t \x1b[7m[[ Cell [1] Line 2 ]]\x1b[0m /tmp/gonb_1/main.go:9 +0xa5\n")
	got := strings.Join(tr.panicError().Traceback, "\n")
	want := "panic: view: view size is not compatible\ngoroutine 1 [running]:\n" +
		"github.com/tensornb/tensornb/tensor.(*Tensor).View(...)\n\ttensornb/tensor/view.go:21\nmain.main()\n\t cell line 1: x.View(-1)"
	if got != want {
		t.Fatalf("traceback:\n%s\nwant:\n%s", got, want)
	}
}

// cellpanic.Report's line is found at the start of any line of a chunk of
// standard error; what comes before it is passed on.
func TestReportLineAfterOtherOutput(t *testing.T) {
	cell := "x.Index(\"5\")"
	out := &recorder{}
	tr := &translator{out: out, id: 1, ran: []ranCell{{arrange(cell, false, true), []string{cell}}}}
	tr.stderr("careful: panic: is not a panic here\n" + cellpanic.Prefix + "at \x1b[7m[[ Cell [1] Line 4 ]]\x1b[0m /tmp/gonb_1/main.go:12 " +
		`{"Op":"index","Class":"IndexError","Message":"index 5 is out of bounds for dimension 0 with size 3"}` + "\n")
	tr.stderr("exit status 2\n")
	tr.iopub(gonbError(t, "exit status 2"))
	ce := cellError(t, tr.outcome(nil))
	want := "IndexError: index 5 is out of bounds for dimension 0 with size 3\ncell line 1: x.Index(\"5\")"
	if ce.Name != "IndexError" || strings.Join(ce.Traceback, "\n") != want {
		t.Fatalf("error %q %q", ce.Name, ce.Traceback)
	}
	if out.streams["stderr"] != "careful: panic: is not a panic here\n" {
		t.Fatalf("stderr %q", out.streams["stderr"])
	}
}

// gonbError is the error message GoNB v0.11.4 sends when a cell's program
// fails: Go's words for how it ended, as value and as its one line of
// traceback.
func gonbError(t *testing.T, value string) *wire.Message {
	t.Helper()
	m, err := wire.NewMessage("error", "gonb", nil, map[string]any{"ename": "ERROR", "evalue": value, "traceback": []string{value}})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// A program's end that GoNB reports as an error (a non-zero exit status,
// a signal) is the cell's one error, worded as before GoNB sent it, and
// not a compile error; GoNB's own line of it on standard error is left
// out.
func TestProgramEndIsNoCompileError(t *testing.T) {
	for _, c := range []struct {
		end  string
		want *front.CellError
	}{
		{"exit status 3", front.Exit(3)},
		{"signal: killed", &front.CellError{Name: "Exit", Value: "signal: killed", Traceback: []string{"Exit: the program was ended by signal: killed"}}},
	} {
		out := &recorder{}
		cell := "os.Exit(3)"
		tr := &translator{out: out, id: 1, ran: []ranCell{{arrange(cell, false, false), []string{cell}}}}
		tr.stderr("careful\n")
		tr.stderr(c.end + "\n")
		tr.iopub(gonbError(t, c.end))
		reply, err := wire.NewMessage("execute_reply", "gonb", nil, map[string]any{"status": "error", "ename": "ERROR", "evalue": c.end})
		if err != nil {
			t.Fatal(err)
		}
		var ce *front.CellError
		if err := tr.outcome(reply); !errors.As(err, &ce) || ce.Name != c.want.Name || ce.Value != c.want.Value || strings.Join(ce.Traceback, "\n") != strings.Join(c.want.Traceback, "\n") {
			t.Errorf("%s: the cell's error is %v, want %v", c.end, err, c.want)
		}
		if out.streams["stderr"] != "careful\n" {
			t.Errorf("%s: stderr %q", c.end, out.streams["stderr"])
		}
	}
}

// A compile error is still one: its value is the go command's output.
func TestCompileErrorStaysOne(t *testing.T) {
	cell := "y := undefinedName"
	tr := &translator{out: &recorder{}, id: 1, ran: []ranCell{{arrange(cell, false, false), []string{cell}}}}
	msg, err := wire.NewMessage("error", "gonb", nil, map[string]any{"ename": "ERROR", "evalue": "# gonb_1\n./main.go:9:6: undefined: undefinedName\n",
		"traceback": []string{"# gonb_1", "Cell[1]: Line 2\n\tflag.Parse()\ny := undefinedName\n     ^\n_ = y\n\nundefined: undefinedName"}})
	if err != nil {
		t.Fatal(err)
	}
	tr.iopub(msg)
	ce := cellError(t, tr.outcome(nil))
	if ce.Name != "CompileError" || ce.Value != "cell line 1: undefined: undefinedName" {
		t.Fatalf("compile error: %q %q %q", ce.Name, ce.Value, ce.Traceback)
	}
}
