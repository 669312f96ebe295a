package gonb

import (
	"context"
	"testing"
	"time"

	"github.com/tensornb/tensornb/kernel/internal/proctest"
	"github.com/tensornb/tensornb/kernel/internal/tools"
)

// startsSleeps starts two processes and leaves them running: a child of
// the cell's program, and one in a session of its own.
const startsSleeps = "import \"os/exec\"\n_ = exec.Command(\"sleep\", \"1000\").Start()\n_ = exec.Command(\"sh\", \"-c\", \"setsid sleep 1000 &\").Run()"

// markedEngine returns an engine whose GoNB, and every process GoNB
// starts, carry a mark of the test's; gopls is running.
func markedEngine(t *testing.T) (*Engine, string) {
	t.Helper()
	mark := proctest.Mark(t)
	e := New(Options{GoNB: tools.GoNB.Path(toolsDir), ToolsDir: toolsDir, Env: []string{mark}})
	t.Cleanup(func() { _ = e.Shutdown(false) })
	if _, err := run(t, e, "x := 1\n_ = x"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), hangAfter) // gopls starts first
	defer cancel()
	if _, err := e.Complete(ctx, "import \"strings\"\nstrings.Fi", 21); err != nil {
		t.Fatal(err)
	}
	if ps, ok := proctest.WaitFor(mark, hangAfter, func(ps []proctest.Process) bool { return len(proctest.Named(ps, "gopls")) > 0 }); !ok {
		t.Fatalf("gopls did not start: %v", ps)
	}
	return e, mark
}

// An interrupt ends the processes cells started, the running cell's and
// earlier ones', but not GoNB and its gopls.
func TestInterruptEndsCellProcesses(t *testing.T) {
	e, mark := markedEngine(t)
	if _, err := run(t, e, startsSleeps); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- e.Execute(ctx, "import \"time\"\n"+startsSleeps+"\ntime.Sleep(time.Hour)", &recorder{})
	}()
	if ps, ok := proctest.WaitFor(mark, time.Minute, func(ps []proctest.Process) bool { return len(proctest.Named(ps, "sleep")) == 4 }); !ok {
		t.Fatalf("the cells' processes did not start: %v", ps)
	}
	before := proctest.Find(mark)
	cancel()
	if ce := cellError(t, <-done); ce.Name != "Interrupted" {
		t.Fatalf("interrupt: %v", ce)
	}
	// The sleeps would run 1000 s: only the interrupt ends them in time.
	left, ok := proctest.WaitFor(mark, hangAfter, func(ps []proctest.Process) bool { return len(proctest.Named(ps, "sleep")) == 0 })
	if !ok {
		t.Errorf("the cells' processes outlived the interrupt: %v", proctest.Named(left, "sleep"))
	}
	for _, name := range []string{"gonb", "gopls"} {
		if was, is := proctest.Named(before, name), proctest.Named(left, name); len(is) != len(was) || is[0].PID != was[0].PID {
			t.Errorf("%s before the interrupt: %v; after: %v", name, was, is)
		}
	}
	if r, err := run(t, e, "fmt.Println(\"next\")"); err != nil || r.streams["stdout"] != "next\n" {
		t.Fatalf("after the interrupt: %q %v", r.streams, err)
	}
}

// Shutdown ends GoNB, gopls and the processes cells started.
func TestShutdownEndsEveryProcess(t *testing.T) {
	e, mark := markedEngine(t)
	if _, err := run(t, e, startsSleeps); err != nil {
		t.Fatal(err)
	}
	proctest.WaitNamed(t, mark, "sleep", 2, time.Minute) // startsSleeps's
	t.Logf("before: %v", proctest.Find(mark))
	if err := e.Shutdown(true); err != nil {
		t.Fatal(err)
	}
	proctest.WaitGone(t, mark, hangAfter)
}

// A GoNB that dies (killed, say by the OOM killer) takes gopls and what
// the cells started with it, at once rather than with the next cell.
func TestDeadGoNBLeavesNothing(t *testing.T) {
	e, mark := markedEngine(t)
	if _, err := run(t, e, startsSleeps); err != nil {
		t.Fatal(err)
	}
	proctest.WaitNamed(t, mark, "sleep", 2, time.Minute) // startsSleeps's
	e.mu.Lock()
	c := e.child
	_ = c.cmd.Process.Kill()
	e.mu.Unlock()
	proctest.WaitGone(t, mark, hangAfter) // not with the next cell: there is none
	// The engine learns of the death once it has killed what GoNB left;
	// a cell sent before that meets the dead GoNB (and says the next cell
	// restarts it), which is not what this test is about.
	select {
	case <-c.exited:
	case <-time.After(hangAfter):
		t.Fatal("the engine did not notice that GoNB died")
	}
	if r, err := run(t, e, "fmt.Println(2)"); err != nil || r.streams["stdout"] != "2\n" {
		t.Fatalf("after GoNB died: %q %v", r.streams, err)
	}
}
