package cellstream

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/janpfeifer/gonb/gonbui/protocol"
	_ "github.com/tensornb/tensornb/display" // its default sink, set as it starts, sends to GoNB
	"github.com/tensornb/tensornb/internal/displaysink"
	"github.com/tensornb/tensornb/kernel/internal/textpipe"
)

// relayEnv is set in the relay's environment: the copy of the program that
// starts with it relays instead of running the cell.
const relayEnv = "TENSORNB_CELL_RELAY"

// The relay's files: its standard output and error are GoNB's pipes.
const (
	stdoutIn = 0 // what the program writes to its standard output
	stderrIn = 3 // what the program writes to its standard error
	requests = 4 // a byte for each sync the program asks for
	answers  = 5 // a byte for each sync done
)

// piece is the most the relay writes to GoNB at once: a write of at most
// PIPE_BUF bytes reaches a pipe whole, so GoNB never reads half of one.
const piece = 4096

// gonbPipeSize is the capacity the relay gives GoNB's pipes: no more than
// GoNB reads at once (io.Copy's 32 KiB), so that each of GoNB's reads
// takes all the pipe holds, which is whole pieces.
const gonbPipeSize = 32 << 10

func init() {
	if os.Getenv(relayEnv) != "" {
		relay()
		os.Exit(0)
	}
	if os.Getenv(protocol.GONB_PIPE_ENV) == "" {
		return
	}
	if err := start(); err != nil {
		fmt.Fprintf(os.Stderr, "tensornb: output goes to the notebook as written (a character may be cut between two pieces of it): %v\n", err)
	}
	if err := askWhenRead(); err != nil {
		fmt.Fprintf(os.Stderr, "tensornb: reading the standard input will wait for ever (no input request can be made): %v\n", err)
	}
}

// A link is the program's side of the relay.
type link struct {
	mu       sync.Mutex
	req, ans *os.File
	broken   bool // the relay is gone
}

// start runs the relay and points file descriptors 1 and 2 at it.
func start() error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	var ends [4][2]*os.File // stdout, stderr, requests, answers: read and write ends
	for i := range ends {
		r, w, err := os.Pipe()
		if err != nil {
			return err
		}
		ends[i] = [2]*os.File{r, w}
	}
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), relayEnv+"=1")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = ends[0][0], os.Stdout, os.Stderr
	cmd.ExtraFiles = []*os.File{ends[1][0], ends[2][0], ends[3][1]}
	err = cmd.Start()
	for _, f := range []*os.File{ends[0][0], ends[1][0], ends[2][0], ends[3][1]} {
		f.Close()
	}
	if err != nil {
		for _, f := range []*os.File{ends[0][1], ends[1][1], ends[2][1], ends[3][0]} {
			f.Close()
		}
		return fmt.Errorf("starting the relay: %w", err)
	}
	for fd, w := range map[int]*os.File{1: ends[0][1], 2: ends[1][1]} {
		if err := syscall.Dup3(int(w.Fd()), fd, 0); err != nil {
			return fmt.Errorf("pointing file descriptor %d at the relay: %w", fd, err)
		}
		w.Close()
	}
	l := &link{req: ends[2][1], ans: ends[3][0]}
	gonb := displaysink.Get() // display's default: GoNB's pipe
	displaysink.Set(func(b map[string]string, id string, result bool) error {
		l.sync()
		return gonb(b, id, result)
	})
	return nil
}

// sync returns once the relay has handed on, and GoNB has read, everything
// written to file descriptors 1 and 2 before the call. If the relay is
// gone, it returns at once.
func (l *link) sync() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.broken {
		return
	}
	b := []byte{0}
	if _, err := l.req.Write(b); err != nil {
		l.broken = true
		return
	}
	if _, err := l.ans.Read(b); err != nil {
		l.broken = true
	}
}

// relay hands the program's output on to GoNB until every writer of it
// has closed it, and answers the program's syncs.
func relay() {
	// An interrupt is for the cell: what it wrote before it ended still
	// goes to the notebook.
	signal.Ignore(os.Interrupt)
	for _, fd := range []int{1, 2} {
		_, _, _ = syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_SETPIPE_SZ, gonbPipeSize)
	}
	readers := []*textpipe.Reader{
		textpipe.Start(pollable(stdoutIn, "stdout"), handOn(os.Stdout)),
		textpipe.Start(pollable(stderrIn, "stderr"), handOn(os.Stderr)),
	}
	go answerSyncs(readers, os.NewFile(requests, "requests"), os.NewFile(answers, "answers"))
	for _, r := range readers {
		r.Wait()
	}
}

// answerSyncs answers each request once both streams were handed on and
// GoNB has read them (within a second: GoNB reads its pipes at once).
func answerSyncs(readers []*textpipe.Reader, req, ans *os.File) {
	b := make([]byte, 1)
	for {
		if _, err := req.Read(b); err != nil {
			return
		}
		for _, r := range readers {
			r.Sync()
		}
		for wait := time.Duration(0); wait < time.Second && textpipe.Unread(os.Stdout)+textpipe.Unread(os.Stderr) > 0; wait += 100 * time.Microsecond {
			time.Sleep(100 * time.Microsecond)
		}
		if _, err := ans.Write(b); err != nil {
			return
		}
	}
}

// pollable makes an inherited pipe end a file that takes read deadlines,
// as textpipe needs.
func pollable(fd int, name string) *os.File {
	_ = syscall.SetNonblock(fd, true)
	return os.NewFile(uintptr(fd), name)
}

// handOn returns a function that writes text to f in pieces of at most
// piece bytes that each end with a whole character.
func handOn(f io.Writer) func(text []byte) {
	return func(text []byte) {
		for len(text) > 0 {
			n := min(len(text), piece)
			for n < len(text) && n > 0 && !utf8.RuneStart(text[n]) {
				n--
			}
			if n == 0 { // not UTF-8: no character to keep whole
				n = min(len(text), piece)
			}
			if _, err := f.Write(text[:n]); err != nil {
				return
			}
			text = text[n:]
		}
	}
}
