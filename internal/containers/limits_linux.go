package containers

import "syscall"

// limits returns files and procs, each lowered to this process's own
// limit of open files and of processes where that is lower: runc may not
// set a container's above them.
func limits(files, procs uint64) (uint64, uint64) {
	lower := func(resource int, want uint64) uint64 {
		var r syscall.Rlimit
		if err := syscall.Getrlimit(resource, &r); err == nil {
			want = min(want, r.Cur, r.Max)
		}
		return want
	}
	const rlimitNproc = 6 // RLIMIT_NPROC, which package syscall does not name
	return lower(syscall.RLIMIT_NOFILE, files), lower(rlimitNproc, procs)
}
