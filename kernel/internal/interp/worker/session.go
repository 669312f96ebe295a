package worker

import (
	"context"
	"fmt"
	"go/token"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/traefik/yaegi/stdlib"

	"github.com/tensornb/tensornb/kernel/internal/interp"
	"github.com/tensornb/tensornb/kernel/internal/interp/compiled"
	"github.com/tensornb/tensornb/kernel/internal/interp/golist"
	"github.com/tensornb/tensornb/kernel/internal/interp/gonbui"
)

// Host is what a server gives a session: yaegi's whole standard library
// compiled in, the types of the packages cells import from the go
// command, run in dir, a directory of the tensornb module, and GoNB for
// what the instant engine refuses; a cell's shell lines run with bash.
func Host(dir string) interp.Host {
	return interp.Host{
		Library:   library(),
		Packages:  func(fset *token.FileSet) interp.Packages { return golist.New(fset, dir, nil) },
		Otherwise: "put %%gonb on the cell's first line to compile it with GoNB",
		StdSource: goroot,
		Shell:     shell,
	}
}

// shell runs a cell's shell line with bash -c, in the worker's working
// directory (the notebook's, unless %cd changed it), with no standard
// input, its output going to stdout and stderr as it comes. A process
// the line leaves in the background (sleep 60 &) keeps the output's pipe
// open; the cell does not wait for it, as the engine does not wait for a
// worker's (engine.go).
func shell(ctx context.Context, line string, stdout, stderr io.Writer) error {
	cmd := exec.CommandContext(ctx, "/bin/bash", "-c", line)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.WaitDelay = 100 * time.Millisecond
	return cmd.Run()
}

// goroot returns the source of the standard library of the go command
// the worker runs, found once.
var goroot = sync.OnceValues(func() (fs.FS, error) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return nil, fmt.Errorf("go env GOROOT: %w", err)
	}
	return os.DirFS(filepath.Join(strings.TrimSpace(string(out)), "src")), nil
})

// library is the server's compiled packages, indexed once: yaegi's
// standard library, and GoNB's gonbui as the instant engine writes it,
// taken as a cell first imports it.
var library = sync.OnceValue(func() *compiled.Library {
	return compiled.New(compiled.Tables{Standard: stdlib.Symbols, Lazy: map[string]func() map[string]reflect.Value{gonbui.TableKey: gonbui.Table}})
})

// NewSession returns a session of Host(dir). Interpreted code's
// os.Stderr, and yaegi's own messages, go to stderr; its standard input
// asks for each line with ask (nil: it has none, and a read fails).
func NewSession(dir string, stderr io.Writer, ask func() (string, error)) (*interp.Session, error) {
	return interp.Open(Host(dir), nil, stderr, ask)
}
