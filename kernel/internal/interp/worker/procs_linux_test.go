package worker

import (
	"testing"
	"time"

	"github.com/tensornb/tensornb/kernel/internal/proctest"
)

// startsSleeps is a cell that leaves two processes running: a child of
// the worker, and one in a session of its own, which left the worker's
// process group.
const startsSleeps = "sleep, _ := os.StartProcess(\"/bin/sleep\", []string{\"sleep\", \"1000\"}, &os.ProcAttr{})\n_ = sleep.Release()\nsh, _ := os.StartProcess(\"/bin/sh\", []string{\"sh\", \"-c\", \"setsid sleep 1000 &\"}, &os.ProcAttr{})\n_, _ = sh.Wait()"

// markedEngine returns an engine whose workers, and what they start,
// carry a mark of the test's.
func markedEngine(t *testing.T) (*Engine, string) {
	e := newEngine(t)
	mark := proctest.Mark(t)
	e.Env = append(e.Env, mark)
	return e, mark
}

// waitSleeps waits until the processes startsSleeps started are there.
func waitSleeps(t *testing.T, mark string) {
	t.Helper()
	if ps, ok := proctest.WaitFor(mark, time.Minute, func(ps []proctest.Process) bool { return len(proctest.Named(ps, "sleep")) == 2 }); !ok {
		t.Fatalf("the cell's processes did not start: %v", ps)
	}
}

// An interrupt ends the processes the session's cells started, as it
// ends the worker.
func TestInterruptEndsCellProcesses(t *testing.T) {
	e, mark := markedEngine(t)
	mustRun(t, e, []string{startsSleeps})
	waitSleeps(t, mark)
	interrupt(t, e, 2, "for {\n}")
	proctest.WaitGone(t, mark, time.Minute)
}

// So do a restart and a shutdown.
func TestShutdownEndsCellProcesses(t *testing.T) {
	for _, restart := range []bool{true, false} {
		e, mark := markedEngine(t)
		mustRun(t, e, []string{startsSleeps})
		waitSleeps(t, mark)
		if err := e.Shutdown(restart); err != nil {
			t.Fatal(err)
		}
		proctest.WaitGone(t, mark, time.Minute)
	}
}
