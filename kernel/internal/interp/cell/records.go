package cell

import (
	"errors"
	"reflect"
)

// ErrRecord is the panic of Unrecorded: the message says what to do.
var ErrRecord = errors.New("a value of a cells' type with methods, held in an interface inside this argument, would reach compiled code as the interpreter's record of it, not as the value (yaegi keeps no methods there): pass such values on their own, or run the cell with %%gonb")

// Unrecorded, for yaegi (package rewrite's nested.go), returns v as it
// is, after a look through it: a value of a cells' type with methods
// that an interface inside v holds (an element of a []any, a field of
// type any) is yaegi's record of it, which compiled code (fmt) would
// show as the record's fields, and Unrecorded panics with ErrRecord.
func Unrecorded(v any) any {
	if holdsRecord(reflect.ValueOf(v), map[uintptr]bool{}, 0) {
		panic(ErrRecord)
	}
	return v
}

// holdsRecord reports whether v holds, at any depth, a value of yaegi's
// record type. Pointers are followed once each; depth stops a structure
// too deep to be printed whole.
func holdsRecord(v reflect.Value, seen map[uintptr]bool, depth int) bool {
	if !v.IsValid() || depth > 64 {
		return false
	}
	t := v.Type()
	if t.Name() == "valueInterface" && t.PkgPath() == "github.com/traefik/yaegi/interp" {
		return true
	}
	switch v.Kind() {
	case reflect.Interface:
		return holdsRecord(v.Elem(), seen, depth+1)
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] {
			return false
		}
		seen[v.Pointer()] = true
		return holdsRecord(v.Elem(), seen, depth+1)
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if holdsRecord(v.Index(i), seen, depth+1) {
				return true
			}
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			if holdsRecord(it.Key(), seen, depth+1) || holdsRecord(it.Value(), seen, depth+1) {
				return true
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if holdsRecord(v.Field(i), seen, depth+1) {
				return true
			}
		}
	}
	return false
}

// NotRun is the panic of Stop: what the engine cannot run, found as the
// cell ran. Recovered gives it back to no recover: the cell fails.
type NotRun struct{ What string }

func (n *NotRun) Error() string { return "the instant engine cannot run " + n.What }

// Stop, for yaegi (package rewrite's nested.go), fails the cell with
// NotRun where it reaches code that would run otherwise than Go runs it.
func Stop(what string) any { panic(&NotRun{What: what}) }
