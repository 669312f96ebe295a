package textpipe

import (
	"os"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

// pieces records what a Reader sends.
type pieces struct {
	mu  sync.Mutex
	got []string
}

func (p *pieces) add(text []byte) {
	p.mu.Lock()
	p.got = append(p.got, string(text))
	p.mu.Unlock()
}

func (p *pieces) all() (joined string, pieces int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.got, ""), len(p.got)
}

func pipe(t *testing.T) (r, w *os.File) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	return r, w
}

// Characters written one byte at a time arrive whole; Sync returns with
// everything written before it sent (all of it, even a character not
// finished yet); what is left when the pipe ends is sent as it is.
func TestWholeCharactersAndSync(t *testing.T) {
	r, w := pipe(t)
	p := &pieces{}
	reader := Start(r, p.add)
	text := strings.Repeat("é世🎉x", 2000)
	for i := range len(text) {
		if _, err := w.Write([]byte{text[i]}); err != nil {
			t.Fatal(err)
		}
		if i%997 == 0 && utf8.ValidString(text[:i+1]) {
			reader.Sync()
			if got, _ := p.all(); got != text[:i+1] {
				t.Fatalf("after a sync at byte %d, %d bytes were sent", i+1, len(got))
			}
		}
	}
	reader.Sync()
	if _, err := w.Write([]byte("\xf0\x9f")); err != nil { // the start of an emoji, never finished
		t.Fatal(err)
	}
	w.Close()
	reader.Wait()
	reader.Sync() // after the end: returns at once
	got, n := p.all()
	if got != text+"\xf0\x9f" {
		t.Fatalf("sent %d bytes in %d pieces, want %d", len(got), n, len(text)+2)
	}
	for i, piece := range p.got[:len(p.got)-1] {
		if !utf8.ValidString(piece) {
			t.Fatalf("piece %d of %d splits a character: %q", i, n, piece)
		}
	}
}

// A sync sets the read deadline that wakes the reader after it sends its
// request, so the deadline can pass while the reader is already draining
// the pipe for that request. The drain still takes every byte the pipe
// holds: a byte left behind would reach the client after the cell's end
// (CI saw 4097 of 65552 bytes of a cell arrive late that way).
func TestDrainOutlastsTheSyncDeadline(t *testing.T) {
	r, w := pipe(t)
	want := strings.Repeat("x", 40<<10)
	if _, err := w.WriteString(want); err != nil {
		t.Fatal(err)
	}
	reader := &Reader{f: r}
	_ = r.SetReadDeadline(time.Now()) // the sync's deadline, set mid-drain
	got := reader.drain(nil, make([]byte, 4<<10))
	if len(got) != len(want) {
		t.Fatalf("the drain took %d of the %d bytes the pipe held", len(got), len(want))
	}
	// The deadline is spent: the next read waits for data again.
	go func() { time.Sleep(10 * time.Millisecond); _, _ = w.WriteString("y") }()
	b := make([]byte, 1)
	if n, err := r.Read(b); n != 1 || err != nil {
		t.Fatalf("the read after the drain: %d bytes, %v", n, err)
	}
}
