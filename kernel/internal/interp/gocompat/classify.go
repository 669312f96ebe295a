package gocompat

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// A Class is how a program did in an engine, against what go run gives.
type Class string

// The classes, in the order the report lists them.
const (
	// Same: the program ran to its end and printed what go run prints.
	Same Class = "same"
	// TypeNames: it printed what go run prints but for the names of
	// types (%T, reflect).
	TypeNames Class = "type-names"
	// Refused: the engine refused it before running it, as unsupported
	// or as not compiling.
	Refused Class = "refused"
	// Different: it ran to its end and printed something else.
	Different Class = "different"
	// Crash: it panicked, failed in the interpreter, ended the engine or
	// ran out of time, where go run succeeds.
	Crash Class = "crash"
)

// Classes are the classes, in the report's order.
var Classes = []Class{Same, TypeNames, Refused, Different, Crash}

// A Verdict is how a program did, and why, in a line.
type Verdict struct {
	Program string
	Class   Class
	Reason  string
	// TypeCheck is set for a refused program the type checker rejected
	// (a CompileError), which go run compiles.
	TypeCheck bool
}

// Classify compares what a program did in an engine with what it must
// print.
func Classify(p Program, o Outcome, timeout string) Verdict {
	v := Verdict{Program: p.Name}
	switch {
	case o.TimedOut:
		v.Class, v.Reason = Crash, "timeout: still running after "+timeout
	case o.Ename == "Unsupported":
		v.Class, v.Reason = Refused, firstLine(advice.ReplaceAllString(o.Evalue, ""))
	case o.Ename == "CompileError":
		v.Class, v.Reason, v.TypeCheck = Refused, firstLine(o.Evalue), true
	case o.Ename != "":
		v.Class, v.Reason = Crash, failure(o)
	case o.Output == p.Want:
		v.Class = Same
	case sameButTypeNames(p.Want, o.Output):
		v.Class, v.Reason = TypeNames, firstDifference(p.Want, o.Output)
	case selfChecks[p.Name] != "" && strings.Contains(o.Output, selfChecks[p.Name]):
		v.Class, v.Reason = TypeNames, firstDifference(p.Want, o.Output)
	default:
		v.Class, v.Reason = Different, firstDifference(p.Want, o.Output)
	}
	return v
}

// failure says in a line how a cell failed: its error, the innermost
// frame of its traceback, if it names one, and the last line it printed.
func failure(o Outcome) string {
	s := o.Ename + ": " + firstLine(o.Evalue)
	if len(o.Traceback) > 1 && (strings.HasPrefix(o.Traceback[1], "in ") || strings.HasPrefix(o.Traceback[1], "cell line ")) {
		s += " (" + firstLine(o.Traceback[1]) + ")"
	}
	lines := strings.Split(strings.TrimRight(o.Output, "\n"), "\n")
	if last := lines[len(lines)-1]; last != "" {
		s += "; its output ends with " + quotedLine(lines, len(lines)-1)
	}
	return s
}

// advice matches the end of a refusal's message that says how to run
// the cell otherwise, which the server's engine and the browser's word
// each its way, and, in the browser's, the list of the packages it has.
var advice = regexp.MustCompile(`(; (put %%gonb|the tensornb kernel in Jupyter)|, which has tensor, display and, of the standard library, only ).*`)

// firstLine returns the first line of s, cut to 200 bytes.
func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return shortened(s, 200)
}

// shortened returns s cut to at most n bytes, at the start of a
// character, and an ellipsis if it was cut.
func shortened(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// firstDifference names the first line where got differs from want.
func firstDifference(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(w), len(g)) {
		if i >= len(w) || i >= len(g) || w[i] != g[i] {
			return fmt.Sprintf("line %d: want %s, got %s", i+1, quotedLine(w, i), quotedLine(g, i))
		}
	}
	return "the same"
}

// quotedLine returns line i of lines, quoted and cut to 80 bytes, or
// "nothing" if there is none (the output ended).
func quotedLine(lines []string, i int) string {
	if i >= len(lines) || i == len(lines)-1 && lines[i] == "" {
		return "nothing"
	}
	return fmt.Sprintf("%q", shortened(lines[i], 80))
}
