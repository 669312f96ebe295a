package cellcmd

import (
	"reflect"
	"testing"
)

// Commands are taken out of the cell, their lines left blank, the Go
// lines where they were; a continued line joins the next.
func TestParse(t *testing.T) {
	c := Parse("// comment\npackage abc\n%env A \"b c\"\nx := 1\n//gonb:!echo one \\\n  two\n!*ls\n%% -x=17 \"\"\nf()")
	want := []Command{
		{Line: 3, Last: 3, Name: "env", Args: []string{"A", "b c"}},
		{Line: 5, Last: 6, Shell: true, Text: "echo one    two"},
		{Line: 7, Last: 7, Shell: true, InTemp: true, Text: "ls"},
		{Line: 8, Last: 8, Name: "%", Args: []string{"-x=17", ""}},
	}
	if !reflect.DeepEqual(c.Commands, want) {
		t.Errorf("commands %+v, want %+v", c.Commands, want)
	}
	if wantCode := "// comment\npackage abc\n\nx := 1\n\n\n\n\nf()"; c.Code != wantCode {
		t.Errorf("code %q, want %q", c.Code, wantCode)
	}
	if c.Main != 8 || c.Magic != "" {
		t.Errorf("main %d, magic %q", c.Main, c.Magic)
	}
}

// Only a line that starts with % or ! in its first column is a command:
// not Go's modulo or negation, nor an indented line, nor a lone %.
func TestNotCommands(t *testing.T) {
	for _, code := range []string{"x := 5 %\n3", "if !ok {\n}", "\t!done", "  %rm a", "%", "// %% in a comment"} {
		if c := Parse(code); len(c.Commands) != 0 || c.Code != code {
			t.Errorf("Parse(%q) = %+v", code, c)
		}
	}
}

// A cell magic on the cell's first line makes the rest of the cell not Go;
// elsewhere it is a command like the others.
func TestCellMagic(t *testing.T) {
	c := Parse("\n%%writefile a.txt\nhello %% world")
	if c.Magic != "writefile" || len(c.Commands) != 1 || c.Commands[0].Args[0] != "a.txt" {
		t.Errorf("%%%%writefile: %+v", c)
	}
	if _, why, ok := c.ForGoNB(); !ok || why == "" {
		t.Errorf("%%%%writefile is not GoNB's")
	}
	if c := Parse("x := 1\n%%bash"); c.Magic != "" {
		t.Errorf("%%%%bash after Go: magic %q", c.Magic)
	}
}

func TestSplit(t *testing.T) {
	for in, want := range map[string][]string{
		`a  b	c`:               {"a", "b", "c"},
		`--text "hello world"`: {"--text", "hello world"},
		`"" x`:                 {"", "x"},
		`"a\"b\n"`:             {"a\"b\n"},
		`a\b`:                  {`a\b`},
	} {
		if got := Split(in); !reflect.DeepEqual(got, want) {
			t.Errorf("Split(%q) = %q, want %q", in, got, want)
		}
	}
}

// A replayed cell's shell lines are left out, continued lines and all;
// its other commands and its Go code stay.
func TestWithoutShell(t *testing.T) {
	got := WithoutShell("%cd /tmp\n!echo a \\\n  b\nx := 1\n//gonb:!ls")
	if want := "%cd /tmp\n\n\nx := 1\n"; got != want {
		t.Errorf("WithoutShell = %q, want %q", got, want)
	}
}

// Masked keeps every rune offset of the cell, its commands spaces.
func TestMasked(t *testing.T) {
	if got, want := Masked("%env é b\nx.F\n!ls \\\nz"), "        \nx.F\n     \n "; got != want {
		t.Errorf("Masked = %q, want %q", got, want)
	}
}
