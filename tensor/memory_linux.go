//go:build linux

package tensor

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// physicalMemory returns the bytes of memory this process may use: the
// machine's RAM, or less if a cgroup (a container, a JupyterHub pod)
// limits it.
func physicalMemory() uint64 {
	var info syscall.Sysinfo_t
	limit := uint64(fallbackMemory)
	if syscall.Sysinfo(&info) == nil {
		limit = uint64(info.Totalram) * uint64(info.Unit)
	}
	for _, path := range []string{
		"/sys/fs/cgroup/memory.max",                   // cgroup v2
		"/sys/fs/cgroup/memory/memory.limit_in_bytes", // cgroup v1
	} {
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		if n, err := strconv.ParseUint(strings.TrimSpace(string(data)), 10, 64); err == nil && n < limit {
			limit = n
		}
	}
	return limit
}
