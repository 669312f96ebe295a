//go:build !linux

package containers

// limits returns files and procs as they are: outside Linux, podman runs
// its containers in a Linux machine of its own, whose limits these are
// not.
func limits(files, procs uint64) (uint64, uint64) { return files, procs }
