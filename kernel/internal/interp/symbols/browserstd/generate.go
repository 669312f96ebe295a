//go:build ignore

// generate writes the symbol tables of package browserstd, one file a
// package, and the lists of standard packages in package symbols
// (standard.go). It is run by go generate in kernel/internal/interp/symbols.
//
// The browser engine offers a chosen few standard packages, and of each
// the names the server engine's copy has: yaegi v0.16.1's standard
// library, Go 1.22's. So the extractor is given exactly the names of
// yaegi's table of the package, and a cell means the same in both
// engines, or is refused in the browser.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"log"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/traefik/yaegi/extract"
	"github.com/traefik/yaegi/stdlib"
)

// browserPackages are the standard packages of the browser engine: those
// a course notebook's cells use, and those the types of their APIs come
// from (io, encoding), apart from file systems, networks and processes,
// which a page does not have. slices, maps and cmp are generic: yaegi
// interprets them from source, and their tables are empty.
var browserPackages = []string{
	"bufio", "bytes", "cmp", "encoding", "encoding/json", "errors", "fmt", "io",
	"maps", "math", "math/bits", "math/cmplx", "math/rand", "os", "slices", "sort",
	"strconv", "strings", "sync", "time", "unicode", "unicode/utf8",
}

func main() {
	tables := flag.String("tables", "browserstd", "the directory of package browserstd")
	lists := flag.String("lists", "standard.go", "the file of the lists of standard packages, in package symbols")
	flag.Parse()
	for _, p := range browserPackages {
		if err := writeTable(*tables, p); err != nil {
			log.Fatalf("%s: %v", p, err)
		}
	}
	if err := writeLists(*lists); err != nil {
		log.Fatal(err)
	}
}

// writeTable extracts the names yaegi's table of the package at p has.
func writeTable(dir, p string) error {
	table, ok := stdlib.Symbols[p+"/"+path.Base(p)]
	if !ok {
		return fmt.Errorf("yaegi's standard library has no table of it")
	}
	var names []string
	for name := range table {
		if !strings.HasPrefix(name, "_") { // an interface's wrapper, which comes with it
			names = append(names, regexp.QuoteMeta(name))
		}
	}
	slices.Sort(names)
	ext := extract.Extractor{Dest: "browserstd", Include: []string{"^(" + strings.Join(names, "|") + ")$"}}
	if len(names) == 0 {
		ext.Include = []string{"^$"} // nothing: a generic package
	}
	var b bytes.Buffer
	if _, err := ext.Extract(p, "", &b); err != nil {
		return err
	}
	out := b.Bytes()
	if lazy(p, table) {
		var err error
		if out, err = deferTable(out, p+"/"+path.Base(p)); err != nil {
			return err
		}
	}
	src, err := format.Source(out)
	if err != nil {
		return err
	}
	name := strings.NewReplacer("/", "-").Replace(p) + ".go"
	return os.WriteFile(filepath.Join(dir, name), src, 0o644)
}

// lazy reports whether the table of the package at p can wait for a
// cell's first import of it (browserstd.Lazy): whether it has no
// interface wrappers, which yaegi looks for in the tables of the packages
// it has whenever an interpreted value becomes an interface value, and is
// not one of those yaegi's Use patches as it takes fmt's table (fmt
// itself, os and math/bits, whose tables are then fixed). An empty table
// (a generic package's) costs nothing to make.
func lazy(p string, table map[string]reflect.Value) bool {
	if p == "fmt" || p == "os" || p == "math/bits" || len(table) == 0 {
		return false
	}
	for name := range table {
		if strings.HasPrefix(name, "_") {
			return false
		}
	}
	return true
}

// deferTable makes the extractor's file register, in place of the table
// under key, a function that makes it (in Lazy): the map's literal is the
// function's result, and its init function only stores the function.
func deferTable(src []byte, key string) ([]byte, error) {
	start := fmt.Sprintf("\tSymbols[%q] = map[string]reflect.Value{", key)
	i := bytes.Index(src, []byte(start))
	if i < 0 {
		return nil, fmt.Errorf("the extracted table of %s does not begin as expected", key)
	}
	const end = "\n\t}\n}\n" // the map's end, then init's
	j := bytes.Index(src[i:], []byte(end))
	if j < 0 {
		return nil, fmt.Errorf("the extracted table of %s does not end as expected", key)
	}
	j += i
	var b bytes.Buffer
	b.Write(src[:i])
	fmt.Fprintf(&b, "\tLazy[%q] = func() map[string]reflect.Value {\n\t\treturn map[string]reflect.Value{", key)
	b.Write(src[i+len(start) : j])
	b.WriteString("\n\t\t}\n\t}\n}\n")
	b.Write(src[j+len(end):])
	return b.Bytes(), nil
}

// writeList writes a variable of import paths, one a line.
func writeList(b *bytes.Buffer, name string, paths []string) {
	fmt.Fprintf(b, "var %s = []string{\n", name)
	for _, p := range paths {
		fmt.Fprintf(b, "\t%q,\n", p)
	}
	b.WriteString("}\n\n")
}

// writeLists writes the browser's packages and the server's.
func writeLists(file string) error {
	var server []string
	for key := range stdlib.Symbols {
		if p := path.Dir(key); p != "." && !strings.Contains(strings.Split(p, "/")[0], ".") {
			server = append(server, p)
		}
	}
	slices.Sort(server)
	browser := slices.Sorted(slices.Values(browserPackages))
	var b bytes.Buffer
	b.WriteString("// Code generated by browserstd/generate.go. DO NOT EDIT.\n\npackage symbols\n\n")
	b.WriteString("// BrowserStandard are the standard packages the browser engine has\n// compiled in (package browserstd).\n")
	writeList(&b, "BrowserStandard", browser)
	b.WriteString("// ServerStandard are the standard packages the server engine has\n// compiled in: yaegi's standard library.\n")
	writeList(&b, "ServerStandard", server)
	src, err := format.Source(b.Bytes())
	if err != nil {
		return err
	}
	return os.WriteFile(file, src, 0o644)
}
