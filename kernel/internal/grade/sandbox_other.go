//go:build !linux

package grade

import "os/exec"

// isolate does nothing: network namespaces are Linux's.
func isolate(*exec.Cmd) {}

// NewSandbox returns the sandbox this machine allows: outside Linux, one
// whose network stays open.
func NewSandbox(...string) Sandbox {
	return Sandbox{Network: true, Why: "network namespaces are Linux's, and this is not Linux", goEnv: homeGoEnv()}
}
