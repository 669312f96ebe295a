package interp

import (
	"testing"

	"github.com/traefik/yaegi/interp"
)

// yaegi's lists that forgetRetained empties are where it looks for them:
// a newer yaegi that moved them needs another look.
func TestForgetRetainedFindsYaegisLists(t *testing.T) {
	in := interp.New(interp.Options{})
	for _, src := range []string{"x := 1", "func f() int { return x }"} {
		if _, err := in.Eval(src); err != nil {
			t.Fatal(err)
		}
	}
	if !forgetRetained(in) {
		t.Fatal("yaegi's Interpreter no longer has the fields roots, universe and scopes, or its scopes no field child")
	}
}
