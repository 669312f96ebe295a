//go:build linux

package display_test

import (
	"encoding/gob"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/janpfeifer/gonb/gonbui/protocol"
	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/tensor"
)

// Under GoNB (GONB_PIPE set), Show and Update send the whole bundle, every
// MIME type, through GoNB's named pipe, as gonbui's protocol encodes it.
// The test runs itself as the cell program, with pipes it reads as GoNB
// would.
func TestGoNBPipe(t *testing.T) {
	if os.Getenv("TENSORNB_AS_GONB_CELL") != "" {
		x := tensor.Float32.Arange(12).View(3, 4)
		display.Show(display.Card(x))
		display.Update("grid-1", display.Grid(x))
		return
	}
	dir := t.TempDir()
	pipe, back := filepath.Join(dir, "pipe"), filepath.Join(dir, "back")
	for _, p := range []string{pipe, back} {
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cell := exec.Command(os.Args[0], "-test.run=^TestGoNBPipe$")
	cell.Env = append(os.Environ(), "TENSORNB_AS_GONB_CELL=1", "GONB_PIPE="+pipe, "GONB_PIPE_BACK="+back)
	cell.Stderr = os.Stderr
	if err := cell.Start(); err != nil {
		t.Fatal(err)
	}
	// When the cell program ends, open the pipes' other ends too, so that
	// a test still waiting to open them fails instead of hanging.
	exited := make(chan error, 1)
	go func() {
		err := cell.Wait()
		if f, e := os.OpenFile(pipe, os.O_WRONLY|syscall.O_NONBLOCK, 0); e == nil {
			f.Close()
		}
		if f, e := os.OpenFile(back, os.O_RDONLY|syscall.O_NONBLOCK, 0); e == nil {
			f.Close()
		}
		exited <- err
	}()
	// gonbui opens its writing end first, then its reading end.
	r, err := os.OpenFile(pipe, os.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	w, err := os.OpenFile(back, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	dec, enc := gob.NewDecoder(r), gob.NewEncoder(w)
	// next reads the next display, answering the sync requests that follow
	// each, as GoNB does once it has published what came before.
	next := func() protocol.DisplayData {
		for {
			var got protocol.DisplayData
			if err := dec.Decode(&got); err != nil {
				t.Fatal(err)
			}
			sync, ok := got.Data[protocol.MIMECommValue].(protocol.CommValue)
			if !ok {
				return got
			}
			if err := enc.Encode(&protocol.CommValue{Address: protocol.GonbuiSyncAckAddress, Value: sync.Value}); err != nil {
				t.Fatal(err)
			}
		}
	}
	x := tensor.Float32.Arange(12).View(3, 4)
	for _, want := range []struct {
		id     string
		bundle display.Bundle
	}{{"", display.Card(x).Bundle()}, {"grid-1", display.Grid(x).Bundle()}} {
		got := next()
		if got.DisplayID != want.id || len(got.Data) != len(want.bundle) {
			t.Fatalf("got id %q and %d MIME types, want %q and %d", got.DisplayID, len(got.Data), want.id, len(want.bundle))
		}
		for mime, content := range want.bundle {
			if got.Data[protocol.MIMEType(mime)] != content {
				t.Errorf("%s differs", mime)
			}
		}
	}
	// Answer the last sync, and any other, until the cell program ends.
	for {
		var more protocol.DisplayData
		if dec.Decode(&more) != nil {
			break
		}
		if sync, ok := more.Data[protocol.MIMECommValue].(protocol.CommValue); ok {
			_ = enc.Encode(&protocol.CommValue{Address: protocol.GonbuiSyncAckAddress, Value: sync.Value})
		}
	}
	w.Close()
	if err := <-exited; err != nil {
		t.Fatalf("the cell program failed: %v", err)
	}
}
