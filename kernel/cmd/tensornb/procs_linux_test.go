package main

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tensornb/tensornb/kernel/internal/client"
	"github.com/tensornb/tensornb/kernel/internal/install"
	"github.com/tensornb/tensornb/kernel/internal/jupytertest"
	"github.com/tensornb/tensornb/kernel/internal/proctest"
	"github.com/tensornb/tensornb/kernel/internal/wire"
)

// A kernel that ends, however it ends, leaves none of the processes it
// started: the worker, GoNB, gopls and its telemetry process, and what
// cells started. Each installed kernelspec is started as jupyter_client
// starts it, in a session of its own, and ended as jupyter_client ends
// it: shutdown_request; SIGTERM to its process group, when a shutdown
// takes too long; SIGKILL to its process group, shutdown_kernel(now=True)
// and restart_kernel(now=True).
func TestEndedKernelLeavesNoProcesses(t *testing.T) {
	env := jupytertest.Install(t)
	cells := map[string][]string{
		install.Name: {
			"sleep, _ := os.StartProcess(\"/bin/sleep\", []string{\"sleep\", \"1000\"}, &os.ProcAttr{})\n_ = sleep.Release()",
			"%%gonb\nimport \"os/exec\"\n_ = exec.Command(\"sh\", \"-c\", \"setsid sleep 1000 &\").Run()",
		},
		install.CompiledName: {
			"import \"os/exec\"\n_ = exec.Command(\"sleep\", \"1000\").Start()\n_ = exec.Command(\"sh\", \"-c\", \"setsid sleep 1000 &\").Run()",
		},
	}
	for _, kernel := range []string{install.Name, install.CompiledName} {
		for _, end := range []string{"shutdown", "SIGTERM", "SIGKILL"} {
			t.Run(kernel+"/"+end, func(t *testing.T) {
				mark := proctest.Mark(t)
				k, c := startKernel(t, env, kernel, mark)
				for _, code := range cells[kernel] {
					if status := executeCell(t, c, code); status != "ok" {
						t.Fatalf("%q: %s", code, status)
					}
				}
				ps, ok := proctest.WaitFor(mark, time.Minute, func(ps []proctest.Process) bool {
					return len(proctest.Named(ps, "sleep")) == 2 && len(proctest.Named(ps, "gopls")) == 2
				})
				if !ok {
					t.Fatalf("the kernel's processes did not all start: %v", ps)
				}
				t.Logf("running: %v", ps)
				exited := make(chan struct{})
				go func() { _ = k.Wait(); close(exited) }()
				switch end {
				case "shutdown":
					ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
					defer cancel()
					if _, err := c.Call(ctx, client.Control, "shutdown_request", map[string]any{"restart": false}, nil); err != nil {
						t.Fatal(err)
					}
				case "SIGTERM":
					_ = syscall.Kill(-k.Process.Pid, syscall.SIGTERM)
				case "SIGKILL":
					_ = syscall.Kill(-k.Process.Pid, syscall.SIGKILL)
				}
				select {
				case <-exited:
				case <-time.After(2 * time.Minute): // only a hang takes this long
					t.Fatal("the kernel did not exit")
				}
				proctest.WaitGone(t, mark, time.Minute)
			})
		}
	}
}

// startKernel starts an installed kernelspec with a scratch connection
// file, as jupyter_client does, with mark in its environment, and returns
// it and a client connected to it.
func startKernel(t *testing.T, env []string, kernel, mark string) (*exec.Cmd, *client.Client) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(jupytertest.JupyterPath(env), "kernels", kernel, "kernel.json"))
	if err != nil {
		t.Fatal(err)
	}
	var spec struct{ Argv []string }
	if err := json.Unmarshal(data, &spec); err != nil {
		t.Fatal(err)
	}
	ports := freePorts(t, 5)
	conn := &wire.Connection{Transport: "tcp", IP: "127.0.0.1", Key: wire.NewID(), SignatureScheme: "hmac-sha256",
		ShellPort: ports[0], ControlPort: ports[1], StdinPort: ports[2], IOPubPort: ports[3], HBPort: ports[4]}
	connFile := filepath.Join(t.TempDir(), "kernel-"+wire.NewID()+".json")
	data, _ = json.Marshal(conn)
	if err := os.WriteFile(connFile, data, 0o600); err != nil {
		t.Fatal(err)
	}
	argv := strings.Split(strings.ReplaceAll(strings.Join(spec.Argv, "\x00"), "{connection_file}", connFile), "\x00")
	k := exec.Command(argv[0], argv[1:]...)
	k.Env = append(env, mark)
	k.Stderr = os.Stderr
	k.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := k.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-k.Process.Pid, syscall.SIGKILL)
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := client.Dial(context.Background(), conn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	if err := c.WaitReady(ctx); err != nil {
		t.Fatal(err)
	}
	return k, c
}

// executeCell runs code on the kernel and returns the reply's status.
func executeCell(t *testing.T, c *client.Client, code string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	reply, err := c.Call(ctx, client.Shell, "execute_request", map[string]any{
		"code": code, "silent": false, "store_history": true, "allow_stdin": false, "stop_on_error": true,
	}, func(m *wire.Message) {
		if m.Type() == "error" || m.Type() == "stream" {
			t.Logf("%s: %s", m.Type(), m.Content)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Status string `json:"status"`
	}
	_ = reply.Decode(&r)
	return r.Status
}

// freePorts returns n TCP ports nothing listens on.
func freePorts(t *testing.T, n int) []int {
	t.Helper()
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close() // held until all n are picked, so that they differ
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports
}
