package interp_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/kernel/internal/front"
)

// An index or slice expression with constant operands inside a function
// fails with Go's message, numbers and all, as it does at a cell's top
// level. The messages are those of the same functions compiled by Go (go
// run, each call's panic recovered and printed).
func TestIndexErrorsInFunctionsHaveNumbers(t *testing.T) {
	s, out := newSession(t)
	run(t, s, "func third(s []int) int { return s[2] }\n"+
		"func tail(s []int) []int { return s[1:5] }\n"+
		"func from(s string) string { return s[3:] }\n"+
		"func at(s string) byte { return s[4] }\n"+
		"func lim(s []int) []int { return s[0:1:4] }\n"+
		"type box struct{ xs []int }\n"+
		"func (b *box) second() int {\n\tx := b.xs[1]\n\treturn x\n}")
	for _, c := range []struct{ call, want string }{
		{"third([]int{1, 2})", "runtime error: index out of range [2] with length 2"},
		{"tail([]int{1, 2, 3})", "runtime error: slice bounds out of range [:5] with capacity 3"},
		{"from(\"ab\")", "runtime error: slice bounds out of range [3:2]"},
		{"at(\"ab\")", "runtime error: index out of range [4] with length 2"},
		{"lim([]int{1, 2, 3})", "runtime error: slice bounds out of range [::4] with capacity 3"},
		{"(&box{xs: []int{7}}).second()", "runtime error: index out of range [1] with length 1"},
		{"func() { var s []int; _ = s[5] }()", "runtime error: index out of range [5] with length 0"},
		{"for i := 0; i < 1; i++ {\n\tvar s []int\n\t_ = s[3]\n}", "runtime error: index out of range [3] with length 0"},
	} {
		err := s.Run(context.Background(), c.call)
		var ce *front.CellError
		if !errors.As(err, &ce) || ce.Name != "panic" || ce.Value != c.want || ce.Traceback[0] != "panic: "+c.want {
			t.Errorf("%s: %#v, want the panic %q", c.call, err, c.want)
		}
	}
	// Where Go does not fail, nothing added fails: an operand of && that
	// is not evaluated, a closure not called, an index after a call that
	// makes the slice longer (Go evaluates the call first).
	run(t, s, "func safe(s []int) bool { return len(s) > 2 && s[2] > 0 }\n"+
		"func later() func() int { var s []int; return func() int { return s[5] } }\n"+
		"func grow(p *[]int) int { *p = append(*p, 1, 2, 3); return 0 }\n"+
		"func sum(s []int) int { return grow(&s) + s[2] }")
	run(t, s, "_ = later()\nfmt.Sprint(safe([]int{1}), sum([]int{1}))")
	if got := out.results[len(out.results)-1]; got != `"false 2"` {
		t.Fatalf("result %s, want \"false 2\"", got)
	}
	if strings.Contains(strings.Join(out.results, ""), "tensornb") {
		t.Fatalf("results %q", out.results)
	}
}
