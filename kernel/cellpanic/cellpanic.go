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
	"regexp"
	"runtime"
	"strings"

	// Every cell program hands its output to GoNB through a relay.
	_ "github.com/tensornb/tensornb/kernel/cellstream"
	"github.com/tensornb/tensornb/tensor"
)

// Prefix starts the line Report writes.
const Prefix = "tensornb tensor.Error "

// Report, deferred in main, ends the program when it panics with a
// *tensor.Error: it writes Prefix, "at " with the position in main of the
// statement that failed, and the error as JSON, then exits with status 2,
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
	os.Stderr.WriteString(reportLine(e, inMain()) + "\n")
	os.Exit(2)
}

// reportLine is the line Report writes for e, which failed at the
// position at (file:line, or ""). No colon comes before the position:
// GoNB (v0.11.4) reads each line of a program's standard error that names
// a position in its main.go, and stops with a panic of its own when the
// text before that position holds two colons and no number follows the
// second. So the position comes first, and the JSON, full of colons,
// after it.
func reportLine(e *tensor.Error, at string) string {
	data, _ := json.Marshal(e)
	if at == "" {
		return Prefix + string(data)
	}
	return Prefix + "at " + at + " " + string(data)
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

// Parse reads a line Report wrote: the error, and the position written
// after "at ", or "". The position may have been rewritten on its way (GoNB
// puts the cell's line before a position in its main.go); it ends with
// ":line" just before the JSON.
func Parse(line string) (e *tensor.Error, at string, ok bool) {
	rest, ok := strings.CutPrefix(line, Prefix)
	if !ok {
		return nil, "", false
	}
	if m := positioned.FindStringSubmatch(rest); m != nil {
		at, rest = m[1], m[2]
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(rest)), &e); err != nil || e == nil {
		return nil, "", false
	}
	return e, at, true
}

// positioned is what follows Prefix when Report knew the position: "at ",
// the position, which ends with ":line", a space, and the JSON.
var positioned = regexp.MustCompile(`^at (.*?:\d+) (\{.*)$`)
