//go:build unix

package main

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"sync/atomic"
	"testing"
	"time"
)

// watchParent watches nothing when JPY_PARENT_PID names no process it
// could outlive.
func TestWatchParentWithoutAParent(t *testing.T) {
	for _, v := range []string{"", "1", "0", "-5", "init", " 42"} {
		if watchParent(t.Context(), v, time.Millisecond, func(string) { t.Errorf("gone called for %q", v) }) {
			t.Errorf("JPY_PARENT_PID=%q: watched", v)
		}
	}
}

// The process JPY_PARENT_PID names ends: gone is called, once.
func TestWatchParentSeesItEnd(t *testing.T) {
	parent := exec.Command("sleep", "60")
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = parent.Process.Kill(); _ = parent.Wait() }()
	reasons := make(chan string, 2)
	if !watchParent(t.Context(), strconv.Itoa(parent.Process.Pid), 10*time.Millisecond, func(why string) { reasons <- why }) {
		t.Fatal("not watched")
	}
	select {
	case why := <-reasons:
		t.Fatalf("gone while the parent lives: %s", why)
	case <-time.After(100 * time.Millisecond):
	}
	_ = parent.Process.Kill()
	_ = parent.Wait()
	select {
	case why := <-reasons:
		t.Log(why)
	case <-time.After(time.Minute): // only a hang takes this long, on a loaded machine too
		t.Fatal("the parent ended, and gone was not called")
	}
	select {
	case why := <-reasons:
		t.Fatalf("gone called twice: %s", why)
	case <-time.After(100 * time.Millisecond):
	}
}

// This process is handed to another parent, as an orphan is, while the
// process JPY_PARENT_PID names lives on (a wrapper between them died):
// gone is called.
func TestWatchParentSeesItReparented(t *testing.T) {
	var ppid atomic.Int64
	ppid.Store(int64(os.Getppid()))
	defer func(old func() int) { getppid = old }(getppid)
	getppid = func() int { return int(ppid.Load()) }
	reasons := make(chan string, 1)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	if !watchParent(ctx, strconv.Itoa(os.Getpid()), 10*time.Millisecond, func(why string) { reasons <- why }) {
		t.Fatal("not watched")
	}
	select {
	case why := <-reasons:
		t.Fatalf("gone while the parent lives: %s", why)
	case <-time.After(100 * time.Millisecond):
	}
	ppid.Store(1)
	select {
	case why := <-reasons:
		t.Log(why)
	case <-time.After(time.Minute): // only a hang takes this long, on a loaded machine too
		t.Fatal("reparented, and gone was not called")
	}
}
