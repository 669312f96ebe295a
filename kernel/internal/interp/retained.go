package interp

import (
	"go/token"
	"reflect"
	"unsafe"

	"github.com/traefik/yaegi/interp"
)

// yaegi v0.16.1 keeps two lists that only grow, and that nothing it runs
// ever reads:
//
//   - the Interpreter's roots, the syntax tree of every source it
//     evaluated, for its debugger alone (debugger.go);
//   - each scope's child, the scopes opened inside it (scope.go's push
//     appends to it; nothing reads it).
//
// Through the package scope's children, every function body ever
// compiled stays, with its syntax tree and types: a session keeps tens of
// kilobytes for every cell, even one that only declares the same names
// again. What the cells declared does not need them: yaegi finds it
// through the scopes' symbols, and the code that runs holds its own
// nodes. So after each cell the session empties both lists
// (forgetRetained), and the garbage collector frees what only they held.

// forgetRetained empties in's roots and the child lists of its
// universe and package scopes. It reports whether it found them all:
// false means a yaegi whose fields differ (TestRedefiningKeepsNoMemory
// then fails if memory grows again).
func forgetRetained(in *interp.Interpreter) bool {
	v := reflect.ValueOf(in).Elem()
	ok := clearField(v, "roots")
	if u := v.FieldByName("universe"); u.IsValid() && u.Kind() == reflect.Pointer && !u.IsNil() {
		ok = clearField(u.Elem(), "child") && ok
	} else {
		ok = false
	}
	scopes := v.FieldByName("scopes")
	if !scopes.IsValid() || scopes.Kind() != reflect.Map {
		return false
	}
	it := scopes.MapRange()
	for it.Next() {
		if sc := it.Value(); sc.Kind() == reflect.Pointer && !sc.IsNil() {
			ok = clearField(sc.Elem(), "child") && ok
		}
	}
	return ok
}

// clearField sets the slice field name of the struct v to nil, and
// reports whether v has it.
func clearField(v reflect.Value, name string) bool {
	f := v.FieldByName(name)
	if !f.IsValid() || f.Kind() != reflect.Slice || !f.CanAddr() {
		return false
	}
	reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().SetZero()
	return true
}

// yaegiFileSet returns the file set in which yaegi keeps the positions
// of what it evaluated, or nil if it is not where yaegi v0.16.1 keeps it.
func yaegiFileSet(in *interp.Interpreter) *token.FileSet {
	f := reflect.ValueOf(in).Elem().FieldByName("fset")
	if !f.IsValid() || f.Type() != reflect.TypeOf((*token.FileSet)(nil)) {
		return nil
	}
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Interface().(*token.FileSet)
}

// dropScratchFiles removes from fset the files that one evaluation added
// from base on, but the last. yaegi v0.16.1 adds a file to its file set
// to read the source's first token (Interpreter.firstToken), another to
// check its build constraints (buildOk), then parses it (parse), twice if
// the first parse failed: only the last file holds the positions of the
// nodes that live on, which name the lines of a panic's frames. The
// others, which nothing reads again, would be kept for the session's
// life, a few hundred bytes each, several for each step of each cell.
func dropScratchFiles(fset *token.FileSet, base int) {
	// From base, file after file, each found by its first position: not
	// through all the files of the session.
	var added []*token.File
	for p := base; p < fset.Base(); {
		f := fset.File(token.Pos(p))
		if f == nil || f.Base() != p {
			break
		}
		added = append(added, f)
		p = f.Base() + f.Size() + 1
	}
	for i, f := range added {
		if i < len(added)-1 {
			fset.RemoveFile(f)
		}
	}
}

// dropEvaluated removes from fset the files that evaluations added from
// base on, those of sources yaegi was given to evaluate (named
// interp.DefaultSourceName) and its scratch files: not those of a
// package it read from its source files, whose functions live on.
func dropEvaluated(fset *token.FileSet, base int) {
	for p := base; p < fset.Base(); {
		f := fset.File(token.Pos(p))
		if f == nil || f.Base() != p {
			return
		}
		p = f.Base() + f.Size() + 1
		if name := f.Name(); name == interp.DefaultSourceName || name == "" {
			fset.RemoveFile(f)
		}
	}
}
