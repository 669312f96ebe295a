package tensor

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Every part of a job runs exactly once, whether the crew spins between
// jobs or has gone to sleep (a pause longer than crewSpin).
func TestCrewRunsEveryPartOnce(t *testing.T) {
	for round := range 200 {
		count := 2 + round%5
		runs := make([]atomic.Int32, count)
		if !crewRun(count, func(p int) { runs[p].Add(1) }) {
			t.Fatalf("round %d: the crew was busy with no other caller", round)
		}
		for p := range runs {
			if n := runs[p].Load(); n != 1 {
				t.Fatalf("round %d: part %d of %d ran %d times", round, p, count, n)
			}
		}
		if round%20 == 0 {
			time.Sleep(3 * crewSpin) // the crew falls asleep
		}
	}
}

// Callers that run parallel loops at once each get every part run once:
// one holds the crew, the others start goroutines of their own.
func TestCrewSharedByCallers(t *testing.T) {
	var wg sync.WaitGroup
	for c := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := range 100 {
				n, count := 100+c, 2+round%3
				seen := make([]atomic.Int32, n)
				runParts(n, count, func(_, lo, hi int) {
					for i := lo; i < hi; i++ {
						seen[i].Add(1)
					}
				})
				for i := range seen {
					if k := seen[i].Load(); k != 1 {
						t.Errorf("caller %d, round %d: index %d ran %d times", c, round, i, k)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
}

// A finished job leaves nothing of its own alive: the crew does not keep
// its function, or what the function holds (a product's operands and
// result), until the next job.
func TestCrewKeepsNoJob(t *testing.T) {
	held := &[1 << 16]float32{}
	freed := make(chan struct{})
	runtime.AddCleanup(held, func(ch chan struct{}) { close(ch) }, freed)
	func(h *[1 << 16]float32) { crewRun(2, func(part int) { h[part]++ }) }(held) // each part writes its own element: two parts writing h[0] raced
	held = nil
	// A collection finds it unreachable; the cleanup then runs in a
	// goroutine of its own, late on a loaded machine. So collect until it
	// has run: a minute of collections, far longer than any machine takes
	// to run the cleanup, means the crew still holds it.
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); {
		runtime.GC()
		select {
		case <-freed:
			return
		case <-time.After(10 * time.Millisecond):
		}
	}
	t.Fatal("what the last job's function held is still alive a minute after it finished")
}
