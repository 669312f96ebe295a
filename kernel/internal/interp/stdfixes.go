package interp

import (
	"fmt"
	"log"
	"reflect"

	"github.com/traefik/yaegi/interp"
)

// fixedStandard returns the tables of the standard packages std, as a
// session gives them to yaegi, with what yaegi v0.16.1's own get wrong
// put right. std is left as it is: other sessions share it.
//
// fmt's printing functions see the Error method of a value of a type the
// cells declare: yaegi passes such a value to a compiled function that
// takes interface{} as its bare data, without methods, unless the
// function's MapTypes name an interface it implements, which it then
// passes wrapped, with that interface's methods. Its MapTypes give fmt's
// functions fmt.Formatter and fmt.Stringer, not error, so that
// fmt.Println(&MyErr{7}) printed &{7}, not its Error(), and
// fmt.Errorf("%w", &MyErr{7}) wrapped nothing ("%!w(…)"). error goes
// before fmt.Stringer, as fmt prefers Error to String. (A wrapped value
// still prints as the wrapper under %d or %T, as a Stringer's does.)
// log's printing functions and fmt's Append functions, which print as
// fmt's do, get the same list: yaegi gives them none.
func fixedStandard(std interp.Exports) interp.Exports {
	out := make(interp.Exports, len(std))
	for k, v := range std {
		out[k] = v
	}
	if mt, ok := std["."]["MapTypes"].Interface().(map[reflect.Value][]reflect.Type); ok {
		out["."] = map[string]reflect.Value{"MapTypes": reflect.ValueOf(withError(mt))}
	}
	return out
}

// withError returns a copy of yaegi's MapTypes in which each list that
// has fmt.Stringer has error just before it, and the functions that print
// as fmt does have the list fmt.Sprint has.
func withError(mt map[reflect.Value][]reflect.Type) map[reflect.Value][]reflect.Type {
	stringer := reflect.TypeOf((*fmt.Stringer)(nil)).Elem()
	errorType := reflect.TypeOf((*error)(nil)).Elem()
	out := make(map[reflect.Value][]reflect.Type, len(mt))
	for f, types := range mt {
		var fixed []reflect.Type
		for _, t := range types {
			if t == stringer {
				fixed = append(fixed, errorType)
			}
			fixed = append(fixed, t)
		}
		out[f] = fixed
	}
	printing := out[reflect.ValueOf(fmt.Sprint)]
	for _, f := range []any{log.Print, log.Printf, log.Println, fmt.Append, fmt.Appendf, fmt.Appendln} {
		if _, ok := out[reflect.ValueOf(f)]; !ok && printing != nil {
			out[reflect.ValueOf(f)] = printing
		}
	}
	return out
}
