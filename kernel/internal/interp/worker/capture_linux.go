package worker

import (
	"fmt"
	"log"
	"os"
	"syscall"

	"github.com/tensornb/tensornb/kernel/internal/textpipe"
)

// A capture sends what the process writes to file descriptor 1 and
// os.Stderr as stream events.
type capture struct{ streams []*textpipe.Reader }

// fd2 is the os.Stderr the process started with, kept from the garbage
// collector, which would close file descriptor 2 with it.
var fd2 *os.File

// captureStreams points file descriptor 1, and os.Stderr, at pipes that
// this process reads, so that everything written to them (by interpreted
// code, compiled code, processes a cell starts with them) becomes an
// event, in order with displays. File descriptor 2 stays the engine's:
// there the Go runtime writes why the process ends ("fatal error: out of
// memory"), and the engine reads it even if the process ends before
// reading it itself.
func captureStreams(ev *events) (*capture, error) {
	c := &capture{}
	for _, name := range []string{"stdout", "stderr"} {
		r, w, err := os.Pipe()
		if err != nil {
			return nil, err
		}
		if name == "stdout" {
			if err := syscall.Dup3(int(w.Fd()), 1, 0); err != nil {
				return nil, fmt.Errorf("capturing %s: %w", name, err)
			}
			w.Close()
		} else {
			fd2 = os.Stderr
			os.Stderr = w
			log.SetOutput(w)
		}
		c.streams = append(c.streams, textpipe.Start(r, func(text []byte) {
			_ = ev.send(event{Type: "stream", Name: name, Text: string(text)})
		}))
	}
	return c, nil
}

// sync returns once everything written to the streams so far was sent.
func (c *capture) sync() {
	for _, s := range c.streams {
		s.Sync()
	}
}

// closeOnExec keeps files from processes a cell starts: a child holding
// the worker's pipes would keep the engine waiting after the worker ends.
func closeOnExec(files ...*os.File) {
	for _, f := range files {
		if f != nil {
			syscall.CloseOnExec(int(f.Fd()))
		}
	}
}
