// Package procs ends the processes a kernel started, however far they
// went: the worker and GoNB, what they start (gopls and its telemetry
// process, cells' programs), and what cells start, which may leave their
// parent's process group or outlive their parent.
//
// A process is tagged through its environment, which everything it
// starts inherits (unless a program clears its environment on purpose),
// and the processes of a tag are found in /proc and killed. A guard
// process kills them when the kernel ends, even killed with SIGKILL.
// Finding and killing work on Linux; elsewhere processes are tagged but
// Kill finds none, and the kernel only kills its own children.
package procs

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"
)

// Var is the environment variable that carries a process's tag.
const Var = "TENSORNB_PROCS"

// A Tag names a process and everything it starts. Tags nest: a tag under
// t is t, a slash and more, and the processes of t include those of the
// tags under it.
type Tag string

// New returns a new tag under this process's own (its Var), if it has
// one: a kernel started by a cell of another is among that cell's
// processes.
func New() Tag {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	t := hex.EncodeToString(b)
	if parent := os.Getenv(Var); parent != "" {
		t = parent + "/" + t
	}
	return Tag(t)
}

// Env is the environment entry that tags a process with t.
func (t Tag) Env() string { return Var + "=" + string(t) }

// Prepare tags cmd, which is about to start, with t (after the
// environment it sets, or this process's); on Linux it also starts cmd in
// a process group of its own, killed if this process dies.
func (t Tag) Prepare(cmd *exec.Cmd) {
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env, t.Env())
	detach(cmd)
}

// has reports whether a process whose Var is v is among t's.
func (t Tag) has(v string) bool {
	return t != "" && (v == string(t) || strings.HasPrefix(v, string(t)+"/"))
}

// A Process is a live process of a tag.
type Process struct {
	PID  int
	Comm string // its command name, as /proc/PID/comm has it
	// Parent is its parent if the parent is of the tag too, else nil
	// (init, say, once the parent died).
	Parent *Process
}

// killLimit bounds how long Kill tries: a process in uninterruptible
// sleep dies only when it wakes.
const killLimit = 5 * time.Second

// Kill kills, with SIGKILL, every process of t but the calling process and
// those spare reports true for (spare may be nil), and returns once none
// is left alive (zombies are not), or after killLimit. It looks again
// after each round, for what a process forked while it was being killed.
func (t Tag) Kill(spare func(*Process) bool) {
	deadline := time.Now().Add(killLimit)
	for {
		killed := 0
		for _, p := range t.find() {
			if p.PID == os.Getpid() || spare != nil && spare(p) {
				continue
			}
			kill(p.PID)
			killed++
		}
		if killed == 0 || time.Now().After(deadline) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Guard waits until r ends, then kills every process of t. The kernel
// starts its guard (StartGuard) with r the read end of a pipe whose write
// end only the kernel holds, so that r ends when the kernel does, however
// it ends: killed, it cannot end its children itself.
func (t Tag) Guard(r io.Reader) error {
	if t == "" {
		return fmt.Errorf("the guard has no tag: %s is not set", Var)
	}
	_, _ = io.Copy(io.Discard, r)
	t.Kill(nil)
	return nil
}

// guardWait bounds how long a guard's stop waits for it: a kernel that
// ends does not wait on a guard stuck in the system. The tests, which
// check the guard's end, make it longer than a loaded machine can take.
var guardWait = killLimit + time.Second

// StartGuard starts cmd, a program that calls Guard with its standard
// input and the tag of its environment, and returns a function that
// ends it: the guard then kills what is left of the tag and exits; stop
// waits for that, for up to a few seconds (guardWait).
func StartGuard(cmd *exec.Cmd) (stop func(), err error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	cmd.Stdin = r
	ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		w.Close()
		return nil, err
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	return func() {
		w.Close()
		select {
		case <-exited:
		case <-time.After(guardWait):
		}
	}, nil
}
