package worker

import (
	"go/token"
	"io"
	"sync"

	"github.com/traefik/yaegi/stdlib"

	"github.com/tensornb/tensornb/kernel/internal/interp"
	"github.com/tensornb/tensornb/kernel/internal/interp/compiled"
	"github.com/tensornb/tensornb/kernel/internal/interp/golist"
)

// Host is what a server gives a session: yaegi's whole standard library
// compiled in, the types of the packages cells import from the go
// command, run in dir, a directory of the tensornb module, and GoNB for
// what the instant engine refuses.
func Host(dir string) interp.Host {
	return interp.Host{
		Library:   library(),
		Packages:  func(fset *token.FileSet) interp.Packages { return golist.New(fset, dir, nil) },
		Otherwise: "put %%gonb on the cell's first line to compile it with GoNB",
	}
}

// library is the server's compiled packages, indexed once.
var library = sync.OnceValue(func() *compiled.Library { return compiled.New(compiled.Tables{Standard: stdlib.Symbols}) })

// NewSession returns a session of Host(dir). Interpreted code's
// os.Stderr, and yaegi's own messages, go to stderr; its standard input
// asks for each line with ask (nil: it has none, and a read fails).
func NewSession(dir string, stderr io.Writer, ask func() (string, error)) (*interp.Session, error) {
	return interp.Open(Host(dir), nil, stderr, ask)
}
