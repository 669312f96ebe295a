package browsercheck

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// A Checker names each cell the browser's engine would not run, as
// that engine would refuse it, without running any: a package it lacks,
// imported (even by a cell meant to fail) or used without an import; a
// type error against the cells before; a refusal of the instant engine;
// a %%gonb cell. A cell that passes declares for the cells after it; one
// that fails does not, so that the cells using what it declares fail too,
// as in the engine. A cell meant to fail (tagged raises-exception) may
// fail to type-check.
func TestBrowserChecker(t *testing.T) {
	b, err := New("../../../..")
	if err != nil {
		t.Fatal(err)
	}
	lacks := Lacks()
	if !strings.HasPrefix(lacks, "the browser engine does not have it (it has: bufio, bytes, cmp, encoding, encoding/json, errors, fmt, io, maps, math, math/bits, math/cmplx, math/rand, os, slices, sort, strconv, strings, sync, time, unicode, unicode/utf8, github.com/tensornb/tensornb/") ||
		!strings.Contains(lacks, ", github.com/tensornb/tensornb/display") || !strings.Contains(lacks, ", github.com/tensornb/tensornb/tensor") || !strings.HasSuffix(lacks, ")") {
		t.Errorf("what the browser has is worded %q, want its standard packages, then the module's (tensor and display among them)", lacks)
	}
	cells := []Cell{
		/* 0 */ {Code: "import \"github.com/tensornb/tensornb/tensor\"\nx := tensor.Float32.Arange(6)"},
		/* 1 */ {Code: "y := x.View(2, 3)\ny.Strides()"},
		/* 2 */ {Code: "import (\n\t\"fmt\"\n\t\"net/http\"\n\t\"gonum.org/v1/gonum/mat\"\n)\nresp, err := http.Get(\"https://example.com\")\nfmt.Println(resp, err)"},
		/* 3 */ {Code: "resp"},
		/* 4 */ {Code: "// a type error\nvar s string = len(\"abc\")"},
		/* 5 */ {Code: "var n int = \"many\"\nlost := 1", MayFail: true},
		/* 6 */ {Code: "lost + 1"},
		/* 7 */ {Code: "import \"os/exec\"", MayFail: true},
		/* 8 */ {Code: "fmt.Println(strings.ToUpper(\"ok\"))\nurl.QueryEscape(\"a b\")"},
		/* 9 */ {Code: "\n%%gonb\nfunc main() {}"},
		/* 10 */ {Code: "func id[T any](v T) T { return v }"},
		/* 11 */ {Code: "y.Shape()"},
	}
	want := []Problem{
		{Cell: 2, Msg: `import "net/http": ` + lacks},
		{Cell: 2, Msg: `import "gonum.org/v1/gonum/mat": ` + lacks},
		{Cell: 3, Line: 1, Msg: "undefined: resp"},
		{Cell: 4, Line: 2, Msg: "cannot use len(\"abc\") (constant 3 of type int) as string value in variable declaration"},
		{Cell: 6, Line: 1, Msg: "undefined: lost"},
		{Cell: 7, Msg: `import "os/exec": ` + lacks},
		{Cell: 8, Line: 2, Msg: `package "net/url", used without an import: ` + lacks},
		{Cell: 9, Line: 2, Msg: "%%gonb: the browser has no GoNB to compile this cell (the tensornb kernel in Jupyter has)"},
		{Cell: 10, Line: 1, Msg: "the browser engine cannot run the generic function id"},
	}
	got := b.Check(cells)
	if !slices.Equal(got, want) {
		t.Errorf("the problems are\n%s\nwant\n%s", problemLines(got), problemLines(want))
	}
	if s := got[2].String(); s != "line 1: undefined: resp" {
		t.Errorf("a problem on a line reads %q", s)
	}
	if s := got[0].String(); s != `import "net/http": `+lacks {
		t.Errorf("an import's problem reads %q", s)
	}

	// Each notebook is checked in a session of its own.
	if got := b.Check([]Cell{{Code: "x"}}); len(got) != 1 || got[0].Msg != "undefined: x" {
		t.Errorf("x, in a notebook of its own after one that declared it: %v, want undefined: x", got)
	}
}

func problemLines(ps []Problem) string {
	var b strings.Builder
	for _, p := range ps {
		fmt.Fprintf(&b, "\tcell %d: %s\n", p.Cell, p)
	}
	return b.String()
}
