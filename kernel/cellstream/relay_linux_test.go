package cellstream

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// writes records each write.
type writes [][]byte

func (w *writes) Write(p []byte) (int, error) {
	*w = append(*w, bytes.Clone(p))
	return len(p), nil
}

// The relay writes at most a pipe's atomic size at once, and each write
// ends with a whole character; bytes that are not UTF-8 pass unchanged.
func TestHandOnWritesWholeCharacters(t *testing.T) {
	for _, text := range []string{
		strings.Repeat("é世🎉x", 5000),
		strings.Repeat("\x80", 10000) + "é",
		"short",
	} {
		var w writes
		handOn(&w)([]byte(text))
		if got := string(bytes.Join(w, nil)); got != text {
			t.Fatalf("%d bytes in, %d out", len(text), len(got))
		}
		for i, p := range w {
			if len(p) > piece || utf8.ValidString(text) && !utf8.Valid(p) {
				t.Fatalf("write %d of %d: %d bytes, valid UTF-8: %v", i, len(w), len(p), utf8.Valid(p))
			}
		}
	}
}
