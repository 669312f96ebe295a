package grade

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// isolate gives cmd a network namespace of its own; a user who is not
// root gets a user namespace with it, which maps their own user id, as
// unprivileged processes may make one.
func isolate(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Cloneflags |= syscall.CLONE_NEWNET
	if uid, gid := os.Getuid(), os.Getgid(); uid != 0 {
		cmd.SysProcAttr.Cloneflags |= syscall.CLONE_NEWUSER
		cmd.SysProcAttr.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
		cmd.SysProcAttr.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
	}
}

// NewSandbox returns the sandbox this machine allows: it tries to start
// probe (a command that exits 0 at once) in a network namespace of its
// own, and if the kernel refuses, says why the network stays open.
func NewSandbox(probe ...string) Sandbox {
	cmd := exec.Command(probe[0], probe[1:]...)
	isolate(cmd)
	if err := cmd.Run(); err != nil {
		return Sandbox{Network: true, Why: fmt.Sprintf("this machine does not let tensornb make a network namespace (%v)", err), goEnv: homeGoEnv()}
	}
	return Sandbox{goEnv: homeGoEnv()}
}
