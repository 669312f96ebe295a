package worker

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// Between cells, with memory steady, the watch backs off to a look a
// second; a request, or memory that grows, brings it back to watchFast.
func TestMemoryWatchPace(t *testing.T) {
	w := newMemoryWatch()
	var waits []time.Duration
	for range 7 {
		waits = append(waits, w.next(100<<20))
	}
	want := []time.Duration{watchFast, 2 * watchFast, 4 * watchFast, 8 * watchFast, 16 * watchFast, watchSlow, watchSlow}
	// The first look finds the memory grown from nothing.
	if got := waits; !slices.Equal(got, want) {
		t.Fatalf("idle waits %v, want %v", got, want)
	}
	if got := w.next(100<<20 + watchCalm); got != watchFast {
		t.Errorf("after growing by watchCalm: %v, want %v", got, watchFast)
	}
	if got := w.next(100<<20 + watchCalm + 1); got != 2*watchFast {
		t.Errorf("after growing by a byte: %v, want %v", got, 2*watchFast)
	}
	w.Busy(true)
	select {
	case <-w.wake:
	default:
		t.Error("a request that starts does not wake the watch")
	}
	for range 3 {
		if got := w.next(100 << 20); got != watchFast {
			t.Fatalf("while busy: %v, want %v", got, watchFast)
		}
	}
	w.Busy(false)
	if got := w.next(100 << 20); got != 2*watchFast {
		t.Errorf("after the request: %v, want %v", got, 2*watchFast)
	}
}

// A goroutine that a cell left running, and that passes the limit once
// the worker has sat idle long enough for its watch to slow down, still
// ends it with the limit's report, which the next cell gives.
func TestOutOfMemoryBetweenCells(t *testing.T) {
	e := newEngine(t)
	e.Env = append(e.Env, smallMemory)
	mustRun(t, e, []string{"x := 1", "go func() {\n\ttime.Sleep(2 * time.Second)\n\tvar hoard [][]byte\n\tfor {\n\t\thoard = append(hoard, make([]byte, 16<<20))\n\t\ttime.Sleep(10 * time.Millisecond)\n\t}\n}()"})
	time.Sleep(5 * time.Second)
	items, err := executeIn(t, e, 3, "x + 1")
	note := stderr(items)
	if err != nil || items[len(items)-1] != "result: 2" || !strings.Contains(note, "out of memory (limit 256 MiB)") || !strings.Contains(note, "between cells") {
		t.Fatalf("%q %v", items, err)
	}
}
