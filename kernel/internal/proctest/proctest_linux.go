package proctest

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Var is the environment variable that carries a test's mark.
const Var = "TENSORNB_TEST_MARK"

// Mark returns a new mark as an environment entry (Var=value) to add to
// what the test starts. When the test ends, any process still carrying it
// is killed, so that a failing test leaves nothing behind.
func Mark(t testing.TB) string {
	t.Helper()
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	entry := Var + "=" + hex.EncodeToString(b)
	t.Cleanup(func() {
		for _, p := range Find(entry) {
			_ = syscall.Kill(p.PID, syscall.SIGKILL)
		}
	})
	return entry
}

// A Process is a live process that carries a mark.
type Process struct {
	PID, PPID int
	Comm      string // its command name, as /proc/PID/comm has it
}

func (p Process) String() string { return fmt.Sprintf("%s (pid %d, parent %d)", p.Comm, p.PID, p.PPID) }

// Find returns the live processes whose environment holds entry (a
// mark from Mark); zombies, which hold nothing, are not among them.
func Find(entry string) []Process {
	dirs, _ := os.ReadDir("/proc")
	var found []Process
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
		if err != nil || !hasEntry(env, entry) {
			continue
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		// pid (comm) state ppid …; comm may hold spaces and parentheses.
		open, end := bytes.IndexByte(stat, '('), bytes.LastIndexByte(stat, ')')
		if open < 0 || end < open {
			continue
		}
		fields := strings.Fields(string(stat[end+1:]))
		if len(fields) < 2 || fields[0] == "Z" {
			continue
		}
		ppid, _ := strconv.Atoi(fields[1])
		found = append(found, Process{PID: pid, PPID: ppid, Comm: string(stat[open+1 : end])})
	}
	return found
}

// hasEntry reports whether the NUL-separated environment env holds entry.
func hasEntry(env []byte, entry string) bool {
	for _, kv := range bytes.Split(env, []byte{0}) {
		if string(kv) == entry {
			return true
		}
	}
	return false
}

// Named returns the processes among ps whose command name is name.
func Named(ps []Process, name string) []Process {
	var out []Process
	for _, p := range ps {
		if p.Comm == name {
			out = append(out, p)
		}
	}
	return out
}

// WaitFor polls Find(entry) until ok accepts what it found, for up to
// limit, and returns the last processes found and whether ok accepted
// them.
func WaitFor(entry string, limit time.Duration, ok func([]Process) bool) ([]Process, bool) {
	deadline := time.Now().Add(limit)
	for {
		ps := Find(entry)
		if ok(ps) {
			return ps, true
		}
		if time.Now().After(deadline) {
			return ps, false
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// WaitNamed waits up to limit for n processes named name to carry entry,
// and fails the test, naming those it found, if they do not.
func WaitNamed(t testing.TB, entry, name string, n int, limit time.Duration) {
	t.Helper()
	if ps, ok := WaitFor(entry, limit, func(ps []Process) bool { return len(Named(ps, name)) == n }); !ok {
		t.Fatalf("%d processes named %s did not start: %v", n, name, ps)
	}
}

// WaitGone waits up to limit for no process to carry entry, and fails
// the test, naming those left, if some still do.
func WaitGone(t testing.TB, entry string, limit time.Duration) {
	t.Helper()
	start := time.Now()
	left, ok := WaitFor(entry, limit, func(ps []Process) bool { return len(ps) == 0 })
	if !ok {
		t.Errorf("%d processes still run %v after they should have ended: %v", len(left), limit, left)
		return
	}
	t.Logf("all gone after %v", time.Since(start).Round(time.Millisecond))
}
