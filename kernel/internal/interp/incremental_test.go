package interp_test

import (
	"context"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/kernel/internal/interp/worker"
)

// What a cell changes reaches the declarations that use it, and those
// that use them in turn, though no cell names them: a variable defined
// again with another type makes f, which reads it, and g, which calls f,
// no longer compile. The next cell, whatever it is, forgets both, with a
// note each, as when every cell was checked with all the session. A
// method is found by its name alone, as an interface's call finds it.
func TestChangesReachTheDeclarationsThatUseThem(t *testing.T) {
	var notes strings.Builder
	s, err := worker.NewSession("../../..", &notes, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, out := newSession(t) // the display sink
	run(t, s, "x := 1")
	run(t, s, "func f() int { return x + 1 }")
	run(t, s, "func g() int { return f() * 2 }")
	run(t, s, "type T struct{}\nfunc (T) Name() string { return \"T\" }\ntype Namer interface{ Name() string }\nvar n Namer = T{}")
	run(t, s, "g()")
	run(t, s, "n.Name()")
	run(t, s, `x := "s"`)
	if notes.Len() > 0 {
		t.Fatalf("notes before the next cell: %s", notes.String())
	}
	run(t, s, "1 + 1")
	want := "tensornb: f, from an earlier cell, no longer compiles with this cell (invalid operation: x + 1 (mismatched types string and untyped int)); it is forgotten: declare it again to use it.\n" +
		"tensornb: g, from an earlier cell, no longer compiles with this cell (undefined: f); it is forgotten: declare it again to use it.\n"
	if notes.String() != want {
		t.Errorf("notes\n%s\nwant\n%s", notes.String(), want)
	}
	for _, code := range []string{"f()", "g()"} {
		if err := s.Run(context.Background(), code); err == nil || !strings.Contains(err.Error(), "undefined: "+code[:1]) {
			t.Errorf("%s after x became a string: %v, want undefined", code, err)
		}
	}
	run(t, s, "x + \"!\"")
	if got := strings.Join(out.results, "|"); got != `4|"T"|2|"s!"` {
		t.Fatalf("results %s, want 4|\"T\"|2|\"s!\"", got)
	}
}
