package widget

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// A widget's synced state is a struct whose fields carry json tags: the
// names of its model's attributes. The helpers below read such a struct
// as a map, set one attribute from a value the front end sent, and tell
// which attributes two states differ in.

// stateMap returns the attributes of the state struct p points to.
// []byte values stay []byte, so that splitBuffers can send them as
// binary buffers.
func stateMap(p any) map[string]any {
	v := reflect.ValueOf(p).Elem()
	m := map[string]any{}
	for _, f := range reflect.VisibleFields(v.Type()) {
		if key := attrName(f); key != "" {
			m[key] = v.FieldByIndex(f.Index).Interface()
		}
	}
	return m
}

// attrName returns the attribute a struct field holds, or "" for a field
// that holds none (an embedded struct, a field without a tag).
func attrName(f reflect.StructField) string {
	if f.Anonymous || !f.IsExported() {
		return ""
	}
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	return name
}

// attrs returns the attributes of state type t in field order.
func attrs(t reflect.Type) []string {
	var keys []string
	for _, f := range reflect.VisibleFields(t) {
		if key := attrName(f); key != "" {
			keys = append(keys, key)
		}
	}
	return keys
}

// setAttr sets attribute key of the state p points to from v, a value
// decoded from JSON (or a []byte from a buffer). The state has such an
// attribute.
func setAttr(p any, key string, v any) error {
	s := reflect.ValueOf(p).Elem()
	for _, f := range reflect.VisibleFields(s.Type()) {
		if attrName(f) != key {
			continue
		}
		field := s.FieldByIndex(f.Index)
		if b, ok := v.([]byte); ok {
			if field.Type() != reflect.TypeFor[[]byte]() {
				return fmt.Errorf("%s: a binary buffer, where %s was expected", key, kindName(field.Type()))
			}
			field.SetBytes(b)
			return nil
		}
		text, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("%s: %v", key, err)
		}
		target := reflect.New(field.Type())
		if v == nil || json.Unmarshal(text, target.Interface()) != nil {
			if v == nil && field.Kind() == reflect.Pointer {
				field.SetZero()
				return nil
			}
			return fmt.Errorf("%s: %s is not %s", key, text, kindName(field.Type()))
		}
		field.Set(target.Elem())
		return nil
	}
	panic("widget: no attribute " + key)
}

// kindName names what a value of type t is, for error messages.
func kindName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int:
		return "an integer"
	case reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Pointer:
		return "null or " + kindName(t.Elem())
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return "binary data"
		}
		return "a list"
	}
	return t.String()
}

// changedAttrs returns the attributes in which the states a and b (two
// pointers to one struct type) differ, in field order.
func changedAttrs(a, b any) []string {
	va, vb := reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem()
	var keys []string
	for _, f := range reflect.VisibleFields(va.Type()) {
		key := attrName(f)
		if key != "" && !reflect.DeepEqual(va.FieldByIndex(f.Index).Interface(), vb.FieldByIndex(f.Index).Interface()) {
			keys = append(keys, key)
		}
	}
	return keys
}

// cloneState returns a pointer to a copy of the state p points to. The
// copy shares slices with the original: a change replaces a slice, never
// writes into one.
func cloneState(p any) any {
	v := reflect.ValueOf(p).Elem()
	c := reflect.New(v.Type())
	c.Elem().Set(v)
	return c.Interface()
}

// splitBuffers takes the binary values ([]byte) out of state, as the
// protocol sends them: a buffer under a key of a map is left out of the
// map, one in a list is replaced by null. It returns the state without
// them, the path to each (keys as strings, list indexes as ints) and the
// buffers in the same order. state itself is left unchanged; maps and
// lists are copied on the way.
func splitBuffers(state map[string]any) (map[string]any, [][]any, [][]byte) {
	var paths [][]any
	var buffers [][]byte
	var walk func(v any, path []any) any
	walk = func(v any, path []any) any {
		switch v := v.(type) {
		case map[string]any:
			out := make(map[string]any, len(v))
			for k, e := range v {
				if b, ok := e.([]byte); ok {
					paths = append(paths, append(append([]any{}, path...), k))
					buffers = append(buffers, b)
					continue
				}
				out[k] = walk(e, append(path, k))
			}
			return out
		case []any:
			out := make([]any, len(v))
			for i, e := range v {
				if b, ok := e.([]byte); ok {
					paths = append(paths, append(append([]any{}, path...), i))
					buffers = append(buffers, b)
					continue
				}
				out[i] = walk(e, append(path, i))
			}
			return out
		}
		return v
	}
	out := walk(state, nil).(map[string]any)
	return out, paths, buffers
}

// joinBuffers puts buffers back into state (decoded from JSON) at their
// paths: buffer i at paths[i], a list of keys and list indexes (JSON
// numbers). It fails, naming the path, where a path does not lead into
// state, and when there are fewer buffers than paths.
func joinBuffers(state map[string]any, paths [][]any, buffers [][]byte) error {
	if len(buffers) < len(paths) {
		return fmt.Errorf("%d buffer paths but %d buffers", len(paths), len(buffers))
	}
	for i, path := range paths {
		if len(path) == 0 {
			return fmt.Errorf("buffer path %d is empty", i)
		}
		var at any = state
		for j, step := range path {
			last := j == len(path)-1
			switch container := at.(type) {
			case map[string]any:
				key, ok := step.(string)
				if !ok {
					return fmt.Errorf("buffer path %v: %v indexes an object, where a key was expected", path, step)
				}
				if last {
					container[key] = buffers[i]
				} else {
					at = container[key]
				}
			case []any:
				n, ok := listIndex(step)
				if !ok || n < 0 || n >= len(container) {
					return fmt.Errorf("buffer path %v: %v is not an index of a list of %d", path, step, len(container))
				}
				if last {
					container[n] = buffers[i]
				} else {
					at = container[n]
				}
			default:
				return fmt.Errorf("buffer path %v: step %d leads into neither an object nor a list", path, j)
			}
		}
	}
	return nil
}

// listIndex returns step as a list index: a whole JSON number, or an int.
func listIndex(step any) (int, bool) {
	switch n := step.(type) {
	case int:
		return n, true
	case float64:
		if n == float64(int(n)) {
			return int(n), true
		}
	}
	return 0, false
}

// typeOf returns the struct type of the state p points to.
func typeOf(p any) reflect.Type { return reflect.TypeOf(p).Elem() }

// setState copies the state from points to into the one to points to.
func setState(to, from any) { reflect.ValueOf(to).Elem().Set(reflect.ValueOf(from).Elem()) }
