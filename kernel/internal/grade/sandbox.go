package grade

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/interp/golist"
)

// A Sandbox says how a submission's worker is kept from the teacher's
// files and the network, beside what its interpreter refuses (the
// packages that reach files, processes and the network: see package
// interp's Sandbox).
type Sandbox struct {
	// Network is false when the worker gets a network namespace of its
	// own, with no interface but loopback: nothing it opens leaves the
	// machine, or reaches a port of it.
	Network bool
	// Why says why the network could not be cut off, when Network.
	Why string
	// goEnv is what homeGoEnv gave when the sandbox was made.
	goEnv []string
}

// Describe says in a line how a worker runs in this sandbox, for
// tensornb grade's first line.
func (s Sandbox) Describe() string {
	network := "with no network (a network namespace of its own)"
	if s.Network {
		network = "with the network open"
	}
	return "each submission's worker on this machine, as you, in an empty directory of its own, " + network
}

// homeGoEnv returns the go command's variables whose defaults follow the
// home directory, as the teacher's go command takes them, but those the
// teacher's environment sets itself: the worker, whose home is a scratch
// one, is given them, so that its type checker finds the packages' export data (go
// list -export) in the teacher's caches without the network, as it finds
// the listings of them the teacher's kernels kept (golist.ListingsVar).
// Everything else that names a place is the submission's own. What the
// environment sets is passed on as it is, so that a worker's go command
// runs in the environment a kernel's would, and reads the same listings:
// a grading container's worker reads those its image's build kept.
func homeGoEnv() []string {
	names := []string{"GOCACHE", "GOPATH", "GOMODCACHE"}
	out, err := exec.Command("go", append([]string{"env"}, names...)...).Output()
	values := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if err != nil || len(values) != len(names) {
		return nil
	}
	var env []string
	for i, name := range names {
		// The module cache follows GOPATH unless set apart (go env -w,
		// whose file is in the teacher's home).
		follows := name == "GOMODCACHE" && values[i] == filepath.Join(values[1], "pkg", "mod")
		if os.Getenv(name) == "" && !follows {
			env = append(env, name+"="+values[i])
		}
	}
	return env
}

// Prepare returns what readies a worker's command to grade in dir, an
// empty directory: dir is its working directory, dir/home its home and
// dir/tmp its temporary directory; the go command's caches, and the
// listings of them, stay the teacher's, offline (GOPROXY=off); and where s says so, it runs in a
// network namespace of its own.
func (s Sandbox) Prepare(dir string) func(*exec.Cmd) {
	return func(cmd *exec.Cmd) {
		home, tmp := filepath.Join(dir, "home"), filepath.Join(dir, "tmp")
		_ = os.MkdirAll(home, 0o700)
		_ = os.MkdirAll(tmp, 0o700)
		cmd.Dir = dir
		env := []string{"HOME=" + home, "TMPDIR=" + tmp, "XDG_CACHE_HOME=" + filepath.Join(home, ".cache"), "GOPROXY=off", "GOFLAGS=-mod=mod"}
		env = append(env, s.goEnv...)
		if listings := golist.ListingsDir(); listings != "" {
			env = append(env, golist.ListingsVar+"="+listings)
		}
		cmd.Env = append(cmd.Env, env...) // later entries win
		if !s.Network {
			isolate(cmd)
		}
	}
}
