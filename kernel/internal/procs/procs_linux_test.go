package procs

import (
	"os"
	"os/exec"
	"slices"
	"testing"
	"time"
)

// The test binary is also a guard: with procsTestGuard set, it guards the
// tag of its environment instead of testing.
const procsTestGuard = "TENSORNB_PROCS_TEST_GUARD"

func TestMain(m *testing.M) {
	if os.Getenv(procsTestGuard) != "" {
		if err := Tag(os.Getenv(Var)).Guard(os.Stdin); err != nil {
			os.Stderr.WriteString(err.Error())
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// started runs script with sh under a new tag and waits until the
// processes of the tag are those named in want (command names, sorted).
// They start in milliseconds, in seconds on a loaded machine; it fails
// after a minute, which only processes that never start take.
func started(t *testing.T, script string, want ...string) (Tag, *exec.Cmd) {
	t.Helper()
	tag := New()
	cmd := exec.Command("sh", "-c", script)
	tag.Prepare(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		tag.Kill(nil)
		_ = cmd.Wait()
	})
	for deadline := time.Now().Add(time.Minute); !slices.Equal(names(tag.find()), want); {
		if time.Now().After(deadline) {
			t.Fatalf("the processes of the tag: %v, not %v", names(tag.find()), want)
		}
		time.Sleep(10 * time.Millisecond)
	}
	return tag, cmd
}

// names returns the command names of ps, sorted.
func names(ps []*Process) []string {
	var n []string
	for _, p := range ps {
		n = append(n, p.Comm)
	}
	slices.Sort(n)
	return n
}

// Kill ends the processes of a tag, those that left their parent's
// process group and those whose parent died too.
func TestKill(t *testing.T) {
	tag, cmd := started(t, "sleep 1000 & setsid sleep 1000 & (sleep 1000 &) ; wait", "sh", "sleep", "sleep", "sleep")
	tag.Kill(nil)
	if left := tag.find(); len(left) != 0 {
		t.Fatalf("left: %v", names(left))
	}
	if err := cmd.Wait(); err == nil {
		t.Fatal("sh was not killed")
	}
}

// Kill spares the processes spare picks, and sees their parents.
func TestKillSpares(t *testing.T) {
	tag, cmd := started(t, "sleep 1000 & tail -f /dev/null & wait", "sh", "sleep", "tail")
	sh := cmd.Process.Pid
	tag.Kill(func(p *Process) bool {
		return p.PID == sh || p.Comm == "tail" && p.Parent != nil && p.Parent.PID == sh
	})
	if left := names(tag.find()); !slices.Equal(left, []string{"sh", "tail"}) {
		t.Fatalf("left: %v", left)
	}
}

// Processes of another tag, or of none, are not killed.
func TestKillKeepsOtherTags(t *testing.T) {
	tag, _ := started(t, "sleep 1000; :", "sh", "sleep")
	other := New()
	other.Kill(nil)
	Tag("").Kill(nil)
	if left := names(tag.find()); len(left) != 2 {
		t.Fatalf("left: %v", left)
	}
}

// Tags nest: the processes of a tag include those of the tags under it.
func TestNestedTags(t *testing.T) {
	t.Setenv(Var, "outer")
	tag := New()
	if !Tag("outer").has(string(tag)) || tag.has("outer") || Tag("out").has(string(tag)) {
		t.Fatalf("tag %q under outer", tag)
	}
}

// A guard kills the processes of its tag once its input ends.
func TestGuard(t *testing.T) {
	// Its end is checked once stop returns: stop must wait for it, if a
	// loaded machine is slow to end it.
	defer func(wait time.Duration) { guardWait = wait }(guardWait)
	guardWait = 2 * time.Minute
	tag, _ := started(t, "setsid sleep 1000 & wait", "sh", "sleep")
	guard := exec.Command(os.Args[0], "-test.run=^$")
	guard.Env = append(os.Environ(), tag.Env(), procsTestGuard+"=1")
	guard.Stderr = os.Stderr
	stop, err := StartGuard(guard)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	if left := names(tag.find()); len(left) != 3 { // the guard is tagged too
		t.Fatalf("the guard killed before its input ended: %v", left)
	}
	stop()
	if left := tag.find(); len(left) != 0 {
		t.Fatalf("left: %v", names(left))
	}
	if guard.ProcessState == nil || !guard.ProcessState.Success() {
		t.Fatalf("the guard: %v", guard.ProcessState)
	}
}
