//go:build !linux

package tensor

// physicalMemory returns the bytes of memory this process may use, where
// the platform gives no simple way to ask.
func physicalMemory() uint64 { return fallbackMemory }
