package tensor

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// The crew is the package's own goroutines that share the parallel loops'
// work, started at the first loop that needs them and kept. After a job
// each one spins for a moment, watching for the next one, before it
// sleeps: a loop that follows another at once, as the steps of a
// computation do, starts on every core without waiting for the operating
// system to wake one, which takes tens of microseconds on a virtual
// machine, a large part of a small matrix product. BLAS libraries keep
// their threads spinning for the same reason.
//
// One job runs at a time. A loop that finds the crew busy, as when
// goroutines of the caller's own run ops at once, starts goroutines of
// its own instead (runParts).

// crewSpin is how long a crew member watches for a next job after its
// last one, and how long a caller watches for the crew to finish before
// it sleeps.
const crewSpin = 100 * time.Microsecond

// crewJob is one job: count parts of f, each run once, by whichever crew
// member or caller claims it first.
type crewJob struct {
	seq      uint64 // the number of jobs posted before it
	f        func(part int)
	count    int
	claimed  atomic.Int64  // parts claimed so far
	finished atomic.Int64  // parts finished so far
	done     chan struct{} // closed when the last part finishes
}

// run claims parts of j and runs them until none is left.
func (j *crewJob) run() {
	for {
		p := int(j.claimed.Add(1)) - 1
		if p >= j.count {
			return
		}
		j.f(p)
		if int(j.finished.Add(1)) == j.count {
			close(j.done)
		}
	}
}

// crewMember is one goroutine of the crew.
type crewMember struct {
	sleeping atomic.Bool   // it waits on wake
	wake     chan struct{} // a job was posted while it slept
}

var crew struct {
	busy    atomic.Bool // a caller holds the crew
	job     atomic.Pointer[crewJob]
	posted  uint64     // jobs posted, written by the caller that holds busy
	mu      sync.Mutex // guards members' growth
	members atomic.Pointer[[]*crewMember]
}

// crewRun runs f(part) for every part in [0, count), sharing the parts
// between the caller and up to count-1 crew members, and reports false,
// having run nothing, when the crew is busy with another job.
func crewRun(count int, f func(part int)) bool {
	if !crew.busy.CompareAndSwap(false, true) {
		return false
	}
	defer crew.busy.Store(false)
	members := crewOf(count - 1)
	crew.posted++
	j := &crewJob{seq: crew.posted, f: f, count: count, done: make(chan struct{})}
	crew.job.Store(j)
	for _, m := range members {
		if m.sleeping.CompareAndSwap(true, false) {
			m.wake <- struct{}{}
		}
	}
	j.run()
	for deadline := time.Now().Add(crewSpin); j.finished.Load() < int64(count); {
		if time.Now().After(deadline) {
			<-j.done
			break
		}
		runtime.Gosched()
	}
	crew.job.Store(nil)
	return true
}

// crewOf returns the first n members of the crew, starting those not yet
// started.
func crewOf(n int) []*crewMember {
	if ms := crew.members.Load(); ms != nil && len(*ms) >= n {
		return (*ms)[:n]
	}
	crew.mu.Lock()
	defer crew.mu.Unlock()
	var ms []*crewMember
	if p := crew.members.Load(); p != nil {
		ms = *p
	}
	for len(ms) < n {
		m := &crewMember{wake: make(chan struct{}, 1)}
		ms = append(ms, m)
		go m.work()
	}
	crew.members.Store(&ms)
	return ms[:n]
}

// work is a crew member's life: it runs each job it sees, spins for a
// while after one, then sleeps until a caller wakes it. It remembers the
// last job by number, not by pointer, which would keep what the job's
// function holds alive.
func (m *crewMember) work() {
	var last uint64
	for {
		deadline := time.Now().Add(crewSpin)
		for {
			if j := crew.job.Load(); j != nil && j.seq != last {
				last = j.seq
				j.run()
				deadline = time.Now().Add(crewSpin)
				continue
			}
			if time.Now().After(deadline) {
				break
			}
			runtime.Gosched()
		}
		m.sleeping.Store(true)
		if j := crew.job.Load(); j != nil && j.seq != last && m.sleeping.CompareAndSwap(true, false) {
			continue // a job came as it fell asleep, and no one woke it
		}
		<-m.wake // the caller that set sleeping false sends this
	}
}
