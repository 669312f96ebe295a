package gocompat

import (
	"strings"
	"testing"
)

// A program's outcome is classed by its error, then by its output against
// the .out file: a difference only where the .out file names a type of
// package main is type-names, any other a different output.
func TestClassify(t *testing.T) {
	p := Program{Name: "p.go", Want: "main.List[int] 3\n*main.T{x:1} and main.Pair[main.K[int],string]\nok\n"}
	for _, c := range []struct {
		o      Outcome
		class  Class
		reason string
	}{
		{Outcome{Output: p.Want}, Same, ""},
		{Outcome{Output: "List 3\n*struct { x int }{x:1} and Pair\nok\n"}, TypeNames, `line 1: want "main.List[int] 3", got "List 3"`},
		{Outcome{Output: "main.List[int] 4\n*main.T{x:1} and main.Pair[main.K[int],string]\nok\n"}, Different, `line 1: want "main.List[int] 3", got "main.List[int] 4"`},
		{Outcome{Output: "main.List[int] 3\n"}, Different, `line 2: want "*main.T{x:1} and main.Pair[main.K[int],string]", got nothing`},
		{Outcome{Output: "main.List[int] 3\n*main.T{x:1} and main.Pair[main.K[int],string]\nok\n"}, Same, ""},
		{Outcome{Output: "domain.List[int] 3\n*main.T{x:1} and main.Pair[main.K[int],string]\nok\n"}, TypeNames, `line 1: want "main.List[int] 3", got "domain.List[int] 3"`},
		{Outcome{Ename: "Unsupported", Evalue: "cell line 3: the instant engine cannot run the generic type L; put %%gonb on the cell's first line to compile it with GoNB"}, Refused, "cell line 3: the instant engine cannot run the generic type L"},
		{Outcome{Ename: "Unsupported", Evalue: "cell line 1: package reflect is not in the browser's engine, which has tensor, display and, of the standard library, only bufio, fmt; the tensornb kernel in Jupyter has it"}, Refused, "cell line 1: package reflect is not in the browser's engine"},
		{Outcome{Ename: "CompileError", Evalue: "cell line 4: undefined: x"}, Refused, "cell line 4: undefined: x"},
		{Outcome{Ename: "panic", Evalue: "fail", Traceback: []string{"panic: fail", "in f (its line is not known)", "cell line 2: f()"}, Output: "wrong\n"}, Crash, `panic: fail (in f (its line is not known)); its output ends with "wrong"`},
		{Outcome{Ename: "Interrupted", TimedOut: true}, Crash, "timeout: still running after 10s"},
	} {
		v := Classify(p, c.o, "10s")
		if v.Class != c.class || v.Reason != c.reason {
			t.Errorf("%+v: %s, %q; want %s, %q", c.o, v.Class, v.Reason, c.class, c.reason)
		}
		if v.TypeCheck != (c.o.Ename == "CompileError") {
			t.Errorf("%+v: TypeCheck %v", c.o, v.TypeCheck)
		}
	}
}

// A refusal's group drops the cell line, the engine's advice and the
// program's own names, and keeps the package a refusal names.
func TestGroup(t *testing.T) {
	for reason, want := range map[string]string{
		"cell line 3: the instant engine cannot run the generic type L":                                                                  "the generic types of the program",
		"cell line 9: the instant engine cannot run the generic function f":                                                              "the generic functions of the program",
		"cell line 2: the instant engine cannot run slices.Sort, a generic function of a compiled package (instantiated as func([]int))": "functions of package slices, generic",
		"cell line 5: the instant engine cannot run package unsafe, which it does not have compiled in":                                  "package unsafe, which it does not have compiled in",
		"cell line 1: package reflect is not in the browser's engine":                                                                    "package reflect is not in the browser's engine",
		"cell line 7: the instant engine cannot run range over a function (an iterator)":                                                 "range over a function (an iterator)",
	} {
		if got := group(reason); got != want {
			t.Errorf("group(%q) = %q, want %q", reason, got, want)
		}
	}
}

// A report counts the classes, groups the refusals and lists each
// program that did not do the same.
func TestReport(t *testing.T) {
	r := &Report{Engine: "server", Verdicts: []Verdict{
		{Program: "a.go", Class: Same},
		{Program: "b.go", Class: Refused, Reason: "cell line 3: the instant engine cannot run the generic type L"},
		{Program: "c.go", Class: Refused, Reason: "cell line 5: the instant engine cannot run the generic type M"},
		{Program: "d.go", Class: Refused, Reason: "cell line 1: undefined: x", TypeCheck: true},
	}}
	var b strings.Builder
	r.Write(&b)
	for _, want := range []string{"4 programs in 0 s: 1 same (25.0%), 0 type-names, 3 refused, 0 different, 0 crash.", "The same: `a.go`.",
		"- 2: the generic types of the program", "by message:\n\n- 1: undefined: x", "### refused (3)", "- `d.go`: cell line 1: undefined: x"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, b.String())
		}
	}
}
