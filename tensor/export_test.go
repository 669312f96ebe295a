package tensor

// MatmulKernel is the name of the matrix product kernel in use, for the
// external tests and benchmarks, with the note that says why it is not
// the one TENSORNB_MATMUL_KERNEL asked for, if it is not.
func MatmulKernel() (name, note string) { return matmulKernel.name, matmulKernelNote }

// RunnableMatmulKernels names the kernels this CPU runs, fastest first.
func RunnableMatmulKernels() []string {
	var names []string
	for _, k := range append(archKernels(), portableKernels) {
		if k.lacks == "" {
			names = append(names, k.name)
		}
	}
	return names
}

// WithMatmulKernel runs f with the kernel named name in use, one that
// this CPU runs. Tests that call it must not run in parallel with others
// that multiply matrices.
func WithMatmulKernel(name string, f func()) {
	saved := matmulKernel
	defer func() { matmulKernel = saved }()
	for _, k := range append(archKernels(), portableKernels) {
		if k.name == name && k.lacks == "" {
			matmulKernel = k
			f()
			return
		}
	}
	panic("no runnable matmul kernel " + name)
}
