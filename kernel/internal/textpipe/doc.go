// Package textpipe reads a pipe as text for a notebook: what arrives is
// passed on in whole UTF-8 characters, never split between two pieces,
// and Sync waits until everything written to the pipe before it was
// passed on. Its Reader needs Linux (it asks the kernel how much a pipe
// holds); HeldBack, the rule that keeps characters whole, is for any writer
// of text in pieces.
package textpipe
