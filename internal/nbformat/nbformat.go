// Package nbformat holds the one rule of Jupyter's notebook format that
// both the kernel's packages and the public widget package need: how a
// multiline string is stored. A notebook stores a cell's source, a
// stream's text and a MIME value as a string or as a list of strings,
// each line with its newline; readers join the list.
//
// It lives here, under the module's internal/, because widget, a library
// anyone may import, must not import the kernel's private packages, and
// kernel/internal/notebook, the kernel's notebook reader, is one of them.
package nbformat

import "strings"

// Join returns the multiline string v as one string, and whether v is
// one: a string, a list of strings, or nil (a field left out), which is
// "". A list that holds something other than strings gives its strings
// joined, and false; a value of any other kind gives "" and false.
func Join(v any) (string, bool) {
	switch v := v.(type) {
	case nil:
		return "", true
	case string:
		return v, true
	case []any:
		var b strings.Builder
		ok := true
		for _, line := range v {
			s, isString := line.(string)
			ok = ok && isString
			b.WriteString(s)
		}
		return b.String(), ok
	}
	return "", false
}

// Text is Join's string, for a reader that takes what it finds: the
// multiline string v as one string, "" if v is not one.
func Text(v any) string {
	s, _ := Join(v)
	return s
}
