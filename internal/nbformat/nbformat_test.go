package nbformat_test

import (
	"testing"

	"github.com/tensornb/tensornb/internal/nbformat"
)

func TestJoin(t *testing.T) {
	for _, c := range []struct {
		name string
		v    any
		want string
		ok   bool
	}{
		{"a string", "a\nb", "a\nb", true},
		{"a list of lines", []any{"a\n", "b"}, "a\nb", true},
		{"an empty list", []any{}, "", true},
		{"left out", nil, "", true},
		{"a list with a number", []any{"a\n", 7.0, "b"}, "a\nb", false},
		{"a number", 7.0, "", false},
		{"an object", map[string]any{"a": "b"}, "", false},
	} {
		got, ok := nbformat.Join(c.v)
		if got != c.want || ok != c.ok {
			t.Errorf("%s: Join gives %q, %t; want %q, %t", c.name, got, ok, c.want, c.ok)
		}
		if text := nbformat.Text(c.v); text != c.want {
			t.Errorf("%s: Text gives %q, want %q", c.name, text, c.want)
		}
	}
}
