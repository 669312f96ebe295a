package front

import "fmt"

// The errors of cells, as the engines report them. Each kind that more
// than one engine reports is built here, so that its name and words are
// the same whichever engine ran the cell.

// A CellError is a cell that failed: the exception name, its message, and
// the traceback lines, as a Jupyter error output carries them.
type CellError struct {
	Name      string
	Value     string
	Traceback []string
}

// Error is the exception name and its message.
func (e *CellError) Error() string { return fmt.Sprintf("%s: %s", e.Name, e.Value) }

// Interrupted is the error of a cell stopped by an interrupt.
func Interrupted() *CellError { return InterruptedBecause("the cell was interrupted") }

// InterruptedBecause is the error of an interrupted cell whose engine says
// more of what the interrupt did (a restart, state lost) in value.
func InterruptedBecause(value string) *CellError {
	return &CellError{Name: "Interrupted", Value: value, Traceback: []string{"Interrupted: " + value}}
}

// EngineError is the error of a cell that its engine failed to run, for
// the reason err: the error's message is its value and its traceback.
func EngineError(err error) *CellError {
	return &CellError{Name: "EngineError", Value: err.Error(), Traceback: []string{err.Error()}}
}

// Exit is the error of a cell whose program ended with a non-zero exit
// status, as os.Exit(code) ends it.
func Exit(code int) *CellError {
	status := fmt.Sprintf("exit status %d", code)
	return &CellError{Name: "Exit", Value: status, Traceback: []string{"Exit: the program ended with " + status}}
}

// CompileError is the error of a cell that does not compile: value is
// its first message, and messages are the traceback's lines after the
// first, which says that the cell does not compile.
func CompileError(value string, messages []string) *CellError {
	return &CellError{Name: "CompileError", Value: value, Traceback: append([]string{"CompileError: the cell does not compile"}, messages...)}
}
