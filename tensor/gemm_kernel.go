package tensor

import (
	"fmt"
	"os"
	"strings"
)

// matmulKernels is a set of tile kernels, one for each element type, that
// the CPU check picks at start-up.
type matmulKernels struct {
	name string // as TENSORNB_MATMUL_KERNEL names it
	f32  gemmKernel[float32]
	f64  gemmKernel[float64]
	// lacks, when not empty, says why this CPU cannot run the kernels.
	lacks string
}

// matmulKernelVar names the environment variable that forces a kernel.
const matmulKernelVar = "TENSORNB_MATMUL_KERNEL"

// matmulKernel is the kernel set that the float32 and float64 matrix
// products use, and matmulKernelNote says why it is not the one
// TENSORNB_MATMUL_KERNEL asked for, when it is not.
var matmulKernel, matmulKernelNote = chooseMatmulKernel(archKernels(), os.Getenv(matmulKernelVar))

func init() {
	if matmulKernelNote != "" {
		fmt.Fprintln(os.Stderr, "tensornb:", matmulKernelNote)
	}
}

// chooseMatmulKernel picks from known, the architecture's kernel sets
// fastest first, then the portable one: the fastest this CPU runs, or the
// one asked for. A kernel this CPU cannot run gives the fastest one below
// it that it can, and a name that is no kernel of this build the fastest
// of all; note then says so.
func chooseMatmulKernel(known []matmulKernels, asked string) (chosen matmulKernels, note string) {
	known = append(known, portableKernels)
	first := 0
	if asked != "" {
		first = -1
		for i, k := range known {
			if k.name == asked {
				first = i
			}
		}
	}
	if first < 0 {
		names := make([]string, len(known))
		for i, k := range known {
			names[i] = k.name
		}
		first = 0
		note = fmt.Sprintf("%s=%s is not a matrix product kernel of this build (%s)", matmulKernelVar, asked, strings.Join(names, ", "))
	} else if asked != "" && known[first].lacks != "" {
		note = fmt.Sprintf("%s=%s, but %s", matmulKernelVar, asked, known[first].lacks)
	}
	for _, k := range known[first:] {
		if k.lacks == "" {
			chosen = k
			break
		}
	}
	if note != "" {
		note += ": the " + chosen.name + " kernel runs instead"
	}
	return chosen, note
}
