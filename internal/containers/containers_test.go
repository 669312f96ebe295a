package containers

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteConf(t *testing.T) {
	path, err := WriteConf(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, want := range []string{"[containers]\n", `default_ulimits = ["nofile=`, `", "nproc=`, "[engine]\n", `cgroup_manager = "cgroupfs"`} {
		if !strings.Contains(text, want) {
			t.Errorf("containers.conf lacks %q:\n%s", want, text)
		}
	}
	_, err = exec.LookPath("runc")
	if got := strings.Contains(text, `runtime = "runc"`); got != (err == nil) {
		t.Errorf("runtime runc named: %v, runc installed: %v:\n%s", got, err == nil, text)
	}
	e := &Engine{Name: Podman, Conf: path}
	if env := e.Env(); env[len(env)-1] != "CONTAINERS_CONF="+path {
		t.Errorf("the environment ends %q, want CONTAINERS_CONF", env[len(env)-1])
	}
}

func TestFind(t *testing.T) {
	if _, err := Find("lxc"); err == nil || !strings.Contains(err.Error(), "give podman, docker or auto") {
		t.Errorf("Find(lxc): %v", err)
	}
	t.Setenv("PATH", t.TempDir())
	if _, err := Find("auto"); err == nil || !strings.Contains(err.Error(), "neither podman nor docker is on PATH") {
		t.Errorf("Find(auto) with an empty PATH: %v", err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, Docker), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	if name, err := Find("auto"); name != Docker || err != nil {
		t.Errorf("Find(auto) with docker alone on PATH: %q, %v", name, err)
	}
	if _, err := Find(Podman); err == nil || !strings.Contains(err.Error(), "podman is not on PATH") {
		t.Errorf("Find(podman) with docker alone on PATH: %v", err)
	}
}

func TestQuote(t *testing.T) {
	if got, want := Quote("podman", "run", "--env", "A=b c", "it's"), `podman run --env 'A=b c' 'it'\''s'`; got != want {
		t.Errorf("Quote: %s, want %s", got, want)
	}
}
