package textpipe

import "unicode/utf8"

// HeldBack is how many bytes at the end of p may be the start of a UTF-8
// sequence that is not complete yet: what a writer of text in pieces
// keeps until the next piece, so that no character is split.
func HeldBack(p []byte) int {
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
