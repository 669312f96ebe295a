package golist_test

import (
	"context"
	"io"
	"testing"

	"github.com/tensornb/tensornb/kernel/internal/interp/golist"
	"github.com/tensornb/tensornb/kernel/internal/interp/worker"
)

// TestWarmListsOnce checks that a session's warm-up runs the go command
// once for the export data of all the packages it imports (each run
// costs about 0.15 s of CPU, and a class starts 20 workers at once), that
// a first cell importing them runs it no more, and that the next
// session's warm-up does not run it at all: it reads the listing the
// first kept.
func TestWarmListsOnce(t *testing.T) {
	calls := golist.GoCalls(t)
	const cell = "import (\n\t\"fmt\"\n\t\"github.com/tensornb/tensornb/display\"\n\t\"github.com/tensornb/tensornb/tensor\"\n)\nx := tensor.Arange(6)\nfmt.Println(x)\ndisplay.Show(display.Layout(x))"
	for i, want := range []int{1, 1} {
		s, err := worker.NewSession("../../../..", io.Discard, nil)
		if err != nil {
			t.Fatal(err)
		}
		s.Warm()
		s.Ready()
		if err := s.Run(context.Background(), cell); err != nil {
			t.Fatal(err)
		}
		if n := calls(); n != want {
			t.Errorf("session %d: the go command has run %d times for the warm-ups and first cells of the sessions so far, want %d", i+1, n, want)
		}
	}
}
