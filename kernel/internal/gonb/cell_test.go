package gonb

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

func TestArrange(t *testing.T) {
	for _, c := range []struct {
		name, code, want string
		lines            []int
	}{
		{"statements only", "x := 1\nfmt.Println(x)", "%%\nx := 1\n_ = x\nfmt.Println(x)\n", []int{0, 1, 0, 2}},
		{"declarations only", "import \"fmt\"\nfunc f() {}", "import \"fmt\"\nfunc f() {}", []int{1, 2}},
		{"mixed", "import \"fmt\"\nx := 2\nfunc double(v int) int {\n\treturn 2 * v\n}\nfmt.Println(double(x))",
			"import \"fmt\"\nfunc double(v int) int {\n\treturn 2 * v\n}\n%%\nx := 2\n_ = x\nfmt.Println(double(x))\n",
			[]int{1, 3, 4, 5, 0, 2, 0, 6}},
		{"var and type are declarations", "type T struct{ a int }\nvar v = T{1}\nfmt.Println(v)",
			"type T struct{ a int }\nvar v = T{1}\n%%\nfmt.Println(v)\n", []int{1, 2, 0, 3}},
		{"a func literal is a statement", "func() { fmt.Println(1) }()", "%%\nfunc() { fmt.Println(1) }()\n", []int{0, 1}},
		{"a method is a declaration", "func (t T) M() int { return 1 }\nfmt.Println(T{}.M())",
			"func (t T) M() int { return 1 }\n%%\nfmt.Println(T{}.M())\n", []int{1, 0, 2}},
		{"multi-line statement", "for i := 0; i < 2; i++ {\n\tfmt.Println(i)\n}", "%%\nfor i := 0; i < 2; i++ {\n\tfmt.Println(i)\n}\n", []int{0, 1, 2, 3}},
		{"gonb syntax passes through", "%%\nx := 1", "%%\nx := 1", []int{1, 2}},
		{"gonb command passes through", "!ls\n%help", "!ls\n%help", []int{1, 2}},
		{"a %% with GoNB's prefix passes through", "// a note\n//gonb:%%\nfmt.Println(1)", "// a note\n//gonb:%%\nfmt.Println(1)", []int{1, 2, 3}},
		{"an %exec with GoNB's prefix passes through", "// a note\n\n//gonb:%exec f -x=13", "// a note\n\n//gonb:%exec f -x=13", []int{1, 2, 3}},
		{"GoNB's prefix only starts a line", "\t//gonb:%%\nfmt.Println(1)", "%%\n\t//gonb:%%\nfmt.Println(1)\n", []int{0, 1, 2}},
		{"blank lines and comments", "\n// a note\nx := 1\n\n// another\nimport \"os\"\n",
			"// another\nimport \"os\"\n%%\n// a note\nx := 1\n_ = x\n", []int{5, 6, 0, 2, 3, 0}},
		{"variables defined and not used are kept", "a, b := 1, 2\nfor i := 0; i < 1; i++ {\n\tc := i\n\t_ = c\n}\n_, d := 3, 4",
			"%%\na, b := 1, 2\n_, _ = a, b\nfor i := 0; i < 1; i++ {\n\tc := i\n\t_ = c\n}\n_, d := 3, 4\n_ = d\n", []int{0, 1, 0, 2, 3, 4, 5, 6, 0}},
	} {
		got := arrange(c.code, false, false)
		if got.code != c.want || !slices.Equal(got.lines, c.lines) {
			t.Errorf("%s:\n got %q %v\nwant %q %v", c.name, got.code, got.lines, c.want, c.lines)
		}
	}
}

// mainStarts finds the lines GoNB writes a main function from, as GoNB
// finds them: at the start of the line, bare or after "//gonb:".
func TestMainStarts(t *testing.T) {
	for _, c := range []struct {
		code string
		want []int
	}{
		{"%%\nfmt.Println(1)", []int{1}},
		{"var x = flag.Int(\"x\", 0, \"\")\n%% -x=17\nfmt.Println(*x)", []int{2}},
		{"// a note\n//gonb:%%\nfmt.Println(1)", []int{2}},
		{"func f() {}\n//gonb:%exec f -x=13", []int{2}},
		{"%main\nfmt.Println(1)", []int{1}},
		{"%%\nfmt.Println(1)\n//gonb:%%\nfmt.Println(2)", []int{1, 3}},
		{"func f() {}\n%exec f\n%%\nf()", []int{2, 3}},
		{"%%writefile x.txt\nhello", nil},
		{"%goflags --cover\n!ls\n%args -x", nil},
		{"\t%%\n  //gonb:%%\n// gonb:%%", nil},
	} {
		if got := mainStarts(c.code); !slices.Equal(got, c.want) {
			t.Errorf("mainStarts(%q) = %v, want %v", c.code, got, c.want)
		}
	}
}

func TestArrangeShowsTheLastExpression(t *testing.T) {
	got := arrange("x := 2\nx * 3", true, false)
	want := "import tensornbdisplay \"github.com/tensornb/tensornb/display\"\n%%\nx := 2\n_ = x\ntensornbdisplay.Result(x * 3)\n"
	if got.code != want || !got.result || got.resultLine != 2 || got.callee != "" || !slices.Equal(got.lines, []int{0, 0, 1, 0, 2}) {
		t.Fatalf("got %q %+v", got.code, got)
	}
	got = arrange("x.Strides()", true, false)
	if !got.result || got.callee != "x.Strides" {
		t.Fatalf("call: %+v", got)
	}
	// Comments around the last expression stay outside the call, and the
	// result's line is the expression's, not the comment's before it.
	got = arrange("// strides\n// of y\ny.Strides()   // (12, 1, 4)\n// done", true, false)
	want = "import tensornbdisplay \"github.com/tensornb/tensornb/display\"\n%%\n// strides\n// of y\ntensornbdisplay.Result(y.Strides())   // (12, 1, 4)\n// done\n"
	if got.code != want || got.resultLine != 3 || got.callee != "y.Strides" {
		t.Fatalf("comments around the result: %q %+v", got.code, got)
	}
	for _, code := range []string{"x := 1", "x++", "for {}", "import \"fmt\""} {
		if got := arrange(code, true, false); got.result {
			t.Errorf("%q shows a result", code)
		}
	}
}

// With report, the statements run after a deferred cellpanic.Report.
func TestArrangeReports(t *testing.T) {
	got := arrange("x := 2\nx * 3", true, true)
	want := "import tensornbpanic \"github.com/tensornb/tensornb/kernel/cellpanic\"\nimport tensornbdisplay \"github.com/tensornb/tensornb/display\"\n%%\ndefer tensornbpanic.Report()\nx := 2\n_ = x\ntensornbdisplay.Result(x * 3)\n"
	if got.code != want || !slices.Equal(got.lines, []int{0, 0, 0, 0, 1, 0, 2}) {
		t.Fatalf("got %q %v", got.code, got.lines)
	}
	if got := arrange("func f() {}", true, true); got.code != "func f() {}" {
		t.Fatalf("declarations only: %q", got.code)
	}
}

func TestCursorMapping(t *testing.T) {
	cell := "x := 1\nimport \"fmt\"\nfmt.Print"
	a := arrange(cell, false, false)
	// The cursor at the end of "fmt.Print" in the cell is at the end of the
	// arranged code, after the import moved up and %% was added.
	end := len(cell)
	if got := a.toGoNB(cell, end); got != len(a.code)-1 {
		t.Fatalf("cursor %d -> %d in %q (len %d)", end, got, a.code, len(a.code))
	}
	if back := a.fromGoNB(cell, a.toGoNB(cell, end)); back != end {
		t.Fatalf("round trip %d -> %d", end, back)
	}
	// Characters, not bytes: é is one.
	cell = "s := \"é\"\nfmt.Pri"
	a = arrange(cell, false, false)
	if back := a.fromGoNB(cell, a.toGoNB(cell, 15)); back != 15 {
		t.Fatalf("unicode round trip: %d", back)
	}
	// GoNB counts UTF-16 units: the emoji is one character, two units.
	cell = "s := \"🎉\"\nfmt.Printl"
	a = arrange(cell, false, false)
	end = utf8.RuneCountInString(cell)
	at := a.toGoNB(cell, end)
	if want := len(utf16.Encode([]rune(a.code[:strings.Index(a.code, "Printl")+6]))); at != want {
		t.Errorf("the cursor after Printl is %d UTF-16 units into %q, want %d", at, a.code, want)
	}
	if back := a.fromGoNB(cell, at); back != end {
		t.Errorf("emoji round trip: %d, want %d", back, end)
	}
}

// A cell that displays with gonbui waits, as its program's last act, for
// GoNB to read what it sent; the added line maps to no cell line, and a
// cursor below it still finds its place.
func TestGoNBUICellsSyncAtTheEnd(t *testing.T) {
	for _, c := range []struct {
		name, code, want string
		lines            []int
	}{
		{"%% cell", "import \"github.com/janpfeifer/gonb/gonbui\"\n%%\ngonbui.DisplayHTML(\"<b>x</b>\")",
			"import \"github.com/janpfeifer/gonb/gonbui\"\n%%\ndefer gonbui.Sync()\ngonbui.DisplayHTML(\"<b>x</b>\")", []int{1, 2, 0, 3}},
		{"with GoNB's prefix and arguments", "//gonb:%% -x=1\ngonbui.DisplayMarkdown(\"m\")",
			"//gonb:%% -x=1\ndefer gonbui.Sync()\ngonbui.DisplayMarkdown(\"m\")", []int{1, 0, 2}},
		{"arranged", "gonbui.DisplayMarkdown(\"m\")", "%%\ndefer gonbui.Sync()\ngonbui.DisplayMarkdown(\"m\")\n", []int{0, 0, 1}},
		{"%% last", "gonbui.UpdateHTML(\"a\", \"b\")\n%%", "gonbui.UpdateHTML(\"a\", \"b\")\n%%\ndefer gonbui.Sync()", []int{1, 2, 0}},
		{"%exec runs a function as written", "func f() { gonbui.DisplayMarkdown(\"m\") }\n%exec f", "func f() { gonbui.DisplayMarkdown(\"m\") }\n%exec f", []int{1, 2}},
		{"declarations only", "func f() { gonbui.DisplayMarkdown(\"m\") }", "func f() { gonbui.DisplayMarkdown(\"m\") }", []int{1}},
		{"a comment or string is no use", "%%\n// gonbui.Sync\nfmt.Println(\"gonbui.X\")", "%%\n// gonbui.Sync\nfmt.Println(\"gonbui.X\")", []int{1, 2, 3}},
	} {
		got := arrange(c.code, false, false)
		if got.code != c.want || !slices.Equal(got.lines, c.lines) {
			t.Errorf("%s:\n got %q %v\nwant %q %v", c.name, got.code, got.lines, c.want, c.lines)
		}
	}
	cell := "%%\ngonbui.DisplayMarkdown(\"m\")\ngonbui.Displ"
	a := arrange(cell, false, false)
	end := len(cell)
	if got := a.toArranged(end); got != len(a.code) {
		t.Errorf("the cursor at the end of %q is at %d of %q, want its end", cell, got, a.code)
	}
	if got := a.toArranged(2); got != 2 {
		t.Errorf("the cursor after %%%% is at %d, want 2", got)
	}
	if back := a.toCell(a.toArranged(end)); back != end {
		t.Errorf("round trip %d -> %d", end, back)
	}
}
