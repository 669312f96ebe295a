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

// An interrupt ends the processes the session's cells started, as it
// ends the worker.
func TestInterruptEndsCellProcesses(t *testing.T) {
	e, mark := markedEngine(t)
	mustRun(t, e, []string{startsSleeps})
	proctest.WaitNamed(t, mark, "sleep", 2, time.Minute) // startsSleeps's
	interrupt(t, e, 2, "for {\n}")
	proctest.WaitGone(t, mark, time.Minute)
}

// So do a restart and a shutdown.
func TestShutdownEndsCellProcesses(t *testing.T) {
	for _, restart := range []bool{true, false} {
		e, mark := markedEngine(t)
		mustRun(t, e, []string{startsSleeps})
		proctest.WaitNamed(t, mark, "sleep", 2, time.Minute) // startsSleeps's
		if err := e.Shutdown(restart); err != nil {
			t.Fatal(err)
		}
		proctest.WaitGone(t, mark, time.Minute)
	}
}
