package check

import (
	"go/scanner"
	"go/token"
	"slices"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/interp/cell"
)

// A cell is type-checked with only the session's declarations that can
// matter to it, not all of them: a session of many cells would otherwise
// parse and check every name it ever declared, at every cell, and its
// cells would take longer and longer. What can matter to a cell:
//
//   - what it names, and what that names in turn, through every
//     declaration on the way: a declaration is found by its name, and a
//     method by its receiver's type and by its own name (x.M() reaches
//     every method M, which an interface's call may run);
//   - the declarations that use a name the cell changes (one it declares
//     again or anew, a variable hoisted out of its statements, a
//     declaration forgotten while checking it, a package it imports), and
//     what those name: they may no longer compile, and are forgotten then.
//
// Every other declaration compiled with the session as it was, and still
// does: it names none of what the cell changes. Names are read as the
// scanner reads identifiers, so a field, a method or a local that shares
// a name brings a declaration in for nothing, never leaves one out.

// A declRefs is what the Checker knows of one session declaration for
// finding the declarations a cell needs: the names it is found by, and
// the identifiers its text uses.
type declRefs struct {
	keys, idents []string
}

// sessionIndex indexes the session's declarations by the names that find
// them and by the identifiers they use.
type sessionIndex struct {
	refs  map[string]declRefs        // declaration name → its keys and identifiers
	byKey map[string][]string        // key → names of the declarations it finds
	users map[string]map[string]bool // identifier → names of the declarations that use it
}

// newSessionIndex returns an empty index.
func newSessionIndex() *sessionIndex {
	return &sessionIndex{refs: map[string]declRefs{}, byKey: map[string][]string{}, users: map[string]map[string]bool{}}
}

// set indexes d, in place of what d's name had before.
func (x *sessionIndex) set(d cell.Decl) {
	x.remove(d.Name)
	r := declRefs{keys: declKeys(d.Name)}
	for _, id := range identifiers(d.Src) {
		if id != d.Name { // its own name leads nowhere new (a method's receiver does)
			r.idents = append(r.idents, id)
		}
	}
	x.refs[d.Name] = r
	for _, k := range r.keys {
		x.byKey[k] = append(x.byKey[k], d.Name)
	}
	for _, id := range r.idents {
		addTo(x.users, id, d.Name)
	}
}

// remove drops the declaration name from the index.
func (x *sessionIndex) remove(name string) {
	r, ok := x.refs[name]
	if !ok {
		return
	}
	delete(x.refs, name)
	for _, k := range r.keys {
		if names := slices.DeleteFunc(x.byKey[k], func(n string) bool { return n == name }); len(names) > 0 {
			x.byKey[k] = names
		} else {
			delete(x.byKey, k)
		}
	}
	for _, id := range r.idents {
		removeFrom(x.users, id, name)
	}
}

// addTo adds name to m's set at key.
func addTo(m map[string]map[string]bool, key, name string) {
	s := m[key]
	if s == nil {
		s = map[string]bool{}
		m[key] = s
	}
	s[name] = true
}

// removeFrom drops name from m's set at key, and the set once empty.
func removeFrom(m map[string]map[string]bool, key, name string) {
	if s := m[key]; s != nil {
		delete(s, name)
		if len(s) == 0 {
			delete(m, key)
		}
	}
}

// declKeys returns the names a declaration is found by: its own, or for
// a method (T.M, *T.M, *T[K].M) its receiver's type and its name.
func declKeys(name string) []string {
	recv, method, ok := strings.Cut(strings.TrimPrefix(name, "*"), ".")
	if !ok {
		return []string{name}
	}
	recv, _, _ = strings.Cut(recv, "[")
	return []string{recv, method}
}

// identifiers returns the identifiers src uses, each once, in the order
// they first come.
func identifiers(src string) []string {
	var s scanner.Scanner
	file := token.NewFileSet().AddFile("", -1, len(src))
	s.Init(file, []byte(src), nil, 0)
	seen := map[string]bool{}
	var out []string
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		if tok == token.IDENT && !seen[lit] {
			seen[lit] = true
			out = append(out, lit)
		}
	}
}

// needed returns the names of the session's declarations that a cell
// using the identifiers uses, and changing the names changed, needs
// checked with it (see above); keep says which the check keeps at all.
func (x *sessionIndex) needed(uses []string, changed map[string]bool, keep func(string) bool) map[string]bool {
	need := map[string]bool{}
	var queue []string
	add := func(name string) {
		if !need[name] && keep(name) {
			need[name] = true
			queue = append(queue, name)
		}
	}
	find := func(id string) {
		for _, name := range x.byKey[id] {
			add(name)
		}
	}
	for _, id := range uses {
		find(id)
	}
	for n := range changed {
		find(n)
		for name := range x.users[n] {
			add(name)
		}
	}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		for _, id := range x.refs[name].idents {
			find(id)
		}
	}
	return need
}
