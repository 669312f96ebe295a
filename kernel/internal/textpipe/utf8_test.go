package textpipe

import "testing"

func TestHeldBack(t *testing.T) {
	for _, c := range []struct {
		text string
		want int
	}{
		{"", 0},
		{"abc", 0},
		{"a€", 0},
		{"a\xe2", 1},        // the first byte of €
		{"a\xe2\x82", 2},    // two of its three
		{"\xf0\x9f\x98", 3}, // three of 😀's four
		{"😀", 0},
		{"a\x82", 0}, // a stray continuation byte starts nothing
		{"\xe2\x82\xac\xe2", 1},
	} {
		if got := HeldBack([]byte(c.text)); got != c.want {
			t.Errorf("HeldBack(%q) = %d, want %d", c.text, got, c.want)
		}
	}
}
