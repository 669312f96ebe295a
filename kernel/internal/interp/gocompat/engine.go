package gocompat

import "time"

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
