package procs

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// detach starts cmd in a process group of its own, killed with SIGKILL
// if this process dies. In a group of its own, it does not get the
// signals a terminal or Jupyter send the kernel's group: the kernel gets
// them and ends it. The parent death signal comes when the thread that
// started the child ends; the kernel locks no goroutine to its thread, so
// Go does not end its threads.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// ownGroup starts cmd in a process group of its own, which signals to
// the kernel's group do not reach.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

func kill(pid int) { _ = syscall.Kill(pid, syscall.SIGKILL) }

// find returns the live processes of t.
func (t Tag) find() []*Process {
	dirs, _ := os.ReadDir("/proc")
	found := map[int]*Process{}
	parents := map[int]int{}
	var order []*Process
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile("/proc/" + d.Name() + "/environ")
		if err != nil || !t.has(lookup(env, Var)) {
			continue
		}
		comm, ppid, ok := stat(d.Name())
		if !ok {
			continue
		}
		p := &Process{PID: pid, Comm: comm}
		found[pid], parents[pid] = p, ppid
		order = append(order, p)
	}
	for _, p := range order {
		p.Parent = found[parents[p.PID]]
	}
	return order
}

// lookup returns the value of name in the NUL-separated environment env.
func lookup(env []byte, name string) string {
	for _, kv := range bytes.Split(env, []byte{0}) {
		if v, ok := bytes.CutPrefix(kv, []byte(name+"=")); ok {
			return string(v)
		}
	}
	return ""
}

// stat returns the command name and parent of the process pid, and ok
// false if it has ended or is a zombie.
func stat(pid string) (comm string, ppid int, ok bool) {
	data, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return "", 0, false
	}
	// pid (comm) state ppid …, where comm may hold spaces and parentheses.
	open, end := bytes.IndexByte(data, '('), bytes.LastIndexByte(data, ')')
	if open < 0 || end < open {
		return "", 0, false
	}
	fields := bytes.Fields(data[end+1:])
	if len(fields) < 2 || string(fields[0]) == "Z" {
		return "", 0, false
	}
	ppid, err = strconv.Atoi(string(fields[1]))
	return string(data[open+1 : end]), ppid, err == nil
}
