// Package cellpanic is built into the programs GoNB compiles from cells.
// Report, deferred first in main, writes a panic with a *tensor.Error as
// one line on standard error, which the engine reads back (Parse) to show
// the error as PyTorch's exception, with no Go stack; any other panic goes
// on, stack and all.
//
// It is one of the kernel's two public packages, with cellstream, because
// those programs import it from the installed tensornb module, and a
// program outside this module cannot import kernel/internal. It is not
// an API: nothing but the cells' programs should import it.
package cellpanic

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"

	// Every cell program hands its output to GoNB through a relay.
	_ "github.com/tensornb/tensornb/kernel/cellstream"
	"github.com/tensornb/tensornb/tensor"
)

// Prefix starts the line Report writes.
const Prefix = "tensornb: tensor.Error "

// Report, deferred in main, ends the program when it panics with a
// *tensor.Error: it writes Prefix, the error as JSON, and " at " with the
// position in main of the statement that failed, then exits with status 2,
// as a panic does. It panics again with any other value.
func Report() {
	r := recover()
	if r == nil {
		return
	}
	var e *tensor.Error
	if err, ok := r.(error); !ok || !errors.As(err, &e) {
		panic(r)
	}
	data, _ := json.Marshal(e)
	line := Prefix + string(data)
	if at := inMain(); at != "" {
		line += " at " + at
	}
	os.Stderr.WriteString(line + "\n")
	os.Exit(2)
}

// inMain returns the file and line at which main.main is running, or "".
func inMain() string {
	pcs := make([]uintptr, 256)
	for {
		n := runtime.Callers(1, pcs)
		if n < len(pcs) {
			pcs = pcs[:n]
			break
		}
		pcs = make([]uintptr, 4*len(pcs))
	}
	frames := runtime.CallersFrames(pcs)
	for {
		f, more := frames.Next()
		if f.Function == "main.main" {
			return fmt.Sprintf("%s:%d", f.File, f.Line)
		}
		if !more {
			return ""
		}
	}
}

// Parse reads a line Report wrote: the error, and what follows " at ",
// the position, or "".
func Parse(line string) (e *tensor.Error, at string, ok bool) {
	rest, ok := strings.CutPrefix(line, Prefix)
	if !ok {
		return nil, "", false
	}
	dec := json.NewDecoder(strings.NewReader(rest))
	if err := dec.Decode(&e); err != nil || e == nil {
		return nil, "", false
	}
	at, _ = strings.CutPrefix(strings.TrimSpace(rest[dec.InputOffset():]), "at ")
	return e, at, true
}
