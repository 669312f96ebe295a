package interp_test

import (
	"go/ast"
	"go/build"
	"go/doc"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tensornb/tensornb/kernel/internal/interp"
)

// tensorDoc reads package tensor's documentation from its source with
// go/doc, the files go/build selects for this platform: the expectations
// of the completion tests, found apart from the export data and go/types
// that completion answers from.
func tensorDoc(t testing.TB) *doc.Package {
	t.Helper()
	bp, err := build.ImportDir("../../../tensor", 0)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(bp.Dir, name), nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	p, err := doc.NewFromFiles(fset, files, "github.com/tensornb/tensornb/tensor")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// packageNames are the exported names package tensor declares.
func packageNames(p *doc.Package) []string {
	var names []string
	values := func(vs []*doc.Value) {
		for _, v := range vs {
			names = append(names, v.Names...)
		}
	}
	funcs := func(fs []*doc.Func) {
		for _, f := range fs {
			names = append(names, f.Name)
		}
	}
	values(p.Consts)
	values(p.Vars)
	funcs(p.Funcs)
	for _, typ := range p.Types {
		names = append(names, typ.Name)
		values(typ.Consts)
		values(typ.Vars)
		funcs(typ.Funcs)
	}
	sort.Strings(names)
	return names
}

// tensorMethods are the exported methods of *tensor.Tensor (it has no
// exported fields).
func tensorMethods(p *doc.Package) []string {
	var names []string
	for _, typ := range p.Types {
		if typ.Name == "Tensor" {
			for _, m := range typ.Methods {
				names = append(names, m.Name)
			}
		}
	}
	sort.Strings(names)
	return names
}

// complete completes at the end of code.
func complete(t *testing.T, s *interp.Session, code string) []string {
	t.Helper()
	c := s.Complete(code, utf8.RuneCountInString(code))
	if c.CursorEnd != utf8.RuneCountInString(code) {
		t.Errorf("complete %q: cursor_end %d, want the cursor", code, c.CursorEnd)
	}
	return c.Matches
}

func TestCompleteTensorPackage(t *testing.T) {
	s, _ := newSession(t)
	want := packageNames(tensorDoc(t))
	// Imported by the cell, or not imported at all (cells may use
	// tensor without importing it).
	if got := complete(t, s, "tensor."); !slices.Equal(got, want) {
		t.Errorf("tensor. without an import:\ngot  %v\nwant %v", got, want)
	}
	run(t, s, `import "github.com/tensornb/tensornb/tensor"`)
	if got := complete(t, s, "tensor."); !slices.Equal(got, want) {
		t.Errorf("tensor.:\ngot  %v\nwant %v", got, want)
	}
	var withZ []string
	for _, n := range want {
		if strings.HasPrefix(n, "Z") {
			withZ = append(withZ, n)
		}
	}
	c := s.Complete("y := tensor.Z", 13)
	if !slices.Equal(c.Matches, withZ) || c.CursorStart != 12 || c.CursorEnd != 13 {
		t.Errorf("tensor.Z: %v from %d to %d, want %v from 12 to 13", c.Matches, c.CursorStart, c.CursorEnd, withZ)
	}
}

// x., for x a *tensor.Tensor an earlier cell defined, and an expression
// of that type, complete to its methods, with their kinds and
// declarations for JupyterLab.
func TestCompleteVariableAndExpression(t *testing.T) {
	s, _ := newSession(t)
	p := tensorDoc(t)
	want := tensorMethods(p)
	run(t, s, "import \"github.com/tensornb/tensornb/tensor\"\nx := tensor.Zeros(2)")
	for _, code := range []string{"x.", "tensor.Zeros(2).", "fmt.Println(x.", "for i := range 3 {\n\tx.View(i)."} {
		if got := complete(t, s, code); !slices.Equal(got, want) {
			t.Errorf("%q:\ngot  %v\nwant %v", code, got, want)
		}
	}
	c := s.Complete("x.", 2)
	if len(c.Types) != len(c.Matches) {
		t.Fatalf("%d types for %d matches", len(c.Types), len(c.Matches))
	}
	for i, typ := range c.Types {
		if typ.Text != c.Matches[i] || typ.Type != "method" || typ.Start != 2 || typ.End != 2 || !strings.Contains(typ.Signature, ") "+typ.Text+"(") {
			t.Errorf("type of %s: %+v", c.Matches[i], typ)
		}
	}
}

// A function an earlier cell declared completes by its prefix, and
// inspects to its declaration and doc comment.
func TestCompleteAndInspectSessionFunction(t *testing.T) {
	s, _ := newSession(t)
	run(t, s, "// double returns twice v.\nfunc double(v int) int { return 2 * v }")
	c := s.Complete("y := dou", 8)
	if !slices.Equal(c.Matches, []string{"double"}) || c.CursorStart != 5 || len(c.Types) != 1 || c.Types[0].Type != "function" || c.Types[0].Signature != "func double(v int) int" {
		t.Errorf("dou: %+v", c)
	}
	for _, cursor := range []int{2, 7} { // on the name, between the parentheses
		data, found := s.Inspect("double(3)", cursor)
		if !found || data["text/plain"] != "func double(v int) int\n\ndouble returns twice v." ||
			data["text/markdown"] != "```go\nfunc double(v int) int\n```\n\ndouble returns twice v." {
			t.Errorf("inspect at %d: %v %q", cursor, found, data)
		}
	}
}

// Shift-Tab on tensor.Tensor.View shows its declaration and doc comment
// in text/plain, which Notebook 6's tooltip shows, and in Markdown.
func TestInspectTensorView(t *testing.T) {
	s, _ := newSession(t)
	var viewDoc string
	for _, typ := range tensorDoc(t).Types {
		for _, m := range typ.Methods {
			if typ.Name == "Tensor" && m.Name == "View" {
				viewDoc = strings.TrimRight(m.Doc, "\n")
			}
		}
	}
	const code = "tensor.Tensor.View"
	data, found := s.Inspect(code, len(code)-2)
	want := "func (x *Tensor) View(shape ...int) *Tensor\n\n" + viewDoc
	if !found || viewDoc == "" || data["text/plain"] != want {
		t.Fatalf("inspect %s: %v\ngot  %q\nwant %q", code, found, data["text/plain"], want)
	}
	if md, _ := data["text/markdown"].(string); !strings.HasPrefix(md, "```go\nfunc (x *Tensor) View(shape ...int) *Tensor\n```") || !strings.HasSuffix(md, viewDoc) {
		t.Errorf("markdown: %q", md)
	}
}

// Fields of the cells' own types complete, unexported too, with methods;
// a cell that does not type-check still completes; nothing completes in
// a comment or a string.
func TestCompleteFieldsErrorsCommentsStrings(t *testing.T) {
	s, _ := newSession(t)
	run(t, s, "type point struct{ X, y int }\nfunc (p point) Norm() int { return p.X*p.X + p.y*p.y }\nvar p point")
	for code, want := range map[string][]string{
		"p.":                                  {"Norm", "X", "y"},
		"z := undefinedName + 1\np.":          {"Norm", "X", "y"},
		"q := point{}\nq.N":                   {"Norm"},
		"// p.":                               nil,
		`s := "p.`:                            nil,
		"po":                                  {"point"},
		"func f() {\n\tvar pole int\n\tpo":    {"point", "pole"},
		"func f() {\n\tpo\n\tvar pole int\n}": {"point"},
	} {
		cursor := len(code)
		if i := strings.Index(code, "po\n"); i >= 0 {
			cursor = i + 2
		}
		c := s.Complete(code, cursor)
		if !slices.Equal(c.Matches, want) && !(len(want) == 0 && len(c.Matches) == 0) {
			t.Errorf("%q: %v, want %v", code, c.Matches, want)
		}
	}
}
