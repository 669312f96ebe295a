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

// Of package unsafe, the engine runs what the compiler makes constants;
// the rest is refused at its line, never run wrong.
func TestUnsafePointerRefused(t *testing.T) {
	s, _ := newSession(t)
	err := runLast(t, s, "import \"unsafe\"\nx := 1\np := unsafe.Pointer(&x)\n_ = p")
	if err == nil || !strings.Contains(err.Error(), "cell line 3: the instant engine cannot run unsafe.Pointer: of package unsafe, it has only Sizeof") {
		t.Fatalf("error %v", err)
	}
}
