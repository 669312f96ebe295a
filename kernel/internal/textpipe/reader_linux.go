package textpipe

import (
	"errors"
	"os"
	"sync"
	"syscall"
	"time"
	"unsafe"
)

// A Reader reads a pipe and passes what arrives to its send function.
type Reader struct {
	f    *os.File
	send func(text []byte)
	// mu makes syncs one at a time; requests carries a sync's request to
	// the reading goroutine, which answers on the channel it was sent.
	mu       sync.Mutex
	requests chan chan struct{}
	ended    chan struct{} // closed when the pipe has ended
}

// Start reads f, until it ends, in a goroutine of its own, and calls send
// with each piece of text that arrives, in order, one call at a time. A
// piece ends with a whole character: the start of one that is not
// complete yet is kept for the next piece. At the end of the pipe, what
// is left is sent as it is.
func Start(f *os.File, send func(text []byte)) *Reader {
	r := &Reader{f: f, send: send, requests: make(chan chan struct{}, 1), ended: make(chan struct{})}
	go r.read()
	return r
}

// Sync returns once everything written to the pipe before the call was
// sent, or the pipe has ended.
//
// The request goes to the reading goroutine out of band (a program can
// write anything to the pipe, so nothing in it may mean "synced"), and a
// read deadline wakes the goroutine. It then sends what it holds and what
// the pipe holds at that moment, which is everything written before the
// request that it had not read yet.
func (r *Reader) Sync() {
	r.mu.Lock()
	defer r.mu.Unlock()
	done := make(chan struct{})
	select {
	case r.requests <- done:
	case <-r.ended:
		return
	}
	_ = r.f.SetReadDeadline(time.Now())
	select {
	case <-done:
	case <-r.ended:
	}
}

// Wait returns once the pipe has ended and everything in it was sent.
func (r *Reader) Wait() { <-r.ended }

func (r *Reader) read() {
	defer close(r.ended)
	var pending []byte
	buf := make([]byte, 64<<10)
	for {
		n, err := r.f.Read(buf)
		pending = append(pending, buf[:n]...)
		if errors.Is(err, os.ErrDeadlineExceeded) {
			// A sync's wake-up, or a stale one: clear the deadline first,
			// so that a request sent after the check below still wakes
			// the next read.
			_ = r.f.SetReadDeadline(time.Time{})
			err = nil
		}
		select {
		case done := <-r.requests:
			pending = r.drain(pending, buf)
			r.pass(pending)
			pending = pending[:0]
			close(done)
		default:
			if err != nil {
				r.pass(pending)
				return
			}
			keep := HeldBack(pending)
			r.pass(pending[:len(pending)-keep])
			pending = append(pending[:0], pending[len(pending)-keep:]...)
		}
		if err != nil {
			return
		}
	}
}

// drain appends to pending the bytes the pipe holds now. The sync being
// answered may set its wake-up deadline only now, after the goroutine took
// its request: such a deadline is spent here, not allowed to cut the
// drain short.
func (r *Reader) drain(pending, buf []byte) []byte {
	left := Unread(r.f)
	for left > 0 {
		n, err := r.f.Read(buf[:min(left, len(buf))])
		pending = append(pending, buf[:n]...)
		left -= n
		if errors.Is(err, os.ErrDeadlineExceeded) {
			_ = r.f.SetReadDeadline(time.Time{})
		} else if err != nil {
			break
		}
	}
	return pending
}

// Unread is how many bytes the pipe f holds (FIONREAD), read from either
// of its ends; 0 if f is not a pipe.
func Unread(f *os.File) int {
	var n int32
	rc, err := f.SyscallConn()
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

func (r *Reader) pass(text []byte) {
	if len(text) > 0 {
		r.send(text)
	}
}
