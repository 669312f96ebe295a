package main

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tensornb/tensornb/kernel/internal/install"
	"github.com/tensornb/tensornb/kernel/internal/jupytertest"
	"github.com/tensornb/tensornb/kernel/internal/proctest"
)

// A kernel whose client dies without shutting it down, as a notebook
// server or jupyter console killed with SIGKILL dies, ends by itself and
// leaves none of its processes. The client is jupyter_client's
// KernelManager in a Python process (testdata/client_dies.py), which
// starts each installed kernelspec, runs cells that bring the engines up
// (on the instant kernelspec, a %%gonb cell starts GoNB and its gopls)
// and start a program, and is then killed.
func TestKernelEndsWithItsClient(t *testing.T) {
	jupytertest.Require(t, "jupyter_client")
	env := jupytertest.Install(t)
	script, err := filepath.Abs(filepath.Join("testdata", "client_dies.py"))
	if err != nil {
		t.Fatal(err)
	}
	cells := map[string][]string{
		install.Name:         {"sleep, _ := os.StartProcess(\"/bin/sleep\", []string{\"sleep\", \"1000\"}, &os.ProcAttr{})\n_ = sleep.Release()", "%%gonb\n_ = 1"},
		install.CompiledName: {"import \"os/exec\"\n_ = exec.Command(\"sleep\", \"1000\").Start()"},
	}
	for _, kernel := range []string{install.Name, install.CompiledName} {
		t.Run(kernel, func(t *testing.T) {
			mark := proctest.Mark(t)
			// The kernel inherits the client's standard output and error:
			// a pipe the test reads to its end, and a file.
			stdout, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer stdout.Close()
			stderr, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
			if err != nil {
				t.Fatal(err)
			}
			defer stderr.Close()
			client := exec.Command(jupytertest.Python, append([]string{script, kernel}, cells[kernel]...)...)
			client.Env = append(env, mark)
			client.Stdout, client.Stderr = w, stderr
			err = client.Start()
			w.Close()
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = client.Process.Kill(); _ = client.Wait() }()

			lines := make(chan string, 1)
			go func() {
				line, _ := bufio.NewReader(stdout).ReadString('\n')
				lines <- line
				_, _ = io.Copy(io.Discard, stdout)
			}()
			var started struct {
				PID    int
				Status string
			}
			select {
			case line := <-lines:
				if err := json.Unmarshal([]byte(line), &started); err != nil || started.Status != "ok" {
					logFile(t, stderr)
					t.Fatalf("the client printed %q (%v)", line, err)
				}
			case <-time.After(5 * time.Minute):
				logFile(t, stderr)
				t.Fatal("the client did not run its cell")
			}
			ps, ok := proctest.WaitFor(mark, time.Minute, func(ps []proctest.Process) bool {
				return slices.ContainsFunc(ps, func(p proctest.Process) bool { return p.PID == started.PID }) &&
					len(proctest.Named(ps, "sleep")) == 1 && len(proctest.Named(ps, "gopls")) == 2
			})
			if !ok {
				t.Fatalf("the kernel's processes did not all start: %v", ps)
			}
			t.Logf("running: %v", ps)

			_ = client.Process.Kill()
			_ = client.Wait()
			proctest.WaitGone(t, mark, time.Minute)
			if log := logFile(t, stderr); !strings.Contains(log, "tensornb: shutting down: ") {
				t.Error("the kernel did not say why it ended")
			}
		})
	}
}

// logFile logs what f holds and returns it.
func logFile(t *testing.T, f *os.File) string {
	t.Helper()
	data, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s:\n%s", f.Name(), data)
	return string(data)
}
