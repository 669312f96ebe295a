package gocompat

import (
	"regexp"
	"time"
)

// An Engine runs a cell in a fresh session of an instant engine, and ends
// the session when it is done. The cell may run for timeout once the
// session is ready (its start does not count, but may take startLimit at
// most): if it runs longer, the session is killed and the outcome says
// so.
type Engine interface {
	Run(cell string, timeout time.Duration) Outcome
}

// startLimit bounds how long an engine's session may take to start.
const startLimit = 2 * time.Minute

// An Outcome is what a cell did: what it wrote to its stdout and stderr,
// in the order written, and how it ended.
type Outcome struct {
	Output string
	// Ename and Evalue are the name and message of the cell's error, as
	// its execute_reply gives them ("" if it ran to its end): Unsupported
	// and CompileError are refusals; anything else, such as a panic, an
	// InterpreterError or an engine that died, is a failure.
	Ename, Evalue string
	// Traceback is the error's traceback: its first line, then the
	// frames, innermost first.
	Traceback []string
	// TimedOut is set if the cell was still running after its time.
	TimedOut bool
}

// A Form is how a program is written as a cell: as it is, or, where the
// engine does not take a program as it is (see probeForm), with its
// package clause left out, or its main function called by the cell.
type Form struct {
	// Package keeps the package clause; without it, its line is left
	// empty, so that the lines of errors stay those of the file.
	Package bool
	// Main keeps func main as it is, for the engine to run as go run
	// does; without it, main is renamed mainFunc and the cell ends with
	// a statement that calls it once.
	Main bool
}

// mainFunc is the name of a program's main function when the cell calls
// it.
const mainFunc = "gocompatMain"

var (
	// packageClause matches a program's package clause, on a line of its
	// own.
	packageClause = regexp.MustCompile(`(?m)^package main[ \t]*$`)
	// mainDecl matches the start of the declaration of a program's main
	// function.
	mainDecl = regexp.MustCompile(`(?m)^func main\(\)`)
)

// Cell returns the program's source as one cell, in form f.
func Cell(src string, f Form) string {
	if !f.Package {
		src = packageClause.ReplaceAllString(src, "")
	}
	if !f.Main {
		src = mainDecl.ReplaceAllString(src, "func "+mainFunc+"()") + "\n" + mainFunc + "()\n"
	}
	return src
}
