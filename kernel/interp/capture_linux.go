package interp

import (
	"errors"
	"fmt"
	"log"
	"os"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"
	"unsafe"
)

// A capture sends what the process writes to file descriptor 1 and
// os.Stderr as stream events.
type capture struct{ streams []*stream }

// A stream is one captured output and the goroutine that reads its pipe.
type stream struct {
	name string
	r    *os.File
	// mu makes syncs one at a time; requests carries a sync's request to
	// the reader, which answers on the channel it sent.
	mu       sync.Mutex
	requests chan chan struct{}
}

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
		s := &stream{name: name, r: r, requests: make(chan chan struct{}, 1)}
		go s.read(ev)
		c.streams = append(c.streams, s)
	}
	return c, nil
}

// sync returns once everything written to the streams so far was sent.
//
// It asks each stream's reader, out of band (a cell can write anything to
// the streams, so nothing in them may mean "synced"), and wakes the
// reader with a read deadline. The reader then sends what it has, and
// what the pipe holds at that moment, which is everything written before
// the request that it had not read yet.
func (c *capture) sync() {
	for _, s := range c.streams {
		s.mu.Lock()
		done := make(chan struct{})
		s.requests <- done
		_ = s.r.SetReadDeadline(time.Now())
		<-done
		s.mu.Unlock()
	}
}

// read sends what arrives on the stream's pipe, holding back an
// incomplete UTF-8 sequence until the rest arrives, and answers syncs.
func (s *stream) read(ev *events) {
	var pending []byte
	buf := make([]byte, 64<<10)
	for {
		n, err := s.r.Read(buf)
		pending = append(pending, buf[:n]...)
		if errors.Is(err, os.ErrDeadlineExceeded) {
			// A sync's wake-up, or a stale one: clear the deadline first,
			// so that a request sent after the check below still wakes
			// the next read.
			_ = s.r.SetReadDeadline(time.Time{})
			err = nil
		}
		select {
		case done := <-s.requests:
			pending = s.drain(pending, buf)
			s.send(ev, pending)
			pending = pending[:0]
			close(done)
		default:
			keep := heldBack(pending)
			s.send(ev, pending[:len(pending)-keep])
			pending = append(pending[:0], pending[len(pending)-keep:]...)
		}
		if err != nil {
			return
		}
	}
}

// drain appends to pending the bytes the pipe holds now. The sync being
// answered may set its wake-up deadline only now, after the reader took
// its request: such a deadline is spent here, not allowed to cut the
// drain short.
func (s *stream) drain(pending, buf []byte) []byte {
	left := s.unread()
	for left > 0 {
		n, err := s.r.Read(buf[:min(left, len(buf))])
		pending = append(pending, buf[:n]...)
		left -= n
		if errors.Is(err, os.ErrDeadlineExceeded) {
			_ = s.r.SetReadDeadline(time.Time{})
		} else if err != nil {
			break
		}
	}
	return pending
}

// unread is how many bytes the stream's pipe holds (FIONREAD).
func (s *stream) unread() int {
	var n int32
	rc, err := s.r.SyscallConn()
	if err != nil {
		return 0
	}
	_ = rc.Control(func(fd uintptr) {
		if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCINQ, uintptr(unsafe.Pointer(&n))); errno != 0 {
			n = 0
		}
	})
	return int(n)
}

func (s *stream) send(ev *events, text []byte) {
	if len(text) > 0 {
		_ = ev.send(event{Type: "stream", Name: s.name, Text: string(text)})
	}
}

// heldBack is how many bytes at the end of p may be the start of a UTF-8
// sequence that is not complete yet.
func heldBack(p []byte) int {
	for k := 1; k <= min(utf8.UTFMax-1, len(p)); k++ {
		if utf8.RuneStart(p[len(p)-k]) {
			if !utf8.FullRune(p[len(p)-k:]) {
				return k
			}
			break
		}
	}
	return 0
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
