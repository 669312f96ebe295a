package worker

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// In the worker, a shell line's output comes with the cell's, and %env
// and %cd change the worker's process. A replay after a crash runs the
// cells' %cd and %env again, not their shell lines.
func TestCommandsInTheWorker(t *testing.T) {
	e := newEngine(t)
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "ran")
	items, err := execute(t, e, "%cd "+dir+"\n%env GONB_WORKER_TEST=one\n!echo shell >> ran; echo $GONB_WORKER_TEST\nfmt.Println(os.Getenv(\"GONB_WORKER_TEST\"))")
	want := "Changed directory to \"" + dir + "\"\nSet: GONB_WORKER_TEST=\"one\"\none\none\n"
	if err != nil || stdout(items) != want {
		t.Fatalf("the cell: %q %v, want %q", items, err, want)
	}
	if _, err := execute(t, e, "import \"time\"\ngo func() { panic(\"boom\") }()\ntime.Sleep(5 * time.Second)"); err == nil {
		t.Fatal("the goroutine's panic did not end the worker")
	}
	items, err = execute(t, e, "!pwd; echo $GONB_WORKER_TEST")
	if err != nil || !strings.Contains(stderr(items), "Replaying") || stdout(items) != dir+"\none\n" {
		t.Fatalf("after the replay: %q %v", items, err)
	}
	if data, err := os.ReadFile(log); err != nil || string(data) != "shell\n" {
		t.Errorf("the shell line ran %q times (%v), want once", data, err)
	}
}

// stdout is what the outputs wrote on stdout, together.
func stdout(items []string) string {
	var b strings.Builder
	for _, it := range items {
		if text, ok := strings.CutPrefix(it, "stdout: "); ok {
			b.WriteString(text)
		}
	}
	return b.String()
}
