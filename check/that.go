package check

import "fmt"

// That checks a condition, failing with the message format and args make
// when it is false: the check for what the others do not cover, as a
// Python test cell's assert with a message.
//
//	check.That(len(parts) == 3, "Split should give 3 parts, not %d", len(parts))
func That(ok bool, format string, args ...any) {
	if !ok {
		raise(failed("That", nil, "%s", fmt.Sprintf(format, args...)))
	}
}
