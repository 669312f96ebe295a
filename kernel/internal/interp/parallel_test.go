package interp_test

import "testing"

// An assignment of several values, a call among them, assigns them all:
// yaegi v0.16.1 left the variables of the values beside the call as they
// were (j stayed 2, and the loop's i did not count down).
func TestParallelAssignmentWithACall(t *testing.T) {
	checkPrinted(t, "7 4\n6 3\n2 1\n1 3\n",
		"type E struct {\n\tnext *E\n\tv    int\n}\nfunc (e *E) Next() *E { return e.next }\nfunc dec(i int) int { return i - 1 }",
		"j, k := 2, 5\nj, k = 7, dec(k)\nfmt.Println(j, k)\nj, k = dec(j), k-1\nfmt.Println(j, k)\na := &E{next: &E{v: 3}, v: 1}\nfor i, e := 2, a; i > 0; i, e = i-1, e.Next() {\n\tfmt.Println(i, e.v)\n}")
}
