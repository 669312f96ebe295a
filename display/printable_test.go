package display

import (
	"strings"
	"testing"
)

func TestPrintable(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain name", "plain name"},
		{"\x00", "␀"},
		{"\x1b[31m", "␛[31m"},
		{"a\nb\tc\r", "a␊b␉c␍"},
		{"del\x7f", "del␡"},
		{"csi\u009b", "csi\ufffd"},
		{"bad \xff utf-8", "bad \ufffd utf-8"},
		{"\ufffe\uffff", "\ufffd\ufffd"},
		{"<&> α 转置 🙂", "<&> α 转置 🙂"},
	} {
		if got := printable(c.in); got != c.want {
			t.Errorf("printable(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestNameTextIsShort(t *testing.T) {
	for _, in := range []string{strings.Repeat("long", 100_000), strings.Repeat("转", 1000), strings.Repeat("\x00", 1000)} {
		got := nameText(in)
		if n := len([]rune(got)); n != maxName || !strings.HasSuffix(got, "…") {
			t.Errorf("nameText of %d bytes has %d characters: %q", len(in), n, got)
		}
	}
	if got := nameText("short"); got != "short" {
		t.Errorf("nameText(%q) = %q", "short", got)
	}
}
