package grade

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tensornb/tensornb"
	"github.com/tensornb/tensornb/internal/containers"
	"github.com/tensornb/tensornb/kernel/internal/interp/worker"
)

// Images are the local images of tensornb that FindContainer tries when
// it is given none, in order: the one docker/README.md's build makes
// (docker build -t tensornb), and the one scripts/image builds and tests.
var Images = []string{"tensornb", "localhost/tensornb:image-test"}

// Label marks the containers of tensornb grade's workers: podman ps -a
// --filter label=tensornb.grade lists them. Its value is the run of
// tensornb grade that started them (see Container.Run).
const Label = "tensornb.grade"

// Pids bounds the processes and threads in a worker's container: the
// worker's own threads, and the go command its type checker runs.
const Pids = 256

// A Container runs each worker in a container of a tensornb image, as the
// image's own user, with no network and nothing of this machine in it
// (no volume, no mount, none of its environment): a submission's code
// reaches the worker only through its requests pipe, and every
// container starts from the image, with the image's home and
// temporary directory, and is removed when its worker ends.
type Container struct {
	// Engine runs the containers: podman, or docker.
	Engine *containers.Engine
	// Image is the image, as it was given or found.
	Image string
	// Binary and Source are the tensornb command installed in the image
	// and its module source, which the worker imports from.
	Binary, Source string
	// User is the image's user (its USER), which the worker runs as;
	// IDs are its uid and gid in the container (1000:100 in the tensornb
	// image), Home its home there.
	User, IDs, Home string
	// Version is what the image's tensornb version says.
	Version string
	// Memory is the worker's memory limit, past which a cell fails with
	// a MemoryError; the container may take a quarter more (the go
	// command the worker runs, the files it reads), and is killed past
	// that.
	Memory uint64
	// Run tells this run's containers from others' (their Label).
	Run string
	// Log is where Remove says that a container could not be removed.
	Log io.Writer
}

// FindContainer returns a Container of image (or, for "auto", of the
// first of Images that engine has) that the container engine named
// engine (podman, docker, or auto: podman if it is on PATH, else docker)
// can start, with workers limited to memory. dir is a directory for
// podman's configuration, if this machine needs one of its own (see
// containers.Start), which must outlive the Container. It starts one
// container to find where the image has tensornb installed, and returns
// an error that says why none can run, and what to do.
func FindContainer(ctx context.Context, engine, image, dir string, memory uint64) (*Container, error) {
	name, err := containers.Find(engine)
	if err != nil {
		return nil, err
	}
	c := &Container{Image: image, Memory: memory, Run: randomHex(6)}
	machine := &containers.Engine{Name: name}
	if image == "auto" {
		c.Image = ""
		var last error
		for _, candidate := range Images {
			if _, last = machine.Run(ctx, "image", "inspect", "--format", "{{.Id}}", candidate); last == nil {
				c.Image = candidate
				break
			}
		}
		if c.Image == "" {
			if err := answers(ctx, machine); err != nil {
				return nil, err
			}
			return nil, fmt.Errorf("%s has none of the images %s (it says: %s): build one (docker/README.md: %s build -f docker/Dockerfile -t tensornb .), or give -image", name, strings.Join(Images, ", "), lastLine(said(last)), name)
		}
	}
	user, err := machine.Run(ctx, "image", "inspect", "--format", "{{.Config.User}}", c.Image)
	if err != nil {
		if err := answers(ctx, machine); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("%s has no image %s (it says: %s): build it (docker/README.md), or name another with -image", name, c.Image, lastLine(said(err)))
	}
	c.User = user
	if user == "" || user == "root" || user == "0" || strings.HasPrefix(user, "0:") || strings.HasPrefix(user, "root:") {
		return nil, fmt.Errorf("the image %s runs as root (its USER is %q): grade runs each worker as the image's own user, which must not be root; build the image from docker/Dockerfile, which ends with USER 1000", c.Image, user)
	}
	// The image's own errors (no tensornb in it) are told from the
	// engine's (it cannot start a container here), which a configuration
	// of its own may mend.
	var imageErr error
	c.Engine, _, err = containers.Start(ctx, name, dir, func(e *containers.Engine) error {
		c.Engine = e
		imageErr = nil
		found, err := c.locate(ctx)
		var notHere *imageError
		if errors.As(err, &notHere) {
			imageErr = err
			return nil
		}
		if err != nil {
			return err
		}
		c.Binary, c.Source, c.Version, c.IDs, c.Home = found["binary"], found["source"], found["version"], found["ids"], found["home"]
		return nil
	})
	switch {
	case err != nil:
		return nil, err
	case imageErr != nil:
		return nil, imageErr
	case c.Binary == "" || c.Source == "":
		return nil, fmt.Errorf("the image %s did not say where tensornb is installed in it: build it again from docker/Dockerfile", c.Image)
	case strings.HasPrefix(c.IDs, "0:"):
		return nil, fmt.Errorf("the image %s's user %s is root in the container: build the image from docker/Dockerfile, which ends with USER 1000", c.Image, user)
	case c.Version != "tensornb "+tensornb.Version:
		return nil, fmt.Errorf("the image %s has %s, and this is tensornb %s: the worker in the image must be this tensornb's; build the image again from this tensornb's source (docker/README.md)", c.Image, c.Version, tensornb.Version)
	}
	return c, nil
}

// An imageError says that the image lacks what a worker needs.
type imageError struct{ msg string }

func (e *imageError) Error() string { return e.msg }

// locateScript runs in a container of the image and says where tensornb
// is installed in it: the command the Jupyter kernelspec tensornb runs,
// found as Jupyter finds it (jupyter_client's KernelSpecManager), and the
// module source that tensornb install puts beside it (<home>/bin/tensornb
// and <home>/src), wherever the install put them. It exits 3, saying
// why, if the image lacks one of them.
const locateScript = `fail() { echo "$*" >&2; exit 3; }
command -v python3 >/dev/null || fail "it has no python3 on its PATH: it is not a Jupyter image with tensornb installed"
find='
import sys
try:
    from jupyter_client.kernelspec import KernelSpecManager
    print(KernelSpecManager().get_kernel_spec("tensornb").argv[0])
except Exception as e:
    print(f"{type(e).__name__}: {e}")
    sys.exit(1)
'
bin=$(python3 -c "$find") ||
	fail "its Jupyter has no kernelspec tensornb ($bin): install tensornb in it (scripts/install -sys-prefix, as docker/Dockerfile does)"
[ -x "$bin" ] || fail "its kernelspec tensornb runs $bin, which is not a program in it"
src=$(dirname "$(dirname "$bin")")/src
[ -f "$src/go.mod" ] || fail "its tensornb has no module source beside it ($src/go.mod is missing): install tensornb in it again"
command -v go >/dev/null || fail "it has no go command on its PATH, which the worker's type checker runs"
echo "binary=$bin"
echo "source=$src"
echo "version=$("$bin" version)"
echo "ids=$(id -u):$(id -g)"
echo "home=$HOME"
`

// locate runs locateScript in a container of the image, started as a
// worker's is, and returns what it printed, by name. It returns an
// imageError if the image lacks what a worker needs, and another error
// if the engine could not run the container.
func (c *Container) locate(ctx context.Context) (map[string]string, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	args := append(c.runArgs("sh"), "-c", locateScript)
	cmd := c.Engine.Command(ctx, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if c.Engine.Name == containers.Podman {
		// Three files where a worker's pipes go, as --preserve-fds
		// wants them.
		null, err := os.Open(os.DevNull)
		if err != nil {
			return nil, err
		}
		defer null.Close()
		cmd.ExtraFiles = []*os.File{null, null, null}
	}
	out, err := cmd.Output()
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 3 {
		return nil, &imageError{fmt.Sprintf("the image %s cannot run tensornb's worker: %s", c.Image, strings.TrimSpace(stderr.String()))}
	}
	if err != nil {
		return nil, fmt.Errorf("%s run … %s sh -c …: %v: %s", c.Engine.Name, c.Image, err, strings.TrimSpace(stderr.String()))
	}
	found := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			found[k] = v
		}
	}
	return found, nil
}

// runArgs is the engine's command line, less the engine itself, that
// starts a worker's container with entrypoint as its program; its
// arguments follow.
func (c *Container) runArgs(entrypoint string) []string {
	limit := strconv.FormatUint(c.Memory+c.Memory/4, 10)
	args := []string{"run", "--rm",
		"--label=" + Label + "=" + c.Run,
		"--pull=never",
		"--network=none",
		"--user=" + c.User,
		"--memory=" + limit, "--memory-swap=" + limit,
		"--pids-limit=" + strconv.Itoa(Pids),
		"--cap-drop=all", "--security-opt=no-new-privileges",
		// The go command's caches are the image's, warm, and offline.
		"--env=GOPROXY=off", "--env=GOFLAGS=-mod=mod",
		"--env=TENSORNB_MEMORY_LIMIT=" + strconv.FormatUint(c.Memory, 10),
	}
	if c.Engine.Name == containers.Podman {
		// The worker's three pipes (worker.EventsFD, CrashFD,
		// RequestsFD) cross into the container as they are.
		args = append(args, "--preserve-fds=3")
	} else {
		// Docker passes no file but standard input, output and error:
		// the requests come on standard input, the events go to
		// standard output, and the crash reports to standard error.
		args = append(args, "--interactive")
	}
	return append(args, "--entrypoint="+entrypoint, c.Image)
}

// Command is a worker's command line: the engine's run of a container
// whose program is `tensornb worker -sandbox` with the image's module
// source. Prepare names each container as it starts.
func (c *Container) Command() []string {
	if c.Engine.Name == containers.Podman {
		return append(append([]string{c.Engine.Name}, c.runArgs(c.Binary)...), "worker", "-sandbox", c.Source)
	}
	// The shell gives the worker its three pipes from the container's
	// standard streams, and then is the worker.
	pipes := `exec "$0" worker -sandbox "$1" 3>&1 4>&2 5<&0 </dev/null >/dev/null`
	return append(append([]string{c.Engine.Name}, c.runArgs("sh")...), "-c", pipes, c.Binary, c.Source)
}

// Prepare readies a worker's command (Command) to start: it names its
// container, which Remove removes, and for docker passes the worker's
// pipes as the engine's standard input and output. It is an
// worker.Engine's Prepare.
func (c *Container) Prepare(cmd *exec.Cmd) {
	cmd.Args = slices.Insert(cmd.Args, 2, "--name="+c.Name())
	if c.Engine.Conf != "" {
		cmd.Env = append(cmd.Env, "CONTAINERS_CONF="+c.Engine.Conf)
	}
	if c.Engine.Name != containers.Podman && len(cmd.ExtraFiles) == 3 {
		cmd.Stdout = cmd.ExtraFiles[worker.EventsFD-3]
		cmd.Stdin = cmd.ExtraFiles[worker.RequestsFD-3]
		cmd.ExtraFiles = nil
	}
}

// Name returns a new name for a worker's container.
func (c *Container) Name() string {
	return "tensornb-grade-" + c.Run + "-" + randomHex(4)
}

// Remove removes the container of a worker that ended (its command, as
// Prepare named it), and returns once it is gone: a worker killed on an
// interrupt leaves its container running, as only the engine's client
// was killed. It is an worker.Engine's Ended.
func (c *Container) Remove(cmd *exec.Cmd) {
	var name string
	for _, arg := range cmd.Args {
		if n, ok := strings.CutPrefix(arg, "--name="); ok {
			name = n
			break
		}
	}
	if name == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	args := []string{"rm", "--force", "--ignore", "--time=0", name}
	if c.Engine.Name != containers.Podman {
		args = []string{"rm", "--force", name} // docker has no --ignore
	}
	// A container whose worker has just ended may be on its way out
	// (--rm) and refuse to be removed meanwhile: podman says "container
	// state improper". Ask again until it is gone.
	for wait := 50 * time.Millisecond; ; wait = min(2*wait, time.Second) {
		_, err := c.Engine.Run(ctx, args...)
		if err == nil || c.gone(ctx, name) {
			return
		}
		if ctx.Err() != nil {
			if c.Log != nil {
				fmt.Fprintf(c.Log, "tensornb grade: the container %s of a worker that ended could not be removed (%v): remove it with %s rm --force %s\n", name, err, c.Engine.Name, name)
			}
			return
		}
		time.Sleep(wait)
	}
}

// gone reports whether the engine no longer has the container name (of
// this run).
func (c *Container) gone(ctx context.Context, name string) bool {
	out, err := c.Engine.Run(ctx, "ps", "--all", "--filter", "label="+Label+"="+c.Run, "--format", "{{.Names}}")
	return err == nil && !slices.Contains(strings.Fields(out), name)
}

// Describe says in a line how the workers run, for tensornb grade's
// first line.
func (c *Container) Describe() string {
	return fmt.Sprintf("each submission's worker in a %s container of %s (%s): no network, no file of this machine, user %s (%s), home %s, %s of memory, %d processes",
		c.Engine.Name, c.Image, c.Version, c.User, c.IDs, c.Home, sizeText(c.Memory), Pids)
}

// sizeText writes a number of bytes as people read it: 512 MiB, 3.8 GiB.
func sizeText(n uint64) string {
	if n >= 1<<30 {
		return strconv.FormatFloat(float64(n)/(1<<30), 'f', 1, 64) + " GiB"
	}
	return strconv.FormatUint(n>>20, 10) + " MiB"
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// lastLine is the last line of s: of an engine's error, what it said last.
func lastLine(s string) string {
	s = strings.TrimRight(s, "\n")
	return s[strings.LastIndex(s, "\n")+1:]
}

// answers returns an error if the engine does not answer at all, as
// docker's command does without its daemon.
func answers(ctx context.Context, e *containers.Engine) error {
	if _, err := e.Run(ctx, "version"); err != nil {
		return fmt.Errorf("%s does not answer (it says: %s): start it (for docker, its daemon), or install podman", e.Name, lastLine(said(err)))
	}
	return nil
}

// said is what the engine said when it failed, or err itself.
func said(err error) string {
	var run *containers.RunError
	if errors.As(err, &run) {
		return run.Said
	}
	return err.Error()
}
