package docker

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tensornb/tensornb/internal/containers"
)

// failure is what the image test reports when a step fails: the step, the
// command that failed, what went wrong, the end of the log that says more,
// and what to do next.
type failure struct {
	step, command, problem, log, todo string
}

func (f *failure) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "step %q failed", f.step)
	if f.command != "" {
		fmt.Fprintf(&b, "\n  command: %s", f.command)
	}
	fmt.Fprintf(&b, "\n  what went wrong: %s", indent(f.problem))
	if log := strings.TrimSpace(f.log); log != "" {
		fmt.Fprintf(&b, "\n  the log's last lines:\n%s", indentAll(lastLines(log, 30)))
	}
	if f.todo != "" {
		fmt.Fprintf(&b, "\n  what to do: %s", indent(f.todo))
	}
	return b.String()
}

func indent(s string) string { return strings.ReplaceAll(strings.TrimSpace(s), "\n", "\n    ") }

func indentAll(s string) string { return "    " + indent(s) }

// lastLines is the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// quote writes a command as one could paste it into a shell.
var quote = containers.Quote

// progress prints a line at once, with the time since the test started, so
// that a long step shows that it is moving.
type progress struct{ start time.Time }

func (p progress) say(format string, args ...any) {
	d := time.Since(p.start).Round(time.Second)
	fmt.Printf("image: [%02d:%02d] %s\n", int(d.Minutes()), int(d.Seconds())%60, fmt.Sprintf(format, args...))
}

// lineWriter prints each line written to it at once with a prefix, and
// keeps all of them.
type lineWriter struct {
	prefix string
	quiet  func(string) bool // lines not to print (still kept)
	buf    bytes.Buffer
	all    bytes.Buffer
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.all.Write(p)
	w.buf.Write(p)
	for {
		line, err := w.buf.ReadString('\n')
		if err != nil {
			w.buf.WriteString(line)
			return len(p), nil
		}
		line = strings.TrimRight(line, "\r\n")
		if w.quiet == nil || !w.quiet(line) {
			fmt.Printf("%s%s\n", w.prefix, line)
		}
	}
}

// podman runs podman with the configuration the test chose (the
// machine's, or one of its own: see containers.Start).
type podman struct {
	*containers.Engine
}

func (p *podman) env() []string { return p.Env() }

func (p *podman) command(ctx context.Context, args ...string) *exec.Cmd {
	return p.Command(ctx, args...)
}

// run runs podman and returns its standard output, trimmed; the error
// holds its standard error.
func (p *podman) run(ctx context.Context, args ...string) (string, error) {
	return p.Run(ctx, args...)
}

// stream runs podman with its output printed line by line under prefix,
// and returns all of it.
func (p *podman) stream(ctx context.Context, prefix string, quiet func(string) bool, args ...string) (string, error) {
	w := &lineWriter{prefix: prefix, quiet: quiet}
	cmd := p.command(ctx, args...)
	cmd.Stdout, cmd.Stderr = w, w
	err := cmd.Run()
	return w.all.String(), err
}

// exists reports whether podman has the image.
func (p *podman) exists(ctx context.Context, image string) bool {
	return p.command(ctx, "image", "exists", image).Run() == nil
}

// label returns an image's label, or "".
func (p *podman) label(ctx context.Context, image, name string) string {
	out, err := p.run(ctx, "image", "inspect", "--format", fmt.Sprintf("{{index .Labels %q}}", name), image)
	if err != nil || out == "<no value>" {
		return ""
	}
	return out
}

// probeRoot makes a root file system that holds only /bin/true and the
// libraries it loads, to start a first container without any image.
func probeRoot(dir string) (string, error) {
	root := filepath.Join(dir, "probe-root")
	truePath, err := exec.LookPath("true")
	if err != nil {
		return "", err
	}
	truePath, err = filepath.EvalSymlinks(truePath)
	if err != nil {
		return "", err
	}
	files := []string{truePath}
	out, err := exec.Command("ldd", truePath).Output()
	if err == nil {
		for _, f := range strings.Fields(string(out)) {
			if strings.HasPrefix(f, "/") {
				files = append(files, f)
			}
		}
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		dst := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(dst, data, 0o755); err != nil {
			return "", err
		}
	}
	for _, d := range []string{"etc", "proc", "sys", "dev", "tmp"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			return "", err
		}
	}
	if err := os.Symlink(truePath, filepath.Join(root, "true")); err != nil {
		return "", err
	}
	return root, nil
}

// startPodman finds a way for podman to start a container here: the
// machine's configuration, or failing that the one containers.WriteConf
// writes. It returns the podman to use, what it chose, and why podman
// cannot start a container if it cannot.
func startPodman(ctx context.Context, dir string) (*podman, string, error) {
	if _, err := exec.LookPath("podman"); err != nil {
		return nil, "", errors.New("podman is not installed (scripts/image installs Debian's podman, runc and slirp4netns with apt-get)")
	}
	root, err := probeRoot(dir)
	if err != nil {
		return nil, "", fmt.Errorf("could not make a root file system for a first container: %v", err)
	}
	e, how, err := containers.Start(ctx, containers.Podman, dir, func(e *containers.Engine) error {
		ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
		defer cancel()
		_, err := e.Run(ctx, "run", "--rm", "--network", "none", "--rootfs", root, "/true")
		return err
	})
	if err != nil {
		return nil, "", err
	}
	return &podman{e}, strings.ReplaceAll(how, "\n", "\n    "), nil
}

// readLines calls f with each line r gives, until r ends.
func readLines(r io.Reader, f func(string)) {
	s := bufio.NewScanner(r)
	s.Buffer(make([]byte, 1<<20), 1<<20)
	for s.Scan() {
		f(s.Text())
	}
}

// require skips the test with reason, or fails it when
// TENSORNB_REQUIRE_IMAGE is set (scripts/image and CI set it).
func require(t *testing.T, reason string) {
	t.Helper()
	if os.Getenv("TENSORNB_REQUIRE_IMAGE") != "" {
		t.Fatalf("%s (TENSORNB_REQUIRE_IMAGE is set, so this fails instead of skipping)", reason)
	}
	t.Skip(reason)
}
