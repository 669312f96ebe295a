package interp_test

import "testing"

// A map's composite literal whose keys coincide at run time keeps the
// element Go's compiler keeps: it adds the entries of constants first,
// then the others in order (yaegi added all in order, and kept "b").
func TestMapLiteralOrder(t *testing.T) {
	checkPrinted(t, "map[1:a] map[1:a 2:d] map[{1 2}:y]\n", `k := 1
m := map[int]string{k: "a", 1: "b"}
n := map[int]string{1: "b", k: "a", 2: "c", k + 1: "d"}
type P struct{ X, Y int }
p := map[P]string{{k, 2}: "y", {1, 2}: "x"}
fmt.Println(m, n, p)`)
}

// In generic code, a conversion of a constant to a type parameter is no
// constant, and two such cases or keys may coincide once instantiated:
// the instance runs them as the generic code does, first case first
// (typeparam/issue42758.go was refused: Go refuses duplicate constant
// cases in concrete code).
func TestCoincidingCases(t *testing.T) {
	checkPrinted(t, "zero map[1:a]\nagain map[1:a]\n", `func F[T ~int](x T) (string, map[T]string) {
	m := map[T]string{T(1): "a", 1: "b"}
	switch x {
	case T(0):
		return "zero", m
	case 0, -1:
		return "again", m
	}
	return "other", m
}
fmt.Println(F(0))
fmt.Println(F(-1))`)
}
