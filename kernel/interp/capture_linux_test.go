package interp

import (
	"os"
	"strings"
	"testing"
	"time"
)

// A sync sets the read deadline that wakes the reader after it sends its
// request, so the deadline can pass while the reader is already draining
// the pipe for that request. The drain still takes every byte the pipe
// holds: a byte left behind would reach the client after the cell's end
// (CI saw 4097 of 65552 bytes arrive late that way).
func TestDrainOutlastsTheSyncDeadline(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	want := strings.Repeat("x", 40<<10)
	if _, err := w.WriteString(want); err != nil {
		t.Fatal(err)
	}
	s := &stream{name: "stdout", r: r}
	_ = r.SetReadDeadline(time.Now()) // the sync's deadline, set mid-drain
	got := s.drain(nil, make([]byte, 4<<10))
	if len(got) != len(want) {
		t.Fatalf("the drain took %d of the %d bytes the pipe held", len(got), len(want))
	}
	// The deadline is spent: the reader's next read waits for data again.
	go func() { time.Sleep(10 * time.Millisecond); _, _ = w.WriteString("y") }()
	b := make([]byte, 1)
	if n, err := r.Read(b); n != 1 || err != nil {
		t.Fatalf("the read after the drain: %d bytes, %v", n, err)
	}
}
