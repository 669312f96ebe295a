//go:build !amd64 && !arm64

package tensor

// archKernels is empty: this architecture (WebAssembly among them) has no
// assembly kernel, and runs the portable one.
func archKernels() []matmulKernels { return nil }
