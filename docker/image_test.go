package docker

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The names the image test gives what it makes in podman. The stand-ins
// are kept between runs (a second run on one machine reuses them); the
// image is built again each time, from the checkout, with podman's cache
// of its steps; the network and containers are removed at the end.
const (
	imageName       = "localhost/tensornb:image-test"
	standinDebian   = "localhost/tensornb-standin/debian:bookworm"
	standinBase     = "localhost/tensornb-standin/base-notebook:bookworm"
	standinGoPrefix = "localhost/tensornb-standin/golang:"
	standinLabel    = "tensornb.standin"
	testNetwork     = "tensornb-image-test"
	binderLimit     = 2 << 30 // mybinder.org's memory limit; 1 GB is its guarantee
	python          = "/usr/bin/python3"
)

// buildOnly stops TestImage once the image is built. scripts/test builds
// it so while the Go tests run, and runs TestImage in full after them:
// the second build finds every step in podman's cache.
var buildOnly = flag.Bool("build-only", false, "TestImage: build the image (and the stand-in bases) and stop")

// imageTest is one run of TestImage: what it found, built and measured.
type imageTest struct {
	t     *testing.T
	ctx   context.Context
	pm    *podman
	prog  progress
	root  string // the repository's root, the build's context
	dir   string // scratch
	token string // the Binder run's server token

	mu  sync.Mutex
	sum summary
	// debianMu keeps two parts from making the Debian base at once.
	debianMu sync.Mutex
	// failed are the names of the tests whose failure it.fail recorded
	// in sum.
	failed map[string]bool
}

// summary is what the last line of the test says.
type summary struct {
	bases      string        // "pinned" or "stand-in"
	size       int64         // the image's size in bytes
	build      time.Duration // podman build of the image
	firstCell  time.Duration // podman run to the first cell's first output
	notebooks  int           // notebook runs compared with their stored outputs
	peakMemory int64         // the Binder run's container, during the notebooks
	hubUsers   int           // users whose notebooks ran on the hub
	lab        string        // what the browser did in the Binder run's JupyterLab
	grade      string        // what grading in the image showed and cost
	gradescope string        // what the Gradescope bundle's image cost
	failures   []string      // the steps that failed
	buildOnly  bool          // -build-only: nothing was run
}

func (s summary) line() string {
	status := "ok"
	if len(s.failures) > 0 {
		status = "FAILED (" + strings.Join(s.failures, "; ") + ")"
	}
	mib := func(b int64) string { return fmt.Sprintf("%d MiB", b>>20) }
	parts := []string{"image " + status}
	if s.buildOnly {
		parts[0] = "image built, not run (-build-only): " + status
	}
	if s.size > 0 {
		parts = append(parts, fmt.Sprintf("size %.2f GB", float64(s.size)/1e9))
	}
	if s.build > 0 {
		parts = append(parts, fmt.Sprintf("build %s (%s bases)", s.build.Round(time.Second), s.bases))
	}
	if s.firstCell > 0 {
		parts = append(parts, fmt.Sprintf("start to first cell %.1f s", s.firstCell.Seconds()))
	}
	if !s.buildOnly {
		parts = append(parts, fmt.Sprintf("notebooks run %d", s.notebooks))
	}
	if s.peakMemory > 0 {
		parts = append(parts, fmt.Sprintf("peak memory %s of Binder's 1–2 GB", mib(s.peakMemory)))
	}
	if s.lab != "" {
		parts = append(parts, s.lab)
	}
	if s.hubUsers > 0 {
		parts = append(parts, fmt.Sprintf("hub users %d, isolated", s.hubUsers))
	}
	if s.grade != "" {
		parts = append(parts, s.grade)
	}
	if s.gradescope != "" {
		parts = append(parts, s.gradescope)
	}
	parts = append(parts, fmt.Sprintf("failures %d", len(s.failures)))
	return strings.Join(parts, " | ")
}

// fail records a failed step for the summary and fails the test with err.
func (it *imageTest) fail(t *testing.T, err error) {
	t.Helper()
	var f *failure
	step := "?"
	if errors.As(err, &f) {
		step = f.step
	}
	it.mu.Lock()
	it.sum.failures = append(it.sum.failures, step)
	if it.failed == nil {
		it.failed = map[string]bool{}
	}
	it.failed[t.Name()] = true
	it.mu.Unlock()
	t.Fatal(err)
}

// parallel runs part as the parallel subtest name of t. A subtest that
// failed by t.Error, not through it.fail, is still counted in the
// summary's failures, once.
func (it *imageTest) parallel(t *testing.T, name string, part func(t *testing.T)) {
	t.Run(name, func(t *testing.T) {
		t.Parallel()
		defer func() {
			it.mu.Lock()
			defer it.mu.Unlock()
			if !t.Failed() {
				return
			}
			for failed := range it.failed {
				if failed == t.Name() || strings.HasPrefix(failed, t.Name()+"/") {
					return
				}
			}
			it.sum.failures = append(it.sum.failures, name+" (its errors are above)")
		}()
		part(t)
	})
}

// TestImage builds docker/Dockerfile with podman, then runs the image as
// Binder and JupyterHub run it and drives it from this machine with
// JupyterLab's client library (smoke/run.mjs), checking the notebooks'
// outputs with the notebooks' own check (execute.py compare). Where the
// pinned base images cannot be pulled, it builds them a stand-in from
// Debian's packages (standin/) and takes Go from this machine. It ends
// with one summary line. scripts/image runs it; it needs 6 to 10 minutes
// and podman, and is skipped with the reason where either is missing (a
// failure under TENSORNB_REQUIRE_IMAGE).
func TestImage(t *testing.T) {
	if d, ok := t.Deadline(); ok && time.Until(d) < 30*time.Minute {
		require(t, "the image test builds and runs the image for 6 to 10 minutes, past go test's default timeout: run scripts/image, or go test -run TestImage -timeout 40m in docker/")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	it := &imageTest{t: t, ctx: context.Background(), prog: progress{start: time.Now()}, root: root, dir: t.TempDir()}
	it.needTools(t)
	pm, how, err := startPodman(it.ctx, it.dir)
	if err != nil {
		require(t, err.Error())
	}
	it.pm = pm
	it.prog.say("containers: %s", how)
	t.Cleanup(func() { fmt.Println(it.sum.line()) })

	it.sum.buildOnly = *buildOnly
	image, err := it.build()
	if err != nil {
		it.fail(t, err)
	}
	if *buildOnly {
		_, took := it.buildGradescope(t, filepath.Join(it.dir, "gradescope-build"))
		it.prog.say("built, and the Gradescope bundle's image in %s; -build-only: the runs are left to the next run, whose builds take their steps from podman's cache", took.Round(time.Second))
		return
	}
	if _, err := it.pm.run(it.ctx, "network", "exists", testNetwork); err != nil {
		if _, err := it.pm.run(it.ctx, "network", "create", "--internal", testNetwork); err != nil {
			it.fail(t, &failure{step: "network", problem: err.Error(), todo: "podman could not make a network without a route out; see podman network create --help"})
		}
	}
	t.Cleanup(func() { it.pm.run(context.Background(), "network", "rm", "--force", testNetwork) })

	// The Binder run's first half (the start, and the notebooks under the
	// instant kernelspec, which the start-to-first-cell time is taken
	// from) runs alone; then its second half, the compiled kernelspec,
	// whose builds keep a core busy for two minutes, at the same time as
	// the broken images and the hub, whose cells are light.
	var b *binderRun
	if !t.Run("binder", func(st *testing.T) { b = it.startBinderRun(st, t, image) }) {
		return
	}
	t.Run("at once", func(t *testing.T) {
		it.parallel(t, "binder compiled", func(t *testing.T) { it.finishBinderRun(t, b) })
		it.parallel(t, "binder lab", func(t *testing.T) { defer close(b.labDone); it.testLab(t, b) })
		it.parallel(t, "broken", func(t *testing.T) { it.testBroken(t, image) })
		it.parallel(t, "hub", func(t *testing.T) { it.testHub(t, image) })
		it.parallel(t, "grade", func(t *testing.T) { it.testGrade(t, image) })
		it.parallel(t, "gradescope", it.testGradescope)
	})
	if !t.Failed() {
		it.prog.say("done")
	}
}

// needTools skips (or fails) the test when a tool it drives is missing.
func (it *imageTest) needTools(t *testing.T) {
	t.Helper()
	var missing []string
	if _, err := exec.LookPath("node"); err != nil {
		missing = append(missing, "node (Node.js, for the client)")
	} else if _, err := os.Stat(filepath.Join("smoke", "node_modules", "@jupyterlab", "services")); err != nil {
		missing = append(missing, "the client's npm packages (npm ci --prefix docker/smoke)")
	}
	if err := exec.Command(python, "-c", "import nbformat").Run(); err != nil {
		missing = append(missing, "Debian's python3-nbformat, for the notebooks' check")
	}
	for _, tool := range []string{"jupyterhub", "configurable-http-proxy"} {
		if _, err := exec.LookPath(tool); err != nil {
			missing = append(missing, tool+" (Debian's jupyterhub package)")
		}
	}
	if len(missing) > 0 {
		require(t, "missing: "+strings.Join(missing, ", ")+"; scripts/image installs them")
	}
	if os.Geteuid() != 0 {
		require(t, "the image test runs podman as root, as CI does: Binder's memory limit needs its cgroups, and the hub's spawner gives each user's home to uid 1000; run scripts/image as root")
	}
}

// build makes the two bases (pulled, or stand-ins) and builds the image.
func (it *imageTest) build() (string, error) {
	global := globalArgs(it.t, "Dockerfile")
	goImage, baseImage := qualified(global["GO_IMAGE"]), qualified(global["BASE_IMAGE"])
	pinned := true
	for _, image := range []string{goImage, baseImage} {
		if it.pm.exists(it.ctx, image) {
			continue
		}
		it.prog.say("pulling %s", image)
		ctx, cancel := context.WithTimeout(it.ctx, 10*time.Minute)
		_, err := it.pm.run(ctx, "pull", "--quiet", image)
		cancel()
		if err != nil {
			it.prog.say("cannot pull %s (%s): building stand-ins from Debian's packages and this machine's Go", image, lastLines(err.Error(), 1))
			pinned = false
			break
		}
	}
	if pinned {
		it.sum.bases = "pinned"
	} else {
		it.sum.bases = "stand-in"
		var err error
		if goImage, err = it.standinGo(); err != nil {
			return "", err
		}
		if baseImage, err = it.standinBase(); err != nil {
			return "", err
		}
	}

	args := []string{"build", "--network", "host", "--layers",
		"--build-arg", "GO_IMAGE=" + goImage, "--build-arg", "BASE_IMAGE=" + baseImage,
		"--file", filepath.Join(it.root, "docker", "Dockerfile"), "--tag", imageName}
	// Behind a proxy that signs TLS with its own authority, the Go module
	// proxy is reached with this machine's authorities: mounted for the
	// build's steps only, never copied into the image.
	if ca := "/etc/ssl/certs/ca-certificates.crt"; fileExists(ca) {
		args = append(args, "--volume", ca+":"+ca+":ro")
	}
	args = append(args, it.root)
	previous, _ := it.pm.run(it.ctx, "image", "inspect", "--format", "{{.Id}}", imageName)
	it.prog.say("building the image: %s (the first build compiles GoNB, goimports and gopls: minutes)", quote("podman", args...))
	start := time.Now()
	ctx, cancel := context.WithTimeout(it.ctx, 30*time.Minute)
	defer cancel()
	out, err := it.pm.stream(ctx, "  build: ", buildNoise, args...)
	it.sum.build = time.Since(start)
	if err != nil {
		return "", &failure{step: "build", command: quote("podman", args...), problem: fmt.Sprintf("podman build failed: %v", err), log: out,
			todo: "the log above names the step of docker/Dockerfile that failed; fix it and run scripts/image again"}
	}
	it.prog.say("built %s in %s", imageName, it.sum.build.Round(time.Second))
	// An earlier run's image, which this one replaces, would keep its 2 GB.
	if now, _ := it.pm.run(it.ctx, "image", "inspect", "--format", "{{.Id}}", imageName); previous != "" && previous != now {
		it.pm.run(it.ctx, "rmi", previous)
	}
	size, _ := it.pm.run(it.ctx, "image", "inspect", "--format", "{{.Size}}", imageName)
	it.sum.size, _ = strconv.ParseInt(size, 10, 64)
	return imageName, nil
}

// qualified names an image as podman pulls it: Docker's short names
// (golang:1.26.8-trixie) are Docker Hub's, which podman does not assume.
func qualified(image string) string {
	first, _, found := strings.Cut(image, "/")
	if found && (strings.ContainsAny(first, ".:") || first == "localhost") {
		return image
	}
	if !found {
		return "docker.io/library/" + image
	}
	return "docker.io/" + image
}

// buildNoise is the build's output not worth a line of its own: apt's
// and go's progress (kept for the failure's log all the same).
var buildNoise = regexp.MustCompile(`^(Get:\d|Selecting previously|Preparing to unpack|Unpacking |Setting up |Processing triggers|\(Reading database|go: downloading |go: added |Copying blob |Copying config |Writing manifest|Storing signatures)`).MatchString

func matchAll(res []*regexp.Regexp, s string) bool {
	for _, re := range res {
		if !re.MatchString(s) {
			return false
		}
	}
	return true
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// standinGo is this machine's Go toolchain as an image with it in
// /usr/local/go, where the Dockerfile copies it from the golang image.
func (it *imageTest) standinGo() (string, error) {
	out, err := exec.Command("go", "env", "GOROOT", "GOVERSION").Output()
	if err != nil {
		return "", &failure{step: "stand-in Go", command: "go env GOROOT GOVERSION", problem: err.Error(), todo: "install Go as go.mod names it"}
	}
	fields := strings.Fields(string(out))
	goroot, version := fields[0], strings.TrimPrefix(fields[1], "go")
	if want := goVersion(it.t); !toolchainFits(version, want) {
		return "", &failure{step: "stand-in Go", problem: fmt.Sprintf("this machine's Go is %s; the image needs go.mod's %s or a later patch", version, want), todo: "install that Go and run again"}
	}
	image := standinGoPrefix + version
	if it.pm.exists(it.ctx, image) {
		it.prog.say("stand-in Go: %s (made by an earlier run)", image)
		return image, nil
	}
	it.prog.say("stand-in Go: %s from %s", image, goroot)
	// tar's transform puts GOROOT at usr/local/go; podman imports it.
	cmd := fmt.Sprintf("tar --transform %s -C %s -c %s | podman import - %s",
		quote("s,^"+filepath.Base(goroot)+",usr/local/go,"), quote(filepath.Dir(goroot)), quote(filepath.Base(goroot)), image)
	sh := exec.CommandContext(it.ctx, "sh", "-c", cmd)
	sh.Env = it.pm.env()
	if out, err := sh.CombinedOutput(); err != nil {
		return "", &failure{step: "stand-in Go", command: cmd, problem: err.Error(), log: string(out), todo: "check that podman can import an image and run again"}
	}
	return image, nil
}

// standinBase builds standin/Containerfile on a Debian 12 root file system
// that mmdebstrap makes from Debian's packages, with tensornb's JupyterLab
// in its context (standinContext). Both are kept: the next run reuses the
// base while its context is unchanged.
func (it *imageTest) standinBase() (string, error) {
	context, err := it.standinContext()
	if err != nil {
		return "", err
	}
	hash, err := dirHash(context)
	if err != nil {
		return "", err
	}
	if it.pm.label(it.ctx, standinBase, standinLabel) == hash {
		it.prog.say("stand-in base: %s (made by an earlier run from this standin/ and JupyterLab)", standinBase)
		return standinBase, nil
	}
	if _, err := it.debian(); err != nil {
		return "", err
	}
	args := []string{"build", "--network", "host", "--layers", "--label", standinLabel + "=" + hash,
		"--build-arg", "DEBIAN_IMAGE=" + standinDebian, "--file", filepath.Join(context, "Containerfile"), "--tag", standinBase, context}
	it.prog.say("stand-in base: %s (Debian's Jupyter, a minute or two)", quote("podman", args...))
	if out, err := it.pm.stream(it.ctx, "  stand-in: ", buildNoise, args...); err != nil {
		return "", &failure{step: "stand-in base", command: quote("podman", args...), problem: err.Error(), log: out,
			todo: "the log names the step of docker/standin/Containerfile that failed; Debian's mirror must be reachable"}
	}
	return standinBase, nil
}

// standinContext makes the stand-in base's build context: the files of
// standin/, and in jupyterlab/ the JupyterLab that scripts/run serves,
// as scripts/jupyterlab's config.py and index.html with the built app
// (npm run build in kernel/internal/browser/lite/web) in app/.
func (it *imageTest) standinContext() (string, error) {
	context := filepath.Join(it.dir, "standin")
	lab := filepath.Join(context, "jupyterlab")
	app := filepath.Join(it.root, "kernel", "internal", "browser", "lite", "web", "dist-jupyterlab")
	if !fileExists(filepath.Join(app, "jupyterlab.js")) {
		return "", &failure{step: "stand-in base", problem: "tensornb's JupyterLab is not built in " + app,
			todo: "run npm ci and npm run build in kernel/internal/browser/lite/web (scripts/image does both), then run again"}
	}
	for _, copy := range []struct{ from, to string }{
		{"standin", context},
		{filepath.Join(it.root, "scripts", "jupyterlab"), lab},
		{app, filepath.Join(lab, "app")},
	} {
		if err := os.CopyFS(copy.to, os.DirFS(copy.from)); err != nil {
			return "", &failure{step: "stand-in base", problem: "making the build's context: " + err.Error()}
		}
	}
	// scripts/jupyterlab/serve is scripts/run's; the image has its own
	// commands (standin/jupyter-lab).
	return context, os.Remove(filepath.Join(lab, "serve"))
}

// debian returns a Debian 12 image of nothing but Debian's minimal base,
// made with mmdebstrap from Debian's packages (no registry can be reached
// here) and kept for the next run.
func (it *imageTest) debian() (string, error) {
	it.debianMu.Lock()
	defer it.debianMu.Unlock()
	if it.pm.exists(it.ctx, standinDebian) {
		return standinDebian, nil
	}
	if _, err := exec.LookPath("mmdebstrap"); err != nil {
		return "", &failure{step: "stand-in base", problem: "mmdebstrap is not installed", todo: "apt-get install mmdebstrap (scripts/image does), then run again"}
	}
	tar := filepath.Join(it.dir, "debian.tar")
	args := []string{"--variant=minbase", "--quiet", "bookworm", tar}
	it.prog.say("stand-in base: a Debian 12 root file system: %s (about a minute)", quote("mmdebstrap", args...))
	cmd := exec.CommandContext(it.ctx, "mmdebstrap", args...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", &failure{step: "stand-in base", command: quote("mmdebstrap", args...), problem: err.Error(), log: string(out),
			todo: "check that Debian's mirror (deb.debian.org) can be reached, then run again"}
	}
	if _, err := it.pm.run(it.ctx, "import", tar, standinDebian); err != nil {
		return "", &failure{step: "stand-in base", command: "podman import " + tar + " " + standinDebian, problem: err.Error()}
	}
	os.Remove(tar)
	return standinDebian, nil
}

// dirHash is a hash of the files of dir, their names (from dir) and
// contents.
func dirHash(dir string) (string, error) {
	h := sha256.New()
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		name, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s %o %d\n", name, info.Mode().Perm(), len(data))
		h.Write(data)
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))[:16], err
}

// randomToken is a fresh secret for a server or a user.
func randomToken() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// notebookPaths are the repository's notebooks.
func (it *imageTest) notebookPaths() []string {
	paths, _ := filepath.Glob(filepath.Join(it.root, "notebooks", "*.ipynb"))
	return paths
}

// A container that the test started, and what it learns of it.
type container struct {
	it   *imageTest
	name string
	step string // the step that started it, for failures

	mu        sync.Mutex
	peak      int64             // the largest memory use podman stats gave
	processes map[string]string // "user uid=…: command" → a command line, of every kind of process seen
	root      []string          // processes seen running as root
}

// logs is the container's log (the server's output).
func (c *container) logs() string {
	out, err := c.it.pm.command(context.Background(), "logs", c.name).CombinedOutput()
	if err != nil {
		return fmt.Sprintf("(podman logs %s: %v)", c.name, err)
	}
	return string(out)
}

// state is the container's status and exit code.
func (c *container) state() (running bool, exitCode int, err error) {
	out, err := c.it.pm.run(c.it.ctx, "inspect", "--format", "{{.State.Running}} {{.State.ExitCode}}", c.name)
	if err != nil {
		return false, 0, err
	}
	running = strings.HasPrefix(out, "true")
	_, code, _ := strings.Cut(out, " ")
	exitCode, _ = strconv.Atoi(code)
	return running, exitCode, nil
}

// remove stops and removes the container.
func (c *container) remove() {
	c.it.pm.run(context.Background(), "rm", "--force", "--time", "2", c.name)
}

// sample records the container's memory use (podman stats) and the user
// of each of its processes (podman top gives their pids on this machine;
// /proc gives their real, effective and saved uids).
func (c *container) sample() {
	out, err := c.it.pm.run(c.it.ctx, "stats", "--no-stream", "--format", "{{.MemUsage}}", c.name)
	if err == nil {
		if used, ok := parseSize(strings.TrimSpace(strings.Split(out, "/")[0])); ok {
			c.mu.Lock()
			c.peak = max(c.peak, used)
			c.mu.Unlock()
		}
	}
	out, err = c.it.pm.run(c.it.ctx, "top", c.name, "hpid", "user", "args")
	if err != nil {
		return
	}
	for _, line := range strings.Split(out, "\n")[1:] {
		f := strings.Fields(line)
		if len(f) < 3 {
			continue
		}
		status, err := os.ReadFile(filepath.Join("/proc", f[0], "status"))
		if err != nil {
			continue // gone
		}
		uids := regexp.MustCompile(`(?m)^Uid:\s+(\d+)\s+(\d+)\s+(\d+)`).FindStringSubmatch(string(status))
		if uids == nil {
			continue
		}
		args := strings.Join(f[2:], " ")
		if len(args) > 100 {
			args = args[:100] + "…"
		}
		words := f[2:min(len(f), 4)]
		words[0] = filepath.Base(words[0])
		key := fmt.Sprintf("%s uid=%s: %s", f[1], uids[1], strings.Join(words, " "))
		c.mu.Lock()
		if c.processes == nil {
			c.processes = map[string]string{}
		}
		c.processes[key] = args
		if uids[1] == "0" || uids[2] == "0" || uids[3] == "0" {
			c.root = append(c.root, fmt.Sprintf("%s (uids %s %s %s)", args, uids[1], uids[2], uids[3]))
		}
		c.mu.Unlock()
	}
}

// watch samples the container every two seconds until stop is called
// (once or more).
func (c *container) watch() (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c.sample()
			select {
			case <-done:
				return
			case <-time.After(2 * time.Second):
			}
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { close(done); wg.Wait(); c.sample() }) }
}

// checkNotRoot fails unless every process seen ran as a user other than
// root.
func (c *container) checkNotRoot() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.root) > 0 {
		return &failure{step: c.step + ": users", command: "podman top " + c.name + " hpid user args, and /proc/PID/status",
			problem: "processes ran as root in the container:\n" + strings.Join(c.root, "\n"),
			todo:    "the image must end as USER ${NB_UID} and start nothing as root; see the Dockerfile's USER lines and the entrypoint"}
	}
	if len(c.processes) == 0 {
		return &failure{step: c.step + ": users", command: "podman top " + c.name, problem: "podman top showed no process at all", todo: "run podman top by hand on a running container"}
	}
	return nil
}

// parseSize reads podman's sizes: "577.5kB", "1.2GB", "12B".
func parseSize(s string) (int64, bool) {
	m := regexp.MustCompile(`^([\d.]+)\s*([kMGT]?i?B)$`).FindStringSubmatch(s)
	if m == nil {
		return 0, false
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return 0, false
	}
	mult := map[string]float64{"B": 1, "kB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40}[m[2]]
	if mult == 0 {
		return 0, false
	}
	return int64(v * mult), true
}

// server is a Jupyter server the test reaches over HTTP.
type server struct {
	base  string // http://host:port/ or http://hub/user/NAME/
	token string
}

// get fetches path from the server's API with the token, and decodes the
// JSON answer into v if v is not nil.
func (s server) get(ctx context.Context, path string, v any) (int, []byte, error) {
	return s.do(ctx, "GET", path, nil, v)
}

func (s server) do(ctx context.Context, method, path string, body any, v any) (int, []byte, error) {
	var r io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return 0, nil, err
		}
		r = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimSuffix(s.base, "/")+path, r)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", "token "+s.token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	client := &http.Client{Timeout: 30 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, nil, err
	}
	if v != nil && resp.StatusCode/100 == 2 {
		if err := json.Unmarshal(data, v); err != nil {
			return resp.StatusCode, data, fmt.Errorf("%s %s: %v", method, path, err)
		}
	}
	return resp.StatusCode, data, nil
}

// stopped returns the failure of a container that stopped, or is gone,
// before its server answered; nil while it runs.
func (c *container) stopped() *failure {
	running, exit, err := c.state()
	if err == nil && running {
		return nil
	}
	problem := fmt.Sprintf("the container stopped (exit code %d) before its server answered", exit)
	if err != nil {
		problem = "the container is gone: " + err.Error()
	}
	return &failure{step: c.step + ": start", command: "podman run … " + c.name, problem: problem, log: c.logs(),
		todo: "the log shows why the server did not start: a missing command or file in the image, or the entrypoint failing"}
}

// waitServer waits until the server answers /api/status, and fails at
// once if the container stops first: a broken image fails with its log,
// not a timeout.
func (c *container) waitServer(s server, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		ctx, cancel := context.WithTimeout(c.it.ctx, 5*time.Second)
		code, _, err := s.get(ctx, "/api/status", nil)
		cancel()
		if err == nil && code == 200 {
			return nil
		}
		if f := c.stopped(); f != nil {
			return f
		}
		if time.Now().After(deadline) {
			last := fmt.Sprint(err)
			if err == nil {
				last = fmt.Sprintf("HTTP %d", code)
			}
			return &failure{step: c.step + ": start", command: "GET " + s.base + "api/status", problem: fmt.Sprintf("the server did not answer within %s (last: %s)", limit, last), log: c.logs(),
				todo: "the container runs but its server does not answer on port 8888: see its log"}
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// checkKernelspecs fails unless the server offers both kernelspecs.
func (c *container) checkKernelspecs(s server) error {
	var specs struct {
		Kernelspecs map[string]any `json:"kernelspecs"`
	}
	code, body, err := s.get(c.it.ctx, "/api/kernelspecs", &specs)
	if err != nil || code != 200 {
		return &failure{step: c.step + ": kernelspecs", command: "GET " + s.base + "api/kernelspecs", problem: fmt.Sprintf("HTTP %d %v: %s", code, err, body), log: c.logs()}
	}
	var missing []string
	for _, name := range []string{"tensornb", "tensornb-compiled"} {
		if specs.Kernelspecs[name] == nil {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return &failure{step: c.step + ": kernelspecs", command: "GET " + s.base + "api/kernelspecs",
			problem: fmt.Sprintf("the server does not offer the kernelspecs %s; it offers %v", strings.Join(missing, ", "), slices.Sorted(mapKeys(specs.Kernelspecs))),
			todo:    "scripts/install -sys-prefix in the Dockerfile writes them under python3's sys.prefix: the python3 first on the image's PATH must be the one that runs Jupyter"}
	}
	return nil
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// checkNotebooks fails unless ~/notebooks holds every notebook of the
// repository, byte for byte.
func (it *imageTest) checkNotebooks(step string, s server, logs func() string) error {
	for _, path := range it.notebookPaths() {
		name := filepath.Base(path)
		var model struct {
			Content string `json:"content"`
		}
		api := "/api/contents/notebooks/" + url.PathEscape(name) + "?type=file&format=text&content=1"
		code, body, err := s.get(it.ctx, api, &model)
		if err != nil || code != 200 {
			return &failure{step: step + ": notebooks in the home", command: "GET " + strings.TrimSuffix(s.base, "/") + api,
				problem: fmt.Sprintf("notebooks/%s is not in the home directory (HTTP %d %v): %.200s", name, code, err, body), log: logs(),
				todo: "the Dockerfile keeps the notebooks in $TENSORNB_NOTEBOOKS (/opt/tensornb/notebooks) and docker/entrypoint.sh copies them into a home that lacks them: check both"}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if model.Content != string(want) {
			return &failure{step: step + ": notebooks in the home", command: "GET " + strings.TrimSuffix(s.base, "/") + api,
				problem: fmt.Sprintf("notebooks/%s in the home differs from the repository's", name), todo: "build the image again from this checkout"}
		}
	}
	return nil
}

// runNotebooks runs the notebooks on the server with the client
// (smoke/run.mjs), under kernel ("" for each notebook's own), and checks
// their outputs with execute.py compare. It returns when the first output
// came (as the client saw it).
func (it *imageTest) runNotebooks(step string, s server, kernel string, paths []string, logs func() string) (time.Time, error) {
	out := filepath.Join(it.dir, "run-"+randomToken()[:8])
	args := []string{filepath.Join("smoke", "run.mjs"), "--server", s.base, "--out", out}
	if kernel != "" {
		args = append(args, "--kernel", kernel)
	}
	args = append(args, paths...)
	cmd := exec.CommandContext(it.ctx, "node", args...)
	cmd.Env = append(os.Environ(), "JUPYTER_TOKEN="+s.token)
	var stderr bytes.Buffer
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return time.Time{}, err
	}
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return time.Time{}, err
	}
	var first time.Time
	readLines(stdout, func(line string) {
		switch {
		case strings.HasPrefix(line, "@first-output "):
			ms, _ := strconv.ParseInt(strings.TrimPrefix(line, "@first-output "), 10, 64)
			first = time.UnixMilli(ms)
		case strings.HasPrefix(line, "@notebook "):
			f := strings.Fields(line)
			if len(f) == 4 {
				it.prog.say("%s: %s, %s cells in %s s", step, f[1], f[2], f[3])
			}
		}
	})
	command := quote("node", args...)
	if err := cmd.Wait(); err != nil {
		return first, &failure{step: step, command: "JUPYTER_TOKEN=… " + command, problem: strings.TrimSpace(stderr.String()) + fmt.Sprintf(" (%v)", err), log: logs(),
			todo: "the server's log above shows the kernel's own messages: a missing file or library in the image, or a kernel that failed to start"}
	}
	compareArgs := append([]string{filepath.Join(it.root, "kernel", "internal", "notebooktest", "testdata", "execute.py"), "compare", out}, paths...)
	if out, err := exec.CommandContext(it.ctx, python, compareArgs...).CombinedOutput(); err != nil {
		return first, &failure{step: step + ": outputs", command: quote(python, compareArgs...), problem: "the outputs in the image differ from the stored ones:\n" + string(out),
			todo: "a cell gives other outputs in the image than on this machine: rerun the cell in the image (podman run -it " + imageName + " bash) to see why"}
	}
	it.mu.Lock()
	it.sum.notebooks += len(paths)
	it.mu.Unlock()
	return first, nil
}

// A Binder run: its container, its server, what stops the sampling of
// its container, and what is closed when the browser is done with it.
type binderRun struct {
	c       *container
	s       server
	stopped func()
	labDone chan struct{}
}

// startBinderRun runs the image as repo2docker and Binder run it: as uid
// 1000 with a token, on port 8888, the command repo2docker gives (jupyter
// notebook --ip 0.0.0.0 --port 8888) after the image's entrypoint, with
// Binder's memory limit, on a network with no route out of the machine.
// It checks the kernelspecs and the notebooks in the home, and runs every
// notebook under the notebooks' own kernelspec, compared with its stored
// outputs, while the container's memory and processes' users are watched.
// The container is removed when parent ends.
func (it *imageTest) startBinderRun(t, parent *testing.T, image string) *binderRun {
	c, s, started, err := it.startBinder("binder", image)
	if c != nil {
		parent.Cleanup(c.remove)
	}
	if err != nil {
		it.fail(t, err)
	}
	it.prog.say("binder: the server answers %s after podman run", time.Since(started).Round(100*time.Millisecond))
	for _, check := range []func() error{
		func() error { return c.checkKernelspecs(s) },
		func() error { return it.checkNotebooks("binder", s, c.logs) },
	} {
		if err := check(); err != nil {
			it.fail(t, err)
		}
	}
	b := &binderRun{c: c, s: s, stopped: c.watch(), labDone: make(chan struct{})}
	parent.Cleanup(b.stopped)
	paths := it.notebookPaths()
	it.prog.say("binder: running the %d notebooks under tensornb, from this machine, through the server's REST API and kernel websocket", len(paths))
	first, err := it.runNotebooks("binder: tensornb", s, "tensornb", paths, c.logs)
	if err != nil {
		it.fail(t, err)
	}
	it.sum.firstCell = first.Sub(started)
	return b
}

// finishBinderRun runs every notebook under the compiled kernelspec in the
// Binder run's container, then checks the memory it took, the users of
// its processes, that it had no network, and the front ends.
func (it *imageTest) finishBinderRun(t *testing.T, b *binderRun) {
	c, s := b.c, b.s
	paths := it.notebookPaths()
	it.prog.say("binder: running the %d notebooks under tensornb-compiled", len(paths))
	if _, err := it.runNotebooks("binder: tensornb-compiled", s, "tensornb-compiled", paths, c.logs); err != nil {
		it.fail(t, err)
	}
	// The memory is sampled, and the container runs, until the browser is
	// done with it too.
	<-b.labDone
	b.stopped()
	it.mu.Lock()
	it.sum.peakMemory = c.peak
	it.mu.Unlock()
	it.prog.say("binder: peak memory %d MiB (podman stats, every 2 s); Binder guarantees 1 GB and stops a container past 2 GB", c.peak>>20)
	if c.peak > binderLimit {
		it.fail(t, &failure{step: "binder: memory", problem: fmt.Sprintf("the notebooks took %d MiB, past Binder's 2 GB", c.peak>>20), todo: "find the cell that takes the memory"})
	}
	if err := c.checkNotRoot(); err != nil {
		it.fail(t, err)
	}
	it.prog.say("binder: the kinds of process seen, none as root:\n    %s", strings.Join(slices.Sorted(mapKeys(c.processes)), "\n    "))

	// No route out: the notebooks above ran without a network.
	probe := "import socket\ntry:\n    socket.create_connection(('192.0.2.1', 80), timeout=5)\nexcept OSError as e:\n    print('refused:', e)\nelse:\n    print('connected')"
	out, err := it.pm.run(it.ctx, "exec", c.name, "python3", "-c", probe)
	if err != nil || !strings.HasPrefix(out, "refused:") {
		it.fail(t, &failure{step: "binder: no network", command: "podman exec " + c.name + " python3 -c …", problem: fmt.Sprintf("a connection out of the container did not fail (%q, %v): the test's network is not isolated, so it proves nothing", out, err),
			todo: "check podman network inspect " + testNetwork + ` says "internal": true`})
	}
	it.prog.say("binder: a connection out of the container fails (%s): the notebooks ran with no network", strings.TrimPrefix(out, "refused: "))

	if err := it.checkFrontends(c, s); err != nil {
		it.fail(t, err)
	}
	stopped := time.Now()
	if _, err := it.pm.run(it.ctx, "stop", "--time", "10", c.name); err != nil {
		it.fail(t, &failure{step: "binder: stop", problem: err.Error()})
	}
	it.prog.say("binder: podman stop took %s", time.Since(stopped).Round(100*time.Millisecond))
}

// startBinder starts image as Binder does and waits for its server.
func (it *imageTest) startBinder(step, image string) (*container, server, time.Time, error) {
	c := &container{it: it, name: "tensornb-image-test-" + randomToken()[:8], step: step}
	token := randomToken()
	args := []string{"run", "--detach", "--name", c.name, "--user", "1000:100", "--network", testNetwork,
		"--memory", strconv.Itoa(binderLimit), "--env", "JUPYTER_TOKEN=" + token,
		image, "jupyter", "notebook", "--ip", "0.0.0.0", "--port", "8888"}
	started := time.Now()
	if _, err := it.pm.run(it.ctx, args...); err != nil {
		return nil, server{}, started, &failure{step: step + ": start", command: quote("podman", args...), problem: err.Error(), todo: "podman could not start the image"}
	}
	ip, err := it.pm.run(it.ctx, "inspect", "--format", fmt.Sprintf("{{(index .NetworkSettings.Networks %q).IPAddress}}", testNetwork), c.name)
	if err != nil || ip == "" {
		// A container that stopped at once (a broken entrypoint) has no
		// address any more: say that it stopped.
		if f := c.stopped(); f != nil {
			return c, server{}, started, f
		}
		return c, server{}, started, &failure{step: step + ": start", command: "podman inspect " + c.name, problem: fmt.Sprintf("no address on %s: %v", testNetwork, err), log: c.logs()}
	}
	s := server{base: "http://" + ip + ":8888/", token: token}
	return c, s, started, c.waitServer(s, 5*time.Minute) // a hang, not a speed check
}

// testBroken breaks the image in the ways a build can go wrong and checks
// that the smoke test says which, quickly, rather than waiting for a
// timeout: no kernel binary, a kernel that exits at start, no notebooks,
// no entrypoint (nothing starts).
func (it *imageTest) testBroken(t *testing.T, image string) {
	tour := filepath.Join(it.root, "notebooks", "00-tour.ipynb")
	for _, c := range []struct {
		name, steps string
		want        []*regexp.Regexp // all in the failure's message
	}{
		{"no kernel binary", "RUN rm /opt/conda/share/tensornb/bin/tensornb",
			[]*regexp.Regexp{regexp.MustCompile(`starting the kernel tensornb failed`), regexp.MustCompile(`No such file or directory: '/opt/conda/share/tensornb/bin/tensornb'`)}},
		{"the kernel exits at start", "RUN printf '#!/bin/sh\\necho tensornb: broken on purpose >&2\\nexit 3\\n' > /opt/conda/share/tensornb/bin/tensornb",
			[]*regexp.Regexp{regexp.MustCompile(`the kernel tensornb died`), regexp.MustCompile(`tensornb: broken on purpose`)}},
		{"no notebooks", "USER root\nRUN rm -rf /opt/tensornb/notebooks /home/jovyan/notebooks\nUSER 1000",
			[]*regexp.Regexp{regexp.MustCompile(`notebooks/00-tour.ipynb is not in the home directory`)}},
		{"no entrypoint", "USER root\nRUN rm /usr/local/bin/tensornb-entrypoint\nUSER 1000",
			[]*regexp.Regexp{regexp.MustCompile(`the container stopped \(exit code \d+\) before its server answered`), regexp.MustCompile(`tensornb-entrypoint`)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			broken := "localhost/tensornb:image-test-broken"
			dir := filepath.Join(it.dir, "broken-"+randomToken()[:8])
			os.MkdirAll(dir, 0o755)
			containerfile := "FROM " + image + "\n" + c.steps + "\n"
			os.WriteFile(filepath.Join(dir, "Containerfile"), []byte(containerfile), 0o644)
			if _, err := it.pm.run(it.ctx, "build", "--file", filepath.Join(dir, "Containerfile"), "--tag", broken, dir); err != nil {
				it.fail(t, &failure{step: "broken: " + c.name, problem: err.Error()})
			}
			defer it.pm.run(context.Background(), "rmi", "--force", broken)
			start := time.Now()
			err := func() error {
				ct, s, _, err := it.startBinder("broken: "+c.name, broken)
				if ct != nil {
					defer ct.remove()
				}
				if err != nil {
					return err
				}
				if err := ct.checkKernelspecs(s); err != nil {
					return err
				}
				if err := it.checkNotebooks("broken", s, ct.logs); err != nil {
					return err
				}
				_, err = it.runNotebooks("broken: "+c.name, s, "tensornb", []string{tour}, ct.logs)
				return err
			}()
			took := time.Since(start).Round(100 * time.Millisecond)
			switch {
			case err == nil:
				t.Errorf("the image with %q (%s) passed the smoke test", c.name, strings.ReplaceAll(c.steps, "\n", "; "))
			case !matchAll(c.want, err.Error()):
				t.Errorf("the image with %q failed, but without saying so (want %s):\n%v", c.name, c.want, err)
			case took > time.Minute:
				t.Errorf("the image with %q took %s to fail", c.name, took)
			default:
				it.prog.say("broken: %s: failed in %s, saying:\n%s", c.name, took, indentAll(lastLines(err.Error(), 40)))
			}
		})
	}
}
