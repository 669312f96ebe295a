package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"syscall"
	"time"
)

// parentPoll is how often a kernel looks whether the process that started
// it is still there: once a second, as ipykernel does.
const parentPoll = time.Second

// getppid is os.Getppid; a test replaces it.
var getppid = os.Getppid

// watchParent watches, until ctx ends, the process that started the
// kernel, whose pid jupyter_client puts in the kernel's environment as
// JPY_PARENT_PID (jpyParentPID is its value). Every interval it looks
// whether that process has ended, or whether this process has been handed
// to another parent, as an orphan is handed to init or to a subreaper
// (which also covers a parent that died but was not yet reaped, and a
// wrapper between the two that died). On the first of these it calls
// gone, once, with the reason.
//
// watchParent returns false, and watches nothing, when jpyParentPID is
// not a pid above 1: unset, the kernel was started by hand, by a test, or
// by a client that wants it independent; pid 1 never ends; and on
// Windows the variable holds a handle, not a pid.
func watchParent(ctx context.Context, jpyParentPID string, interval time.Duration, gone func(why string)) bool {
	pid, err := strconv.Atoi(jpyParentPID)
	if err != nil || pid <= 1 || runtime.GOOS == "windows" {
		return false
	}
	// On Linux, the Process holds a pidfd, so that a process that gets
	// the pid once the parent is gone is not taken for it.
	parent, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	ppid := getppid()
	go func() {
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			if err := parent.Signal(syscall.Signal(0)); errors.Is(err, os.ErrProcessDone) {
				gone(fmt.Sprintf("the process that started the kernel (pid %d, its JPY_PARENT_PID) has ended", pid))
				return
			}
			if now := getppid(); now != ppid {
				gone(fmt.Sprintf("the kernel's parent (pid %d) has ended: its parent is now pid %d", ppid, now))
				return
			}
		}
	}()
	return true
}
