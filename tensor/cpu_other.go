//go:build !amd64

package tensor

// l1DataBytes returns 0: this architecture's cache sizes are not read,
// and the matrix products assume a first-level data cache of 32 KiB.
func l1DataBytes() int { return 0 }
