package interp

import (
	"errors"
	"sync"

	"github.com/tensornb/tensornb/kernel/internal/front"
)

// A prompter is interpreted cells' standard input: os.Stdin, and what
// fmt.Scan and its kin read. A read that finds no typed text left asks
// the front end for a line (ask, which waits for the answer), as a
// terminal waits for its user to type one; the line is read with its
// newline. What a cell leaves unread of a line is dropped when the next
// cell starts (reset), so that each cell asks for its own input.
//
// If ask fails, the read panics with the cell's error: a front end that
// does not allow input gives StdinNotImplementedError, as ipykernel's
// input() raises it, rather than an end of file a cell might take for
// an empty answer.
type prompter struct {
	ask func() (string, error)

	mu   sync.Mutex
	left []byte
}

// Read returns what is left of the last line typed, or asks for a new one.
func (p *prompter) Read(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(b) == 0 {
		return 0, nil
	}
	if len(p.left) == 0 {
		line, err := p.ask()
		if err != nil {
			panic(front.StdinError(err))
		}
		p.left = []byte(line + "\n")
	}
	n := copy(b, p.left)
	p.left = p.left[n:]
	return n, nil
}

// reset drops what is left of the last line.
func (p *prompter) reset() {
	p.mu.Lock()
	p.left = nil
	p.mu.Unlock()
}

// errNoStdin is what a session made without a way to ask gives a read.
var errNoStdin = errors.New("nobody is there to type it (this session has no standard input)")
