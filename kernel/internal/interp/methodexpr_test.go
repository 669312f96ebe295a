package interp_test

import "testing"

// Method expressions, of compiled types and the cells', call the method
// on their first argument (yaegi alone panics, or fails to assign them).
func TestMethodExpressions(t *testing.T) {
	got := printed(t, "type P struct{ n int }\nfunc (p P) Get() int { return p.n }\nfunc (p *P) Set(v int) { p.n = v }\n"+
		"type V []int\nfunc (v V) Sum(extra ...int) (t int) {\n\tfor _, x := range append(v, extra...) {\n\t\tt += x\n\t}\n\treturn\n}",
		"g := P.Get\ns := (*P).Set\nvar p P\ns(&p, 4)\nfmt.Println(g(P{3}), p.n, P.Get(p))",
		"f := (*strings.Builder).WriteString\nvar b strings.Builder\nf(&b, \"q\")\n(*strings.Builder).WriteString(&b, \"r\")\n"+
			"fmt.Println(b.String(), (*strings.Reader).Len(strings.NewReader(\"abc\")), time.Duration.String(90*time.Second), fmt.Stringer.String(time.Second))",
		"d := time.Duration.Hours\nfmt.Println(d(90*time.Minute), V.Sum(V{1, 2}, 3, 4), V.Sum(V{1}))")
	if want := "3 4 4\nqr 3 1m30s 1s\n1.5 10 1\n"; got != want {
		t.Fatalf("printed %q, want %q", got, want)
	}
}
