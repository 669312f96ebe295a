package interp_test

import "testing"

// A variable of a type that names something the session has a variable
// of, a parameter of a function type (strings.ToUpper's s) or a field of
// a struct, is declared and works: yaegi alone failed with "variable
// definition loop".
func TestVariablesOfTypesWithNames(t *testing.T) {
	got := printed(t, "x := 1\ns := \"Hello, World\"",
		"upper := strings.ToUpper\nvar transform = func(s string) string { return strings.ToLower(s) }\nvar trim func(s string) string = strings.TrimSpace\nfmt.Println(upper(s), transform(s), trim(\"  x \"), x)",
		"pts := []struct{ x, y int }{{1, 2}, {3, 4}}\nvar cfg struct{ name string }\ncfg.name = \"a\"\nvar iface interface{ Do(s string) int }\nfmt.Println(pts, pts[1].y, cfg, iface == nil)",
		"fmt.Printf(\"%T\\n\", upper)")
	if want := "HELLO, WORLD hello, world x 1\n[{1 2} {3 4}] 4 {a} true\nfunc(string) string\n"; got != want {
		t.Fatalf("printed %q, want %q", got, want)
	}
}
