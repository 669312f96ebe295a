//go:build !linux

package worker

import (
	"errors"
	"os"
)

// A capture would send file descriptor 1 and os.Stderr as events; it
// needs Linux.
type capture struct{}

func captureStreams(*events) (*capture, error) {
	return nil, errors.New("the instant engine captures cell output on Linux only; use the compiled kernel (GoNB)")
}

func (*capture) sync() {}

func closeOnExec(...*os.File) {}
