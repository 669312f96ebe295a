package gocompat

import (
	"regexp"
	"strings"
)

// selfChecks are the programs that check the names of their own types
// themselves, with %T, and print what they find when it differs: their
// output differs from go run's only in a type's name, which the test
// cannot see in it. Each maps to the words of its message, which the
// output must hold to count as such; docs/kernels.md says why the names
// differ.
var selfChecks = map[string]string{
	// got := fmt.Sprintf("%T", F[foo]{}); want "main.F[main.foo]": the
	// instant engine writes a value of a struct type the cells declared
	// as its structure, struct {}.
	"typeparam/issue49547.go": "want: main.F[main.foo], got: ",
}

// sameButTypeNames reports whether got is want but for the names of the
// program's types: each line of want that got does not have names one or
// more types of package main (main.T, main.List[int]), and got's line
// reads the same around them, whatever it writes in their place.
func sameButTypeNames(want, got string) bool {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	if len(w) != len(g) {
		return false
	}
	for i := range w {
		if w[i] == g[i] {
			continue
		}
		pattern, ok := typeNamePattern(w[i])
		if !ok || !pattern.MatchString(g[i]) {
			return false
		}
	}
	return true
}

// typeNamePattern returns a pattern that matches line with anything in
// place of each name of a type of package main in it, or false if it has
// none.
func typeNamePattern(line string) (*regexp.Regexp, bool) {
	var b strings.Builder
	b.WriteString("^")
	found := false
	for {
		start, end := nextTypeName(line)
		if start < 0 {
			break
		}
		b.WriteString(regexp.QuoteMeta(line[:start]))
		b.WriteString("(.+?)")
		line = line[end:]
		found = true
	}
	b.WriteString(regexp.QuoteMeta(line))
	b.WriteString("$")
	if !found {
		return nil, false
	}
	return regexp.MustCompile(b.String()), true
}

// mainName matches the start of a name of package main, main.T, not
// within a longer name (domain.T).
var mainName = regexp.MustCompile(`(?:^|[^\pL\pN_.])(main\.[\pL_][\pL\pN_]*)`)

// nextTypeName returns where in line the first name of a type of package
// main starts and ends, its type arguments in brackets included, or
// start -1 if there is none.
func nextTypeName(line string) (start, end int) {
	m := mainName.FindStringSubmatchIndex(line)
	if m == nil {
		return -1, -1
	}
	start, end = m[2], m[3]
	if end < len(line) && line[end] == '[' {
		depth := 0
		for i := end; i < len(line); i++ {
			switch line[i] {
			case '[':
				depth++
			case ']':
				depth--
			}
			if depth == 0 {
				return start, i + 1
			}
		}
		return start, len(line)
	}
	return start, end
}
