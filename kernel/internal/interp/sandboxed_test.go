package interp_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/kernel/internal/front"
)

// A sandboxed session refuses, before running anything, every package
// that reaches files, processes, the environment or the network, whether
// imported or used by name; the rest runs as before.
func TestSandbox(t *testing.T) {
	s, _ := newSession(t)
	s.Sandbox()
	for _, code := range []string{
		`import "os"` + "\n" + `data, _ := os.ReadFile("/etc/passwd")`,
		`home := os.Getenv("HOME")`,
		`import "net"` + "\n" + `c, err := net.Dial("tcp", "127.0.0.1:1")`,
		`import "os/exec"` + "\n" + `exec.Command("true").Run()`,
		`import "io/ioutil"` + "\n" + `ioutil.ReadFile("/etc/passwd")`,
		`import "syscall"` + "\n" + `syscall.Getpid()`,
		`import "unsafe"` + "\n" + `var p unsafe.Pointer`,
		`import "github.com/janpfeifer/gonb/cache"` + "\n" + `cache.Reset()`,
	} {
		err := s.Run(context.Background(), code)
		var ce *front.CellError
		if !errors.As(err, &ce) || ce.Name != "Unsupported" || !strings.Contains(ce.Value, "graded code cannot use it, for it could reach files, processes or the network") {
			t.Errorf("%q: got %v, want the sandbox's refusal", code, err)
		}
	}
	run(t, s, "x := tensor.Arange(6).View(2, 3)\ncheck.View(x.T(), x, x.Transpose(0, 1))\nfmt.Println(strings.Repeat(\"ok\", 2), time.Second)")
}

// A sandboxed session refuses the commands that reach the process: shell
// lines, %cd, %env; the others run.
func TestSandboxCommands(t *testing.T) {
	s, _ := newSession(t)
	s.Sandbox()
	for _, code := range []string{"!touch /tmp/sandbox-escape", "//gonb:!ls", "%cd /", "%env HOME /tmp\nfmt.Println(1)"} {
		err := s.Run(context.Background(), code)
		var ce *front.CellError
		if !errors.As(err, &ce) || ce.Name != "NotInSandbox" || !strings.Contains(ce.Value, "graded code cannot run it") {
			t.Errorf("%q: got %v, want the sandbox's refusal", code, err)
		}
	}
	run(t, s, "func f() {}\n%rm f\n%%\nfmt.Println(\"main\")")
	// A cell refused runs none of its commands: %rm, before the shell
	// line, forgot g.
	run(t, s, "func g() int { return 7 }")
	if err := s.Run(context.Background(), "%rm g\n!true"); err == nil {
		t.Fatal("a shell line ran in the sandbox")
	}
	run(t, s, "fmt.Println(g())")
}
