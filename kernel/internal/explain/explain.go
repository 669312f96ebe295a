// Package explain words a cell's errors for a person who knows PyTorch:
// a refused tensor operation as the exception PyTorch raises, with a line
// naming the Go call where PyTorch's message suggests Python; and a Go
// compile error that comes from a Python habit, with the Go way to write
// it. Both engines use it, so that a cell fails alike on either.
package explain

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/front"
	"github.com/tensornb/tensornb/tensor"
)

// TensorError is the cell's error for a refused tensor operation: named
// after PyTorch's exception class, with PyTorch's message as its value.
// The traceback is the two again, then a hint if the message suggests a
// Python spelling, then the lines of where (such as "cell line 2:
// y.View(-1)", or the frames of a panic in functions) that are not empty.
func TensorError(e *tensor.Error, where ...string) *front.CellError {
	class := e.Class
	if class == "" {
		class = tensor.RuntimeError
	}
	lines := []string{class + ": " + e.Message}
	if h := PythonHint(e.Message); h != "" {
		lines = append(lines, h)
	}
	for _, w := range where {
		if w != "" {
			lines = append(lines, w)
		}
	}
	return &front.CellError{Name: class, Value: e.Message, Traceback: lines}
}

// pythonHints pair a Python spelling in PyTorch's messages with the Go
// call that does it here.
var pythonHints = []struct{ python, hint string }{
	{".reshape(...)", "hint: in Go, .reshape(...) is the method Reshape(...)"},
	{"clone()", "hint: in Go, clone() is the method Clone()"},
	{"retain_graph=True", "hint: in Go, .backward() is Backward(), which has no retain_graph: compute the result again to go backward through it a second time"},
	{"tensor.item()", "hint: in Go, .item() is the method Item()"},
	{"logical_not()", "hint: in Go, logical_not() of a Bool tensor m is m.Eq(false)"},
	{"logical_xor()", "hint: in Go, logical_xor() of Bool tensors a and b is a.Ne(b)"},
	{"requires_grad=False", "hint: in Go, requires_grad=True is the method SetRequiresGrad(true)"},
	{"requires_grad flags", "hint: in Go, the requires_grad flag is set with the method SetRequiresGrad"},
	{"no_grad", "hint: in Go, a no_grad block is tensor.NoGrad(func() { ... })"},
	{"torch.cat()", "hint: in Go, torch.cat is tensor.Cat"},
}

// PythonHint returns a line naming the Go call for the Python spelling
// PyTorch's message suggests, or "" if it suggests none.
func PythonHint(message string) string {
	for _, h := range pythonHints {
		if strings.Contains(message, h.python) {
			return h.hint
		}
	}
	return ""
}

// cannotIndex is go/types' and the Go compiler's message for x[i] or
// x[i:j] on a value that is neither an array, a slice, a string nor a map.
var cannotIndex = regexp.MustCompile(`cannot (index|slice) (.+) \((?:variable|value) of type \*tensor\.Tensor\)`)

// IndexHint returns a hint for a compile error (msg) from indexing a
// tensor as in Python, x[0], on the source line src: the Go calls that
// do it, with the variable's name and the index as written. It returns ""
// for any other error.
func IndexHint(msg, src string) string {
	m := cannotIndex.FindStringSubmatch(msg)
	if m == nil {
		return ""
	}
	x := m[2]
	index, ok := bracketed(src, x)
	if !ok {
		return fmt.Sprintf("hint: a tensor is indexed with %s.Index(\"...\"), as in Python, or %s.Select(dim, i) and %s.Slice(dim, start, stop, step)", x, x, x)
	}
	spec := strconv.Quote(index)
	if m[1] == "slice" {
		start, stop, _ := strings.Cut(index, ":")
		if start == "" {
			start = "0"
		}
		if stop == "" || strings.Contains(stop, ":") {
			return fmt.Sprintf("hint: a tensor is sliced with %s.Index(%s) or %s.Slice(dim, start, stop, step)", x, spec, x)
		}
		return fmt.Sprintf("hint: a tensor is sliced with %s.Index(%s) or %s.Slice(0, %s, %s, 1)", x, spec, x, strings.TrimSpace(start), strings.TrimSpace(stop))
	}
	if _, err := strconv.Atoi(strings.TrimSpace(index)); err == nil {
		return fmt.Sprintf("hint: a tensor is indexed with %s.Index(%s) or %s.Select(0, %s)", x, spec, x, strings.TrimSpace(index))
	}
	return fmt.Sprintf("hint: a tensor is indexed with %s.Index(\"...\") or %s.Select(0, %s)", x, x, index)
}

// bracketed returns what stands between the brackets after x[ in src.
func bracketed(src, x string) (string, bool) {
	at := strings.Index(src, x+"[")
	if at < 0 {
		return "", false
	}
	rest := src[at+len(x)+1:]
	depth := 1
	for i, r := range rest {
		switch r {
		case '[', '(', '{':
			depth++
		case ']', ')', '}':
			depth--
			if depth == 0 {
				return rest[:i], true
			}
		}
	}
	return "", false
}
