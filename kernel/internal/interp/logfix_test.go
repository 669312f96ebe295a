package interp_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/kernel/internal/front"
	"github.com/tensornb/tensornb/kernel/internal/interp"
	"github.com/tensornb/tensornb/kernel/internal/interp/worker"
)

// A *log.Logger has all of Go's methods (yaegi's lacked SetPrefix),
// log.Default is the logger of the package's functions, and log.Fatal
// prints, then ends the cell with exit status 1, as go run ends the
// program; file and line flags are refused.
func TestLogLogger(t *testing.T) {
	var out bytes.Buffer
	s, err := interp.Open(worker.Host("../../.."), &out, io.Discard, nil)
	if err != nil {
		t.Fatal(err)
	}
	cells := []string{
		"var buf bytes.Buffer\nl := log.New(&buf, \"a: \", 0)\nl.SetPrefix(\"b: \")\nl.Println(\"x\")\nl.Printf(\"%s %d\", l.Prefix(), l.Flags())\nl.SetFlags(log.Lmsgprefix)\nl.Print(\"msg\")",
		"d := log.Default()\nd.SetOutput(&buf)\nd.SetFlags(0)\nlog.Println(\"via package\")\nvar typed *log.Logger = d\ntyped.SetPrefix(\"p: \")\nlog.Print(\"pref\")\nfmt.Print(&buf)",
		"l.SetOutput(&buf)\nbuf.Reset()\nfunc() {\n\tdefer func() { fmt.Printf(\"recovered %q, logged %q\\n\", recover(), buf.String()) }()\n\tl.Panicf(\"pan %d\", 1)\n}()",
	}
	for _, c := range cells {
		if err := s.Run(context.Background(), c); err != nil {
			t.Fatalf("cell %q: %v", c, err)
		}
	}
	err = s.Run(context.Background(), "buf.Reset()\nlog.SetOutput(&buf)\nlog.Fatalln(\"fatal!\", 2)\nfmt.Println(\"not reached\")")
	var ce *front.CellError
	if !errors.As(err, &ce) || ce.Name != "Exit" || !strings.Contains(ce.Value, "exit status 1") {
		t.Fatalf("log.Fatalln: %#v", err)
	}
	if err := s.Run(context.Background(), "fmt.Print(&buf)"); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), "b: x\nb: b:  0\nb: msg\nvia package\np: pref\nrecovered \"pan 1\", logged \"b: pan 1\\n\"\np: fatal! 2\n"; got != want {
		t.Fatalf("printed %q, want %q", got, want)
	}
	err = s.Run(context.Background(), "l.SetFlags(log.Lshortfile)")
	if !errors.As(err, &ce) || ce.Name != "Unsupported" || !strings.Contains(ce.Value, "log.Lshortfile") {
		t.Fatalf("log.Lshortfile: %#v", err)
	}
}
