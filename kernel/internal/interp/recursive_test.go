package interp_test

import "testing"

// A function type that names itself as its only result, and a channel
// type that names itself as its element, run as in Go: their values go
// in and out of functions, methods, interfaces and channels, across
// cells. (yaegi v0.16.1 cannot build them: reflect.Type is nil.)
func TestTypesThatNameThemselves(t *testing.T) {
	for _, c := range []struct {
		name  string
		cells []string
		want  string
	}{
		{"a function type", []string{
			"type Bar func() Bar\nfunc count(b Bar) int {\n\tn := 0\n\tfor b != nil {\n\t\tn++\n\t\tb = b()\n\t}\n\treturn n\n}",
			"var three Bar = func() Bar {\n\treturn func() Bar {\n\t\treturn func() Bar { return nil }\n\t}\n}\nfmt.Println(count(three), three()() != nil, three()()() == nil)",
		}, "3 true true\n"},
		{"its methods and an interface", []string{
			"type Bar func() Bar\ntype Maker interface{ Make() Bar }\nfunc (b Bar) Make() Bar { return b }",
			"var one Bar = func() Bar { return nil }\nvar m Maker = one\nf := one.Make\ng := Bar.Make\nh := g(one)\nfmt.Println(m.Make() != nil, h() == nil, f()() == nil)",
		}, "true true true\n"},
		{"a generic function type", []string{
			"type Src[T any] func() Src[T]\nfunc Seq[T any](n int) Src[T] {\n\tif n == 0 {\n\t\treturn nil\n\t}\n\treturn func() Src[T] { return Seq[T](n - 1) }\n}\nn := 0\nfor s := Seq[string](4); s != nil; s = s() {\n\tn++\n}\nfmt.Println(n)",
		}, "4\n"},
		{"a channel type", []string{
			"type Chan chan Chan\nfunc depth(c Chan) int {\n\tn := 0\n\tfor c != nil {\n\t\tn++\n\t\tc = <-c\n\t}\n\treturn n\n}",
			"a, b := make(Chan, 1), make(Chan, 1)\na <- b\nb <- nil\nvar r <-chan Chan = a\nfmt.Println(depth(a), len(r))",
			"c := make(Chan, 1)\nc <- make(chan Chan, 3)\nx := <-c\nfmt.Println(cap(x))",
		}, "2 0\n3\n"},
		{"a channel type in goroutines and select", []string{
			"type Chan chan Chan\nfunc run() {\n\tdone := make(chan bool)\n\tc := make(Chan)\n\tgo func() { c <- make(chan Chan); done <- true }()\n\tselect {\n\tcase <-c:\n\t\tfmt.Println(\"received\")\n\t}\n\t<-done\n}\nrun()",
		}, "received\n"},
	} {
		t.Run(c.name, func(t *testing.T) { checkPrinted(t, c.want, c.cells...) })
	}
}
