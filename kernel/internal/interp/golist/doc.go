// Package golist gives a server's instant engine the types of the
// packages cells import, from the export data the go command writes
// (`go list -export`), and their doc comments from their source files.
// What the go command answered for a worker's start is kept in the
// user's cache directory for the next worker (listings.go).
package golist
