package gocompat

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// A Program is one of Go's test programs that the toolchain's test runner
// runs with its recipe "run": it must build, exit with status 0, and
// print, on its standard output and error together, exactly Want.
type Program struct {
	// Name is the file's path under $GOROOT/test, with slashes:
	// typeparam/list.go.
	Name string
	// Source is the file's text, Want the .out file beside it, or "" if
	// there is none.
	Source string
	Want   string
}

// Patterns are the files of $GOROOT/test whose programs are run, as
// filepath.Glob patterns.
var Patterns = []string{"typeparam/*.go", "range*.go"}

// Programs returns the programs of the files under goroot/test that
// Patterns match and whose recipe is "run", sorted by name, and the
// names of those whose recipe asks more of "run" than a build with
// compiler flags, which are left out (skipped).
func Programs(goroot string) (programs []Program, skipped []string, err error) {
	dir := filepath.Join(goroot, "test")
	var files []string
	for _, p := range Patterns {
		m, err := filepath.Glob(filepath.Join(dir, p))
		if err != nil {
			return nil, nil, err
		}
		files = append(files, m...)
	}
	sort.Strings(files)
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return nil, nil, err
		}
		name := filepath.ToSlash(strings.TrimPrefix(f, dir+string(filepath.Separator)))
		runs, plain := recipe(string(src))
		switch {
		case !runs:
			continue
		case !plain:
			skipped = append(skipped, name)
			continue
		}
		want, err := os.ReadFile(strings.TrimSuffix(f, ".go") + ".out")
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, nil, err
		}
		programs = append(programs, Program{Name: name, Source: string(src), Want: string(want)})
	}
	if len(programs) == 0 {
		return nil, nil, fmt.Errorf("no program under %s matches %s", dir, strings.Join(Patterns, ", "))
	}
	return programs, skipped, nil
}

// recipe reads a test file's recipe, the comment on its first line that
// is neither empty nor a build constraint: runs reports whether it is
// "run", and plain whether nothing follows but compiler flags (-gcflags),
// which leave what the program prints as it is; arguments for the
// program, a time limit or a GOEXPERIMENT or GODEBUG setting do not.
func recipe(src string) (runs, plain bool) {
	for line := range strings.Lines(src) {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "//go:build") || strings.HasPrefix(line, "// +build") {
			continue
		}
		words := strings.Fields(strings.TrimPrefix(line, "//"))
		if len(words) == 0 || words[0] != "run" {
			return false, false
		}
		for _, w := range words[1:] {
			if !strings.HasPrefix(w, "-gcflags") {
				return true, false
			}
		}
		return true, true
	}
	return false, false
}
