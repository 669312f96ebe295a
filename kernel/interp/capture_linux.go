package interp

import (
	"bytes"
	"fmt"
	"os"
	"syscall"
	"unicode/utf8"
)

// syncMark is written into a captured stream to learn when everything
// written before it has been sent.
var syncMark = []byte("\x00tensornb-sync\x00")

// A capture sends what the process writes to file descriptors 1 and 2 as
// stream events.
type capture struct{ streams []*stream }

type stream struct {
	fd     int
	name   string
	synced chan struct{}
}

// captureStreams points file descriptors 1 and 2 at pipes that this
// process reads, so that everything written to them (by interpreted code,
// compiled code or the runtime) becomes an event, in order with displays.
func captureStreams(ev *events) (*capture, error) {
	c := &capture{}
	for _, s := range []*stream{{fd: 1, name: "stdout"}, {fd: 2, name: "stderr"}} {
		r, w, err := os.Pipe()
		if err != nil {
			return nil, err
		}
		if err := syscall.Dup3(int(w.Fd()), s.fd, 0); err != nil {
			return nil, fmt.Errorf("capturing %s: %w", s.name, err)
		}
		w.Close()
		s.synced = make(chan struct{})
		go s.read(r, ev)
		c.streams = append(c.streams, s)
	}
	return c, nil
}

// sync returns once everything written to the streams so far was sent.
func (c *capture) sync() {
	for _, s := range c.streams {
		if _, err := syscall.Write(s.fd, syncMark); err != nil {
			continue
		}
		<-s.synced
	}
}

// read sends what arrives on r, holding back a possible start of the
// sync mark and an incomplete UTF-8 sequence until the rest arrives.
func (s *stream) read(r *os.File, ev *events) {
	var pending []byte
	buf := make([]byte, 64<<10)
	for {
		n, err := r.Read(buf)
		pending = append(pending, buf[:n]...)
		for {
			i := bytes.Index(pending, syncMark)
			if i < 0 {
				break
			}
			s.send(ev, pending[:i])
			pending = pending[i+len(syncMark):]
			s.synced <- struct{}{}
		}
		keep := heldBack(pending)
		s.send(ev, pending[:len(pending)-keep])
		pending = append([]byte(nil), pending[len(pending)-keep:]...)
		if err != nil {
			return
		}
	}
}

func (s *stream) send(ev *events, text []byte) {
	if len(text) > 0 {
		_ = ev.send(event{Type: "stream", Name: s.name, Text: string(text)})
	}
}

// heldBack is how many bytes at the end of p may be the start of the sync
// mark or of a UTF-8 sequence that is not complete yet.
func heldBack(p []byte) int {
	for k := min(len(syncMark)-1, len(p)); k > 0; k-- {
		if bytes.HasPrefix(syncMark, p[len(p)-k:]) {
			return k
		}
	}
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
