package interp_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/kernel/internal/front"
)

// Generic functions and types, declared in one cell and instantiated in
// later ones, run as Go runs them: each instance the cells use is
// lowered to a concrete declaration. The outputs are those of the same
// code as one program, run with go run (Go 1.26).
func TestGenerics(t *testing.T) {
	for _, c := range []struct {
		name  string
		cells []string
		want  string
	}{
		{"a function across cells", []string{
			"func Map[T, U any](xs []T, f func(T) U) []U {\n\tvar out []U\n\tfor _, x := range xs {\n\t\tout = append(out, f(x))\n\t}\n\treturn out\n}",
			"fmt.Println(Map([]int{1, 2, 3}, func(x int) int { return x * x }))",
			"fmt.Println(Map([]string{\"a\"}, strings.ToUpper), Map[int, string]([]int{7}, strconv.Itoa))",
		}, "[1 4 9]\n[A] [7]\n"},
		{"a constraint with a type set", []string{
			"type Number interface{ ~int | ~float64 }\nfunc Sum[T Number](xs ...T) T {\n\tvar s T\n\tfor _, x := range xs {\n\t\ts += x\n\t}\n\treturn s\n}\nfmt.Println(Sum(1, 2, 3), Sum(0.25, 0.5))",
		}, "6 0.75\n"},
		{"a type with methods, its values across cells", []string{
			"type Stack[T any] struct{ items []T }\nfunc (s *Stack[T]) Push(v T) { s.items = append(s.items, v) }\nfunc (s *Stack[T]) Pop() T {\n\tv := s.items[len(s.items)-1]\n\ts.items = s.items[:len(s.items)-1]\n\treturn v\n}\nst := &Stack[string]{}\nst.Push(\"a\")\nst.Push(\"b\")",
			"fmt.Println(st.Pop(), len(st.items))",
			"var t Stack[string] = *st\nt.Push(\"c\")\nfmt.Println(t.items)",
		}, "b 1\n[a c]\n"},
		{"an instantiation over lines", []string{
			"type Box[T any] struct{ v T }\nb := Box[struct {\n\tx int\n}]{}\nfmt.Println(b.v.x)",
		}, "0\n"},
		{"a function declared again", []string{
			"func Twice[T any](x T) []T { return []T{x, x} }\nfmt.Println(Twice(1))",
			"func Twice[T any](x T) []T { return []T{x, x, x} }",
			"fmt.Println(Twice(1))",
		}, "[1 1]\n[1 1 1]\n"},
		{"generic calling generic", []string{
			"func Filter[T any](xs []T, keep func(T) bool) []T {\n\tvar out []T\n\tfor _, x := range xs {\n\t\tif keep(x) {\n\t\t\tout = append(out, x)\n\t\t}\n\t}\n\treturn out\n}",
			"func Evens[T ~int | ~int64](xs []T) []T { return Filter(xs, func(x T) bool { return x%2 == 0 }) }\nfmt.Println(Evens([]int{1, 2, 3, 4}), Evens([]int64{6, 7}))",
		}, "[2 4] [6]\n"},
		{"types that refer to each other", []string{
			"type node[T any] struct {\n\tv    T\n\tnext *node[T]\n}\ntype List[T any] struct{ head *node[T] }\nfunc (l *List[T]) Push(v T) { l.head = &node[T]{v, l.head} }\nfunc (l *List[T]) Each(f func(T)) {\n\tfor n := l.head; n != nil; n = n.next {\n\t\tf(n.v)\n\t}\n}",
			"var l List[string]\nl.Push(\"a\")\nl.Push(\"b\")\nl.Each(func(s string) { fmt.Print(s, \" \") })\nfmt.Println()",
		}, "b a \n"},
		{"a type switch on a type parameter", []string{
			"func Describe[T any](x T) string {\n\tswitch any(x).(type) {\n\tcase int:\n\t\treturn \"int\"\n\tcase string:\n\t\treturn \"string\"\n\t}\n\treturn \"other\"\n}\nfmt.Println(Describe(1), Describe(\"x\"), Describe(2.5))",
		}, "int string other\n"},
		{"a type switch whose cases coincide once instantiated", []string{
			"func Kind[T any](i interface{}) string {\n\tswitch i.(type) {\n\tcase T:\n\t\treturn \"T\"\n\tcase int, string:\n\t\treturn \"int or string\"\n\tcase []T, bool:\n\t\treturn \"[]T or bool\"\n\t}\n\treturn \"other\"\n}",
			"fmt.Println(Kind[int](1), Kind[int](\"a\"), Kind[string](\"a\"), Kind[float64](1), Kind[bool]([]bool{}), Kind[bool](true))",
		}, "T int or string T int or string []T or bool T\n"},
		{"type arguments declared inside a function", []string{
			"import \"slices\"\nfunc Count[T comparable](xs []T, v T) int {\n\tn := 0\n\tfor _, x := range xs {\n\t\tif x == v {\n\t\t\tn++\n\t\t}\n\t}\n\treturn n\n}",
			"func demo() {\n\ttype point struct{ x, y int }\n\ttype pair struct{ a, b point }\n\tps := []pair{{point{1, 2}, point{3, 4}}, {point{1, 2}, point{3, 4}}}\n\tfmt.Println(Count(ps, pair{point{1, 2}, point{3, 4}}))\n\tpts := []point{{3, 1}, {1, 2}}\n\tslices.SortFunc(pts, func(a, b point) int { return a.x - b.x })\n\tfmt.Println(pts)\n}\ndemo()",
		}, "2\n[{1 2} {3 1}]\n"},
		{"an assertion that cannot succeed once instantiated", []string{
			"type S struct{}\nfunc (S) M() byte { return 0 }\ntype I[T any] interface{ M() T }\nfunc F[T, A any](x I[T]) string {\n\t_, ok := x.(A)\n\tswitch x.(type) {\n\tcase A:\n\t\treturn fmt.Sprint(\"A \", ok)\n\t}\n\treturn fmt.Sprint(\"not A \", ok)\n}",
			"fmt.Println(F[byte, string](S{}), F[byte, S](S{}), F[byte, S](I[byte](S{})))\nvar v any = S{}\nswitch v.(type) {\ncase S:\n\tfmt.Println(\"S\")\ndefault:\n\tfmt.Println(\"other\")\n}",
		}, "not A false A true A true\nS\n"},
		{"a pointer constraint and a conversion", []string{
			"type Setter[T any] interface {\n\t*T\n\tSet(string)\n}\ntype Num int\nfunc (n *Num) Set(s string) { v, _ := strconv.Atoi(s); *n = Num(v) }",
			"func FromStrings[T any, PT Setter[T]](s []string) []T {\n\tout := make([]T, len(s))\n\tfor i, v := range s {\n\t\tp := PT(&out[i])\n\t\tp.Set(v)\n\t}\n\treturn out\n}\nfmt.Println(FromStrings[Num]([]string{\"4\", \"5\"}))",
		}, "[4 5]\n"},
		{"two type parameters and a method through fmt", []string{
			"type Pair[K comparable, V any] struct {\n\tKey K\n\tVal V\n}\nfunc (p Pair[K, V]) String() string { return fmt.Sprintf(\"%v=%v\", p.Key, p.Val) }",
			"fmt.Println(Pair[string, int]{\"a\", 1}, Pair[int, bool]{1, true})",
		}, "a=1 1=true\n"},
		{"a tensor's strides", []string{
			"func Last[T any](xs []T) T { return xs[len(xs)-1] }",
			"x := tensor.Float32.Arange(6).View(2, 3)\nfmt.Println(Last(x.T().Strides()), Last(x.Shape()))",
		}, "3 3\n"},
		{"slices and cmp", []string{
			"import (\"cmp\"; \"slices\")\ntype P struct {\n\tName string\n\tAge  int\n}\nps := []P{{\"a\", 30}, {\"b\", 20}}\nslices.SortFunc(ps, func(x, y P) int { return cmp.Compare(x.Age, y.Age) })\nfmt.Println(ps)",
			"s := []int{3, 1, 2}\nslices.Sort(s)\nfmt.Println(s, slices.Index(s, 2), slices.Max(s), slices.Equal(s, []int{1, 2, 3}))",
			"xs := []string{\"b\", \"a\"}\nslices.Sort(xs)\nys := slices.Insert(slices.Clone(xs), 1, \"z\")\nslices.Reverse(ys)\nfmt.Println(xs, ys, slices.Contains(ys, \"z\"), cmp.Compare(1, 2), cmp.Less(\"b\", \"a\"), cmp.Or(0, 3, 4))",
		}, "[{b 20} {a 30}]\n[1 2 3] 1 3 true\n[a b] [b z a] true -1 false 3\n"},
		{"a function of type iter.Seq", []string{
			"import \"iter\"\nfunc Count(n int) iter.Seq[int] {\n\treturn func(yield func(int) bool) {\n\t\tfor i := range n {\n\t\t\tif !yield(i) {\n\t\t\t\treturn\n\t\t\t}\n\t\t}\n\t}\n}",
			"var c iter.Seq[int] = Count(3)\nc(func(i int) bool { fmt.Print(i, \" \"); return i < 1 })\nfmt.Println()",
		}, "0 1 \n"},
		{"generic and newer functions of compiled packages", []string{
			"import \"errors\"\ntype MyErr struct{ Code int }\nfunc (e *MyErr) Error() string { return \"my\" }\nvar err error = &MyErr{7}\nme, ok := errors.AsType[*MyErr](err)\nfmt.Println(ok, me.Code)",
			"import \"sync\"\nn := 0\nf := sync.OnceValue(func() int { n++; return 42 })\nfmt.Println(f(), f(), n)\ng := sync.OnceValues(func() (int, error) { return 1, nil })\nfmt.Println(g())",
			"import (\"bytes\"; \"strings\")\nstrings.Lines(\"a\\nb\\n\")(func(l string) bool { fmt.Printf(\"%q \", l); return true })\nstrings.SplitSeq(\"a,b\", \",\")(func(l string) bool { fmt.Printf(\"%q \", l); return true })\nstrings.FieldsSeq(\" a  b \")(func(l string) bool { fmt.Printf(\"%q \", l); return true })\nbytes.Lines([]byte(\"a\\nb\"))(func(l []byte) bool { fmt.Printf(\"%q \", l); return true })\nfmt.Println()",
		}, "true 7\n42 42 1\n1 <nil>\n\"a\\n\" \"b\\n\" \"a\" \"b\" \"a\" \"b\" \"a\\n\" \"b\" \n"},
		{"nil among the values of an assignment", []string{
			"func f() {\n\ts := []byte(\"ab\")\n\tvar line []byte\n\tline, s = s, nil\n\tfmt.Println(line, s == nil)\n}\nf()",
		}, "[97 98] true\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := printed(t, c.cells...); got != c.want {
				t.Errorf("printed %q, want %q", got, c.want)
			}
		})
	}
}

// A panic inside an instance names the instance as Go does, and the line
// of its declaration it reached.
func TestPanicInAnInstance(t *testing.T) {
	s, _ := newSession(t)
	run(t, s, "func Get[T any](xs []T, i int) T {\n\treturn xs[i]\n}")
	for _, c := range []struct{ cell, frame string }{
		{"fmt.Println(Get([]int{1}, 0))\nfmt.Println(Get([]int{1}, 3))", "in Get[int], line 2 of its declaration: return xs[i]"},
		{"import \"slices\"\nfmt.Println(slices.Insert([]int{1}, 5, 2))", "in slices.Insert[[]int, int], line 2 of its declaration: _ = s[i:] // bounds check"},
	} {
		err := s.Run(context.Background(), c.cell)
		var ce *front.CellError
		if !errors.As(err, &ce) || ce.Name != "panic" || len(ce.Traceback) != 3 || ce.Traceback[1] != c.frame || ce.Traceback[2] != "cell line 2: "+strings.Split(c.cell, "\n")[1] {
			t.Errorf("cell %q: %#v", c.cell, err)
		}
	}
}

// A generic function that instantiates itself with ever larger types
// (which Go's compiler refuses as an instantiation cycle) is refused,
// after an earlier cell, in a message of a reasonable length: it named
// the last of 2000 instances, some thousands of characters long.
func TestEndlessInstantiation(t *testing.T) {
	s, _ := newSession(t)
	run(t, s, "fmt.Println(\"before\")")
	err := runLast(t, s, "type T[P any] struct{ next *T[[]P] }\nfunc grow[P any](n int) { if n > 0 { grow[[]P](n - 1) } }\ngrow[int](3)")
	var ce *front.CellError
	if !errors.As(err, &ce) || ce.Name != "Unsupported" || !strings.Contains(ce.Value, "more than 2000 instances") || len(ce.Value) > 400 {
		t.Fatalf("error %#v", err)
	}
}
