package front

import (
	"fmt"
	"sync"
	"unicode/utf8"
)

// A StreamLimit keeps the text one cell prints (stdout and stderr
// together) within Limit bytes: past it, the text is dropped, and the
// cell's output says so, once when it starts and once more, with how much
// was dropped, when the cell ends. The cell goes on running. Its zero
// value has no limit.
type StreamLimit struct {
	Limit int64  // bytes; 0 for none
	Hint  string // how to change the limit, at the end of each notice

	mu       sync.Mutex
	streamed int64 // text kept
	dropped  int64 // text dropped
}

// cut returns what of text to publish, cut between characters, and the
// notice to publish after it the first time text is dropped ("" if none).
func (s *StreamLimit) cut(text string) (keep, notice string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(text)
	if s.Limit > 0 && s.streamed+int64(n) > s.Limit {
		n = int(s.Limit - s.streamed)
		for n > 0 && !utf8.RuneStart(text[n]) {
			n--
		}
	}
	if n < len(text) && s.dropped == 0 {
		notice = fmt.Sprintf("\ntensornb: this cell printed more than %s; what it prints from here on is dropped (the cell goes on running). %s\n", mib(s.Limit), s.Hint)
	}
	s.streamed += int64(n)
	s.dropped += int64(len(text) - n)
	return text[:n], notice
}

// Publish passes to stream what of text (printed on the stream name) to
// publish, then the notice, on stderr, the first time text is dropped.
func (s *StreamLimit) Publish(name, text string, stream func(name, text string)) {
	keep, notice := s.cut(text)
	if keep != "" {
		stream(name, keep)
	}
	if notice != "" {
		stream("stderr", notice)
	}
}

// Dropped is the notice to publish when the cell ends, if it printed past
// the limit, or "".
func (s *StreamLimit) Dropped() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dropped == 0 {
		return ""
	}
	return fmt.Sprintf("tensornb: %s of this cell's output was dropped, past the limit of %s. %s\n", mib(s.dropped), mib(s.Limit), s.Hint)
}

// mib writes a number of bytes in MiB.
func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
