package display

import (
	"strings"
	"unicode/utf8"
)

// maxName bounds the characters of a name or label a caller gives a
// picture, so that a long one cannot make the picture large.
const maxName = 80

// printable returns s with every character that cannot stand in a picture
// replaced: a C0 control character by its Unicode control picture (␀, ␛,
// ␊ for a newline), DEL by ␡, and a C1 control character, a byte that is
// not UTF-8 and the noncharacters U+FFFE and U+FFFF by U+FFFD. What is
// left is valid XML 1.0 text, starts no terminal escape sequence, and
// stays on one line of a text table.
func printable(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 0x20:
			b.WriteRune(0x2400 + r)
		case r == 0x7f:
			b.WriteRune('\u2421')
		case r >= 0x80 && r < 0xa0, r == 0xfffe, r == 0xffff:
			b.WriteRune(utf8.RuneError)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// nameText returns a caller's name or label as a picture shows it:
// printable, and cut to maxName characters.
func nameText(s string) string {
	if len(s) > 4*maxName {
		s = s[:4*maxName] // enough for maxName characters; spares the rest
	}
	return fit(printable(s), maxName)
}

// tensorName is how a picture names a tensor in its labels: the name
// given, as nameText shows it, or x if there is none.
func tensorName(s string) string {
	if s == "" {
		return "x"
	}
	return nameText(s)
}

// namePrefix leads a picture's heading with the tensor's name, "y: ", or
// with nothing if it has none.
func namePrefix(s string) string {
	if s == "" {
		return ""
	}
	return nameText(s) + ": "
}
