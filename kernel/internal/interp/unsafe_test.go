package interp_test

import (
	"strings"
	"testing"
)

// The sizes, alignments and offsets of package unsafe are the
// compiler's, in concrete and in generic code (issue 37's
// typeparam/issue47716.go and pair.go): the lowering writes them as
// constants, for the interpreter has no package unsafe.
func TestUnsafeSizes(t *testing.T) {
	checkPrinted(t, "32 2 16 24 16\n5\n32 16 32 4 1\n", `import "unsafe"
type inner struct {
	a byte
	b int64
}

type outer struct {
	c bool
	inner
	d [3]int16
}

func size[T any](x T) uintptr { return unsafe.Sizeof(x) }

func offset[T any](p *struct {
	x byte
	y T
}) uintptr {
	return unsafe.Offsetof(p.y)
}

const words = unsafe.Sizeof(uintptr(0)) * 2

func main() {
	var o outer
	fmt.Println(unsafe.Sizeof(o), unsafe.Alignof(o.d), unsafe.Offsetof(o.b), unsafe.Offsetof(o.d), words)
	var only [5]byte
	fmt.Println(unsafe.Sizeof(only))
	fmt.Println(size(o), size("s"), size([2]complex128{}), offset[int32](nil), offset[[3]byte](nil))
}`)
}

// unsafe.Pointer is a type the engine has, and its values are nil, or
// what compiled code gives: typeparam/issue48013.go declares it in a
// generic type and a struct. The output is that of go run.
func TestUnsafePointerType(t *testing.T) {
	checkPrinted(t, "true true <nil> 2 true\n[<nil> <nil>]\n", "import \"unsafe\"\ntype S struct{ q unsafe.Pointer }\nvar p unsafe.Pointer\nps := []unsafe.Pointer{nil, unsafe.Pointer(nil)}\nfmt.Println(p == nil, S{}.q == nil, p, len(ps), ps[1] == nil)\nms := make([]unsafe.Pointer, 2)\nfmt.Println(ms)")
}

// Of package unsafe, the engine runs what the compiler makes constants,
// and the type Pointer; a conversion to or from it, and the rest of the
// package, are refused at their line, never run wrong.
func TestUnsafeRefused(t *testing.T) {
	for _, c := range []struct{ cell, want string }{
		{"import \"unsafe\"\nx := 1\np := unsafe.Pointer(&x)\n_ = p", "cell line 3: the instant engine cannot run a conversion to or from unsafe.Pointer"},
		{"import \"unsafe\"\nvar p unsafe.Pointer\nfmt.Println(uintptr(p))", "cell line 3: the instant engine cannot run a conversion to or from unsafe.Pointer"},
		{"import \"unsafe\"\nvar p unsafe.Pointer\n\nq := unsafe.Add(p, 1)\n_ = q", "cell line 4: the instant engine cannot run unsafe.Add: of package unsafe, it has only Sizeof"},
	} {
		s, _ := newSession(t)
		err := runLast(t, s, c.cell)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("cell %q: error %v, want %q", c.cell, err, c.want)
		}
	}
}
