// Package containers starts containers with podman, or docker, on the
// machines this project runs on: a teacher's, where the engine's own
// configuration works, and CI's, where podman's defaults cannot start a
// container (see WriteConf). tensornb grade runs its workers in
// containers through it, and the image test (docker/) builds and runs
// the image through it.
package containers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// The engines Find knows, in the order it tries them.
const (
	Podman = "podman"
	Docker = "docker"
)

// An Engine is a container engine's command and what it runs with.
type Engine struct {
	// Name is the command: Podman or Docker.
	Name string
	// Conf is a containers.conf that WriteConf wrote for this machine,
	// which podman reads instead of the machine's (through
	// CONTAINERS_CONF), or "" for the machine's own configuration.
	Conf string
}

// Find returns the engine named name, or for "auto" the first of podman
// and docker that is on PATH; it says what to do when there is none.
func Find(name string) (string, error) {
	switch name {
	case Podman, Docker:
		if _, err := exec.LookPath(name); err != nil {
			return "", fmt.Errorf("%s is not on PATH: install it, or name the other engine", name)
		}
		return name, nil
	case "auto", "":
		for _, n := range []string{Podman, Docker} {
			if _, err := exec.LookPath(n); err == nil {
				return n, nil
			}
		}
		return "", errors.New("neither podman nor docker is on PATH")
	}
	return "", fmt.Errorf("unknown container engine %q: give podman, docker or auto", name)
}

// Env is the environment the engine's command runs with: this process's,
// and CONTAINERS_CONF if e has a configuration of its own.
func (e *Engine) Env() []string {
	env := os.Environ()
	if e.Conf != "" {
		env = append(env, "CONTAINERS_CONF="+e.Conf)
	}
	return env
}

// Command returns the engine's command with args, ready to start.
func (e *Engine) Command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, e.Name, args...)
	cmd.Env = e.Env()
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// Run runs the engine with args and returns its standard output,
// trimmed; its error holds the command and what it wrote to standard
// error.
func (e *Engine) Run(ctx context.Context, args ...string) (string, error) {
	var stdout, stderr bytes.Buffer
	cmd := e.Command(ctx, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = strings.TrimSpace(stdout.String())
		}
		if ctx.Err() != nil {
			msg += fmt.Sprintf(" (stopped: %v)", ctx.Err())
		}
		return "", &RunError{Command: Quote(e.Name, args...), Err: err, Said: msg}
	}
	return strings.TrimSpace(stdout.String()), nil
}

// A RunError is a run of the engine that failed: its command, how it
// ended, and what it said on standard error.
type RunError struct {
	Command string
	Err     error
	Said    string
}

func (e *RunError) Error() string { return fmt.Sprintf("%s: %v: %s", e.Command, e.Err, e.Said) }

func (e *RunError) Unwrap() error { return e.Err }

// Start returns the engine name on which probe, a first container,
// starts: with the machine's configuration or, for podman, failing that,
// with the one WriteConf writes in dir (which must outlive the engine's
// use). It also says which configuration it chose, or why neither
// works.
func Start(ctx context.Context, name, dir string, probe func(*Engine) error) (e *Engine, how string, err error) {
	e = &Engine{Name: name}
	first := probe(e)
	if first == nil {
		return e, name + " with this machine's configuration", nil
	}
	if name != Podman {
		return nil, "", fmt.Errorf("%s cannot start a container here: %w", name, first)
	}
	conf, err := WriteConf(dir)
	if err != nil {
		return nil, "", err
	}
	e = &Engine{Name: name, Conf: conf}
	if err := probe(e); err != nil {
		return nil, "", fmt.Errorf("podman cannot start a container here, with this machine's configuration (%v) nor with runc, cgroupfs and this machine's limits (%v)", lastLine(first.Error()), lastLine(err.Error()))
	}
	data, _ := os.ReadFile(conf)
	how = fmt.Sprintf("podman with a containers.conf of its own, as its defaults failed here (%s):\n%s", lastLine(first.Error()), strings.TrimSpace(string(data)))
	return e, how, nil
}

// WriteConf writes dir/containers.conf for machines like CI's, where
// podman's defaults cannot start a container: the runc runtime, if it is
// installed (crun fails in hybrid cgroup mode: "cgroups in hybrid mode
// not supported"), cgroupfs rather than systemd, and limits of open files
// and processes (20000 and 4096, or this process's own if lower) that
// runc may set (podman's defaults exceed what the machine allows:
// "setrlimit RLIMIT_NOFILE: Operation not permitted"). It returns the
// file's path.
func WriteConf(dir string) (string, error) {
	var b strings.Builder
	b.WriteString("# Written by tensornb (internal/containers) for podman on this machine.\n")
	b.WriteString("[containers]\n")
	files, procs := limits(20000, 4096)
	fmt.Fprintf(&b, "default_ulimits = [\"nofile=%d:%d\", \"nproc=%d:%d\"]\n", files, files, procs, procs)
	b.WriteString("log_driver = \"k8s-file\"\n")
	b.WriteString("[engine]\n")
	b.WriteString("cgroup_manager = \"cgroupfs\"\n")
	b.WriteString("events_logger = \"file\"\n")
	if _, err := exec.LookPath("runc"); err == nil {
		b.WriteString("runtime = \"runc\"\n")
	}
	path := filepath.Join(dir, "containers.conf")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		return "", fmt.Errorf("writing podman's configuration for this machine: %w", err)
	}
	return path, nil
}

// Quote writes a command as one could paste it into a shell.
func Quote(name string, args ...string) string {
	words := []string{name}
	for _, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\n'\"$`\\|&;<>()*?[]{}~#") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		words = append(words, a)
	}
	return strings.Join(words, " ")
}

// lastLine is the last line of s.
func lastLine(s string) string {
	s = strings.TrimRight(s, "\n")
	if i := strings.LastIndex(s, "\n"); i >= 0 {
		return s[i+1:]
	}
	return s
}
