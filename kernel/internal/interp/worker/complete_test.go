package worker

import (
	"context"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// Through the worker: the first completion after the start waits for the
// packages to be imported rather than answering nothing, and a variable
// from an earlier cell completes, as in a session of this process.
func TestEngineCompletesFromTheStart(t *testing.T) {
	e := newEngine(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a hang, not a speed check
	defer cancel()
	// What a session in this process answers (TestCompleteTensorPackage
	// checks that against go/doc).
	s, err := NewSession("../../../..", io.Discard, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := s.Complete("tensor.", 7).Matches
	if len(want) < 10 {
		t.Fatalf("a session completes tensor. with %v", want)
	}
	c, err := e.Complete(ctx, "tensor.", 7)
	if err != nil || !slices.Equal(c.Matches, want) {
		t.Fatalf("first completion: %v %v", c.Matches, err)
	}
	if _, err := execute(t, e, "x := tensor.Zeros(2)"); err != nil {
		t.Fatal(err)
	}
	c, err = e.Complete(ctx, "x.Vi", 4)
	if err != nil || !slices.Equal(c.Matches, []string{"View"}) || c.CursorStart != 2 || len(c.Types) != 1 || c.Types[0].Signature != "func (x *Tensor) View(shape ...int) *Tensor" {
		t.Errorf("x.Vi: %+v %v", c, err)
	}
	data, found, err := e.Inspect(ctx, "x.View", 4, 0)
	if err != nil || !found || !strings.HasPrefix(data["text/plain"].(string), "func (x *Tensor) View(shape ...int) *Tensor\n\nView: View returns") {
		t.Errorf("inspect x.View: %v %v %v", data, found, err)
	}
	if _, found, err := e.Inspect(ctx, "x.View", 1, 0); err != nil || !found {
		t.Errorf("inspect x: %v %v", found, err)
	}
}

// BenchmarkComplete measures a complete reply through the engine, the
// worker's round trip included, for x. with x a tensor; it reports the
// median too.
func BenchmarkComplete(b *testing.B) {
	e := NewEngine(os.Args[0], "-test.run=^$")
	e.Env = []string{"TENSORNB_TEST_WORKER=1"}
	defer func() { _ = e.Shutdown(false) }()
	if err := e.Execute(context.Background(), "import \"github.com/tensornb/tensornb/tensor\"\nx := tensor.Zeros(2, 3)", &output{}); err != nil {
		b.Fatal(err)
	}
	var times []time.Duration
	for b.Loop() {
		start := time.Now()
		c, err := e.Complete(context.Background(), "y := x.View(3, 2).", 18)
		if err != nil || len(c.Matches) == 0 {
			b.Fatal(c, err)
		}
		times = append(times, time.Since(start))
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "median-ms")
}
