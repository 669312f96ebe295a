package interp_test

import (
	"context"
	"io"
	"testing"

	"github.com/tensornb/tensornb/kernel/internal/interp"
	"github.com/tensornb/tensornb/kernel/internal/interp/worker"
)

// What the marks of a panic's frames (instrument.go) and the guards of
// constant indexes (bounds.go) cost: each function runs as the session
// rewrites it ("marked") and as it would without marks and guards
// ("plain"), in interpreters of their own, one after the other. On a
// shared machine, compare each run's pair rather than runs far apart:
//
//	for i in $(seq 12); do go test -run '^$' -bench Marks -benchtime 20x -count 1 ./kernel/internal/interp/; done
//
// doc.go has the numbers measured so.
func BenchmarkMarks(b *testing.B) {
	const code = "func sum(s []int) int {\n\ttotal := 0\n\tfor i := 0; i < len(s); i++ {\n\t\ttotal += s[i]\n\t}\n\treturn total\n}\n" +
		"func count(n int) int {\n\tc := 0\n\tfor i := 0; i < n; i++ {\n\t\tc += i & 1\n\t}\n\treturn c\n}\n" +
		"func firsts(rows [][]int) int {\n\tt := 0\n\tfor _, r := range rows {\n\t\tt += r[0]\n\t}\n\treturn t\n}\n" +
		"func fib(n int) int {\n\tif n < 2 {\n\t\treturn n\n\t}\n\treturn fib(n-1) + fib(n-2)\n}\n" +
		"func both(s []int) int {\n\tt, u := 0, 0\n\tfor i := 0; i < len(s); i++ {\n\t\tt += s[i]\n\t\tu -= s[i]\n\t}\n\treturn t + u\n}\n" +
		"var xs = make([]int, 100000)\nvar rows = make([][]int, 100000)"
	const setup = "for i := 0; i < len(rows); i++ {\n\trows[i] = []int{i}\n}"
	sessions := map[string]*interp.Session{}
	versions := []string{"marked", "plain"}
	for _, version := range versions {
		s, err := worker.NewSession("../../..", io.Discard, nil)
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range []string{code, setup} {
			if version == "marked" {
				err = s.Run(context.Background(), c)
			} else {
				_, err = interp.Eval(s, c) // as written, by yaegi alone
			}
			if err != nil {
				b.Fatal(err)
			}
		}
		sessions[version] = s
	}
	for _, call := range []struct{ name, code string }{
		{"loop that indexes", "sum(xs)"},
		{"loop that indexes twice", "both(xs)"},
		{"loop that cannot fail", "count(100000)"},
		{"loop with a constant index", "firsts(rows)"},
		{"recursion", "fib(20)"},
	} {
		for _, version := range versions {
			s := sessions[version]
			b.Run(call.name+"/"+version, func(b *testing.B) {
				for b.Loop() {
					if _, err := interp.Eval(s, call.code); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
