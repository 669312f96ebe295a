package check

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// Reaches returns the names of the session's declarations that src, a
// statement, uses, directly or through the functions, methods and types
// it uses, as Go's initialization order counts uses: a name that a
// parameter, a local or a field shadows is none. A method is reached by
// its name, as a call through an interface may run any of that name.
func (c *Checker) Reaches(src string) map[string]bool {
	reached := map[string]bool{}
	var queue []string
	add := func(names []string) {
		for _, n := range names {
			if _, ok := c.declAt[n]; ok && !reached[n] {
				reached[n] = true
				queue = append(queue, n)
			}
		}
	}
	add(c.methodsNamed(freeNames("package p\nfunc _() {\n" + src + "\n}")))
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		if d, ok := c.Decl(name); ok && !strings.HasPrefix(d.Src, "var ") {
			add(c.methodsNamed(c.declFreeNames(name, d.Src)))
		}
	}
	return reached
}

// freeNamesOf is freeNames of a declaration's text.
type freeNamesOf struct {
	src   string
	names []string
}

// declFreeNames is freeNames of the declaration of name, whose text is
// src, kept until name is declared again.
func (c *Checker) declFreeNames(name, src string) []string {
	if f, ok := c.free[name]; ok && f.src == src {
		return f.names
	}
	names := freeNames("package p\n" + src)
	if c.free == nil {
		c.free = map[string]freeNamesOf{}
	}
	c.free[name] = freeNamesOf{src, names}
	return names
}

// methodsNamed returns names with, for each that is a method's name
// (.M), the session's methods of that name (T.M, *T.M).
func (c *Checker) methodsNamed(names []string) []string {
	var out []string
	for _, n := range names {
		if m, ok := strings.CutPrefix(n, "."); ok {
			for _, d := range c.index.byKey[m] {
				if strings.Contains(d, ".") {
					out = append(out, d)
				}
			}
			continue
		}
		out = append(out, n)
	}
	return out
}

// freeNames returns the identifiers a file uses that it does not declare
// itself (its package-level names aside, which a lone declaration's file
// holds only itself), and, as .M, the names it selects (x.M), which may
// be methods. A file that does not parse gives every identifier it holds.
func freeNames(src string) []string {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, 0)
	if err != nil {
		return identifiers(src)
	}
	var out []string
	for _, id := range f.Unresolved {
		out = append(out, id.Name)
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			out = append(out, "."+sel.Sel.Name)
		}
		return true
	})
	return out
}
