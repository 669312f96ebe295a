package docker

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tensornb/tensornb/internal/nbformat"
)

// gradeLabel is the label tensornb grade puts on its workers' containers
// (grade.Label in the kernel).
const gradeLabel = "tensornb.grade"

// TestGradeInImage grades in containers of an image that is already
// built, as TestImage does with the image it builds (testGrade): set
// TENSORNB_GRADE_IMAGE to it, as root,
//
//	TENSORNB_GRADE_IMAGE=localhost/tensornb:image-test go test -run TestGradeInImage -v
//
// in docker/ (scripts/image leaves that image behind).
func TestGradeInImage(t *testing.T) {
	image := os.Getenv("TENSORNB_GRADE_IMAGE")
	if image == "" {
		t.Skip("TENSORNB_GRADE_IMAGE is not set: set it to an image of tensornb (scripts/image builds localhost/tensornb:image-test) to grade in it; TestImage grades in the image it builds")
	}
	it := partTest(t)
	if !it.pm.exists(it.ctx, image) {
		t.Fatalf("podman has no image %s: build it (scripts/image), or set TENSORNB_GRADE_IMAGE to one it has", image)
	}
	it.testGrade(t, image)
	t.Log(it.sum.grade)
}

// partTest is an imageTest for running one of TestImage's parts alone,
// with podman started as TestImage starts it.
func partTest(t *testing.T) *imageTest {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	it := &imageTest{t: t, ctx: context.Background(), prog: progress{start: time.Now()}, root: root, dir: t.TempDir()}
	pm, how, err := startPodman(it.ctx, it.dir)
	if err != nil {
		t.Fatal(err)
	}
	it.pm = pm
	it.prog.say("containers: %s", how)
	return it
}

// A gradeRun is what one tensornb grade printed, and how long it took.
type gradeRun struct {
	results []gradeResult
	stderr  string
	took    time.Duration
	graded  time.Duration // what its "graded N submissions in T s" (or "1 submission") says
}

// gradeResult is a line of tensornb grade -json.
type gradeResult struct {
	Submission string  `json:"submission"`
	Score      float64 `json:"score"`
	MaxScore   float64 `json:"max_score"`
	Error      string  `json:"error"`
	Tests      []struct {
		GradeID   string  `json:"grade_id"`
		Points    float64 `json:"points"`
		MaxPoints float64 `json:"max_points"`
		Feedback  string  `json:"feedback"`
	} `json:"tests"`
}

// testGrade runs tensornb grade, built on this machine from the checkout,
// with -image: the puzzles' teacher notebook scores 25 of 25, its
// student's version 0 with "panic: not written yet" on every test, and a
// submission whose last answer loops forever loses that test to
// "Timeout:". While it grades, a worker's container is inspected: no
// network but loopback, no mount, none of this machine's environment,
// user 1000, limits of memory and processes. Afterwards no container of
// grade's is left, nor after grade is interrupted while a cell loops.
// The same grading through the docker command (podman's, as
// podman-docker gives it) passes the worker's pipes on standard streams.
// -image auto finds the image; images without tensornb's kernelspec or
// module source, or that run as root, are refused with the reason.
func (it *imageTest) testGrade(t *testing.T, image string) {
	dir := filepath.Join(it.dir, "grade-"+randomToken()[:8])
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	fail := func(problem, todo string) {
		t.Helper()
		it.fail(t, &failure{step: "grade", problem: problem, todo: todo})
	}
	bin := filepath.Join(dir, "tensornb")
	build := exec.CommandContext(it.ctx, "go", "build", "-o", bin, "./kernel/cmd/tensornb")
	build.Dir = it.root
	if out, err := build.CombinedOutput(); err != nil {
		it.fail(t, &failure{step: "grade: build", command: "go build ./kernel/cmd/tensornb", problem: err.Error(), log: string(out), todo: "build the kernel on this machine (scripts/test installs libzmq's headers for it)"})
	}
	teacher := filepath.Join(it.root, "notebooks", "05-stride-puzzles.ipynb")
	student := filepath.Join(dir, "student.ipynb")
	if out, err := exec.CommandContext(it.ctx, bin, "assign", teacher, student).CombinedOutput(); err != nil {
		fail(fmt.Sprintf("tensornb assign: %v\n%s", err, out), "")
	}
	loop := filepath.Join(dir, "loop.ipynb")
	if err := loopingAnswer(teacher, loop, "hankel"); err != nil {
		fail(err.Error(), "")
	}
	noneLeft := func(when string) {
		t.Helper()
		out, err := it.pm.run(it.ctx, "ps", "--all", "--filter", "label="+gradeLabel, "--format", "{{.Names}} {{.Status}}")
		if err != nil || out != "" {
			fail(fmt.Sprintf("%s, podman ps -a lists containers of tensornb grade (%v):\n%s", when, err, out),
				"a worker's container must be removed when its worker ends: see grade.Container.Remove and interp.Engine.Ended")
		}
	}
	noneLeft("before grading")

	// Graded with -image, one worker's container inspected meanwhile.
	var inspected containerFacts
	stopInspecting := it.inspectGradeContainer(&inspected)
	run, err := it.grade(dir, nil, bin, "-json", "-image", image, "-engine", "podman", "-timeout", "3s", "-feedback", filepath.Join(dir, "feedback"), teacher, teacher, student, loop)
	stopInspecting()
	if err != nil {
		fail(err.Error(), "run the command above by hand")
	}
	first, _, _ := strings.Cut(run.stderr, "\n")
	if !strings.HasPrefix(first, "tensornb grade: sandbox: each submission's worker in a podman container of "+image) {
		fail(fmt.Sprintf("stderr's first line does not say that workers run in containers of %s: %q", image, first), "")
	}
	checkGradeResults(t, run, graded{teacher, ""}, graded{student, "panic: not written yet"}, graded{loop, "Timeout:"})
	noneLeft("after grading")
	if err := inspected.check(); err != nil {
		fail(err.Error(), "see grade.Container.runArgs")
	}
	it.prog.say("grade: in %s's containers: the teacher 25 of 25, the student's version 0, the loop timed out; a worker's container had %s; none left (%s)", image, inspected, first)

	// Interrupted while a cell loops: the container goes too.
	if err := it.interruptGrade(dir, bin, image, teacher, loop); err != nil {
		fail(err.Error(), "grade must shut its engines down when interrupted: see gradeCmd and grade.Grader.run")
	}
	noneLeft("after grading was interrupted")

	// Through the docker command: podman's own, as podman-docker installs
	// it, which gives the worker its pipes on standard streams.
	shims := filepath.Join(dir, "shims")
	os.MkdirAll(shims, 0o755)
	if err := os.WriteFile(filepath.Join(shims, "docker"), []byte("#!/bin/sh\nexec podman \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=" + shims + string(os.PathListSeparator) + os.Getenv("PATH")}
	if it.pm.Conf != "" {
		env = append(env, "CONTAINERS_CONF="+it.pm.Conf)
	}
	docker, err := it.grade(dir, env, bin, "-json", "-image", image, "-engine", "docker", "-timeout", "3s", "-feedback", filepath.Join(dir, "feedback-docker"), teacher, teacher, loop)
	if err != nil {
		fail(err.Error(), "")
	}
	checkGradeResults(t, docker, graded{teacher, ""}, graded{loop, "Timeout:"})
	noneLeft("after grading through the docker command")

	// Images a worker cannot run in are refused, saying why.
	for _, broken := range []struct{ name, steps, want string }{
		{"no kernelspec", "USER root\nRUN rm -rf /opt/conda/share/jupyter/kernels/tensornb\nUSER 1000", "cannot run tensornb's worker: its Jupyter has no kernelspec tensornb (NoSuchKernel"},
		{"no module source", "USER root\nRUN rm -rf /opt/conda/share/tensornb/src\nUSER 1000", "cannot run tensornb's worker: its tensornb has no module source beside it (/opt/conda/share/tensornb/src/go.mod is missing)"},
		{"root", "USER root", `runs as root (its USER is "root")`},
	} {
		name := "localhost/tensornb:grade-test-broken"
		containerfile := filepath.Join(dir, "Containerfile")
		os.WriteFile(containerfile, []byte("FROM "+image+"\n"+broken.steps+"\n"), 0o644)
		if _, err := it.pm.run(it.ctx, "build", "--file", containerfile, "--tag", name, dir); err != nil {
			fail(err.Error(), "")
		}
		_, err := it.grade(dir, nil, bin, "-image", name, teacher, teacher)
		it.pm.run(context.Background(), "rmi", "--force", name)
		if err == nil || !strings.Contains(err.Error(), broken.want) {
			fail(fmt.Sprintf("with an image of %s, grade -image did not fail saying %q: %v", broken.name, broken.want, err), "see grade.FindContainer")
		}
	}
	noneLeft("after trying broken images")

	// The cost: the teacher's notebook alone, in a container and on
	// this machine.
	// -image auto, the default, finds a local image of tensornb.
	alone, err := it.grade(dir, nil, bin, "-json", "-feedback", filepath.Join(dir, "feedback-alone"), teacher, teacher)
	if err != nil {
		fail(err.Error(), "")
	}
	if first, _, _ := strings.Cut(alone.stderr, "\n"); !strings.HasPrefix(first, "tensornb grade: sandbox: each submission's worker in a podman container of ") {
		fail(fmt.Sprintf("with -image auto, stderr's first line does not say that workers run in containers: %q", first), "see grade.FindContainer")
	}
	here, err := it.grade(dir, nil, bin, "-json", "-image", "none", "-module", it.root, "-feedback", filepath.Join(dir, "feedback-here"), teacher, teacher)
	if err != nil {
		fail(err.Error(), "")
	}
	checkGradeResults(t, alone, graded{teacher, ""})
	checkGradeResults(t, here, graded{teacher, ""})
	it.mu.Lock()
	it.sum.grade = fmt.Sprintf("graded in containers, none left; the puzzles %.1f s in a container (+%.1f s to start) vs %.1f s here",
		alone.graded.Seconds(), (alone.took - alone.graded).Seconds(), here.graded.Seconds())
	it.mu.Unlock()
	it.prog.say("grade: the puzzles' teacher notebook alone: %.1f s in a container, and %.1f s before it to find how podman runs here and where the image has tensornb (a first container); %.1f s on this machine (-image none); through docker (podman's): %.1f s for two",
		alone.graded.Seconds(), (alone.took - alone.graded).Seconds(), here.graded.Seconds(), docker.graded.Seconds())
}

// grade runs the tensornb command bin in dir with args and the
// environment's entries env added, and reads its JSON lines.
func (it *imageTest) grade(dir string, env []string, bin string, args ...string) (*gradeRun, error) {
	ctx, cancel := context.WithTimeout(it.ctx, 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append([]string{"grade"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	run := &gradeRun{stderr: stderr.String(), took: time.Since(start)}
	command := quote(bin, append([]string{"grade"}, args...)...)
	if err != nil {
		return nil, fmt.Errorf("%s: %v\n%s", command, err, stderr.String())
	}
	if m := regexp.MustCompile(`graded \d+ submissions? in ([\d.]+)s`).FindStringSubmatch(run.stderr); m != nil {
		secs, _ := strconv.ParseFloat(m[1], 64)
		run.graded = time.Duration(secs * float64(time.Second))
	}
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var r gradeResult
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s: a line that is not JSON (%v): %s", command, err, sc.Text())
		}
		run.results = append(run.results, r)
	}
	return run, nil
}

// A graded is a submission, and the start of the feedback its failed
// tests must have: "" for every test passed; "panic: not written yet"
// (the student's stubs) for every test failed with it; or "Timeout:" for
// one test failed with it and the others passed.
type graded struct{ path, feedback string }

// checkGradeResults fails t unless run graded each submission, in order,
// as want says.
func checkGradeResults(t *testing.T, run *gradeRun, want ...graded) {
	t.Helper()
	if len(run.results) != len(want) {
		t.Fatalf("grade printed %d results for %d submissions:\n%s", len(run.results), len(want), run.stderr)
	}
	for i, r := range run.results {
		path, expect := want[i].path, want[i].feedback
		if r.Submission != path {
			t.Errorf("result %d is of %s, want %s", i, r.Submission, path)
			continue
		}
		if r.Error != "" || len(r.Tests) == 0 {
			t.Errorf("%s: not graded: %s\n%s", r.Submission, r.Error, run.stderr)
			continue
		}
		var failed []string
		lost := 0.0
		for _, test := range r.Tests {
			if test.Feedback != "" {
				failed = append(failed, test.GradeID)
				lost += test.MaxPoints
				if expect == "" || !strings.HasPrefix(test.Feedback, expect) || test.Points != 0 {
					t.Errorf("%s: %s: %g points, feedback %q; want 0 and feedback starting %q", r.Submission, test.GradeID, test.Points, test.Feedback, expect)
				}
			}
		}
		switch {
		case expect == "" && (len(failed) > 0 || r.Score != r.MaxScore || r.MaxScore != 25):
			t.Errorf("%s: %g of %g, failed %v; want 25 of 25", r.Submission, r.Score, r.MaxScore, failed)
		case expect == "Timeout:" && (len(failed) != 1 || r.Score != r.MaxScore-lost):
			t.Errorf("%s: %g of %g, failed %v; want one test lost to the timeout", r.Submission, r.Score, r.MaxScore, failed)
		case expect == "panic: not written yet" && (len(failed) != len(r.Tests) || r.Score != 0):
			t.Errorf("%s: %g of %g, failed %v; want every test failed", r.Submission, r.Score, r.MaxScore, failed)
		}
	}
}

// loopingAnswer writes to dst the notebook src with the answer cell id's
// body an endless loop.
func loopingAnswer(src, dst, id string) error {
	return editCells(src, dst, func(cell, nbgrader map[string]any) bool {
		if nbgrader["grade_id"] != id {
			return false
		}
		signature, _, _ := strings.Cut(nbformat.Text(cell["source"]), "\n")
		cell["source"] = signature + "\n\tfor {\n\t}\n}"
		return true
	})
}

// editCells writes to dst the notebook src after edit has seen each cell
// with its nbgrader metadata (nil if it has none); it fails if edit
// changed no cell.
func editCells(src, dst string, edit func(cell, nbgrader map[string]any) bool) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	var nb map[string]any
	if err := json.Unmarshal(data, &nb); err != nil {
		return err
	}
	cells, _ := nb["cells"].([]any)
	edited := false
	for _, c := range cells {
		cell, _ := c.(map[string]any)
		md, _ := cell["metadata"].(map[string]any)
		nbg, _ := md["nbgrader"].(map[string]any)
		edited = edit(cell, nbg) || edited
	}
	if !edited {
		return fmt.Errorf("%s has no cell to edit", src)
	}
	out, err := json.Marshal(nb)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, out, 0o644)
}

// containerFacts is what podman inspect and the container's /proc said of
// a worker's container while it ran.
type containerFacts struct {
	name     string
	network  string   // HostConfig.NetworkMode
	devices  []string // the network interfaces in /proc/net/dev
	mounts   int
	binds    int
	user     string // Config.User
	uids     string // the worker's real, effective, saved and file uids
	memory   int64
	pids     int64
	hostEnv  []string // entries of the container's environment that are this process's
	problems []string // what could not be read
}

func (f containerFacts) String() string {
	return fmt.Sprintf("network %s (interfaces %s), %d mounts, user %s (uids %s), memory limit %d MiB, pids limit %d",
		f.network, strings.Join(f.devices, " "), f.mounts, f.user, f.uids, f.memory>>20, f.pids)
}

// check says what about the container is not as a worker's must be.
func (f containerFacts) check() error {
	var wrong []string
	if f.name == "" {
		return fmt.Errorf("no container of tensornb grade was seen running while it graded (%s)", strings.Join(f.problems, "; "))
	}
	if f.network != "none" || len(f.devices) != 1 || f.devices[0] != "lo" {
		wrong = append(wrong, fmt.Sprintf("a network: mode %q, interfaces %v (want none, and lo alone)", f.network, f.devices))
	}
	if f.mounts != 0 || f.binds != 0 {
		wrong = append(wrong, fmt.Sprintf("%d mounts and %d binds (want none)", f.mounts, f.binds))
	}
	if f.user != "1000" || f.uids != "1000 1000 1000 1000" {
		wrong = append(wrong, fmt.Sprintf("user %q, the worker's uids %q (want 1000)", f.user, f.uids))
	}
	if f.memory <= 0 || f.pids <= 0 {
		wrong = append(wrong, fmt.Sprintf("memory limit %d, pids limit %d (want both)", f.memory, f.pids))
	}
	if len(f.hostEnv) > 0 {
		wrong = append(wrong, "this machine's environment: "+strings.Join(f.hostEnv, " "))
	}
	if len(wrong) > 0 {
		return fmt.Errorf("the worker's container %s has %s", f.name, strings.Join(wrong, "; "))
	}
	return nil
}

// inspectGradeContainer waits for a container of tensornb grade's to run,
// and records into facts what podman inspect and the container's /proc
// say of it, until stop is called.
func (it *imageTest) inspectGradeContainer(facts *containerFacts) (stop func()) {
	ctx, cancel := context.WithCancel(it.ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for ctx.Err() == nil {
			out, _ := it.pm.run(ctx, "ps", "--filter", "label="+gradeLabel, "--format", "{{.Names}}")
			for _, name := range strings.Fields(out) {
				if f, err := it.inspectContainer(ctx, name); err == nil {
					*facts = f
					return
				} else {
					facts.problems = append(facts.problems, err.Error())
				}
			}
			time.Sleep(100 * time.Millisecond)
		}
	}()
	return func() { cancel(); wg.Wait() }
}

// inspectContainer reads what a running container is allowed.
func (it *imageTest) inspectContainer(ctx context.Context, name string) (containerFacts, error) {
	out, err := it.pm.run(ctx, "inspect", name)
	if err != nil {
		return containerFacts{}, err
	}
	var inspect []struct {
		Mounts []any
		Config struct {
			User string
			Env  []string
		}
		State      struct{ Pid int }
		HostConfig struct {
			NetworkMode string
			Binds       []string
			Memory      int64
			PidsLimit   int64
		}
	}
	if err := json.Unmarshal([]byte(out), &inspect); err != nil || len(inspect) != 1 {
		return containerFacts{}, fmt.Errorf("podman inspect %s: %v", name, err)
	}
	in := inspect[0]
	f := containerFacts{name: name, network: in.HostConfig.NetworkMode, mounts: len(in.Mounts), binds: len(in.HostConfig.Binds),
		user: in.Config.User, memory: in.HostConfig.Memory, pids: in.HostConfig.PidsLimit}
	for _, kv := range in.Config.Env {
		key, _, _ := strings.Cut(kv, "=")
		if key == "TENSORNB_PROCS" || kv == "HOME="+os.Getenv("HOME") || kv == "PATH="+os.Getenv("PATH") {
			f.hostEnv = append(f.hostEnv, kv)
		}
	}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", in.State.Pid))
	if err != nil {
		return containerFacts{}, fmt.Errorf("the worker of %s: %v", name, err)
	}
	if m := regexp.MustCompile(`(?m)^Uid:\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)`).FindStringSubmatch(string(status)); m != nil {
		f.uids = strings.Join(m[1:], " ")
	}
	// The container's own network namespace, as its worker sees it.
	dev, err := os.ReadFile(fmt.Sprintf("/proc/%d/net/dev", in.State.Pid))
	if err != nil {
		return containerFacts{}, fmt.Errorf("the worker of %s: %v", name, err)
	}
	for _, line := range strings.Split(string(dev), "\n")[2:] {
		if iface, _, ok := strings.Cut(strings.TrimSpace(line), ":"); ok {
			f.devices = append(f.devices, iface)
		}
	}
	return f, nil
}

// interruptGrade starts grading a submission whose answer loops, with a
// timeout of a minute, and interrupts grade (SIGINT, as ^C does) while
// the worker's container runs: grade must stop, saying so.
func (it *imageTest) interruptGrade(dir, bin, image, teacher, loop string) error {
	ctx, cancel := context.WithTimeout(it.ctx, 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "grade", "-image", image, "-engine", "podman", "-timeout", "1m", "-feedback", filepath.Join(dir, "feedback-interrupted"), teacher, loop)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return err
	}
	deadline := time.Now().Add(2 * time.Minute) // a hang, not a speed check
	for {
		out, _ := it.pm.run(ctx, "ps", "--filter", "label="+gradeLabel, "--format", "{{.Names}}")
		if out != "" {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			return fmt.Errorf("no container of grade's ran within a minute:\n%s", stderr.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	// The cells before the loop run in a second or two.
	time.Sleep(3 * time.Second)
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		return err
	}
	err := cmd.Wait()
	if err == nil || !strings.Contains(stderr.String(), "grading was interrupted") {
		return fmt.Errorf("grade, interrupted, ended with %v (want exit status 1, saying grading was interrupted):\n%s", err, stderr.String())
	}
	return nil
}
