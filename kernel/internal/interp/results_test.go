package interp_test

import "testing"

// A function's named results start at their zero values, whatever the
// call's value is assigned to: yaegi alone started g's ret with got's
// value, and printed [1 2 3 1 2 3]. The output is that of go run.
func TestNamedResultsStartAtZero(t *testing.T) {
	checkPrinted(t, "[1 2 3] 1 x\n", "func f(s []int) (ret []int) {\n\tfor _, v := range s {\n\t\tret = append(ret, v)\n\t}\n\treturn ret\n}\nfunc g(s []int) (ret []int) {\n\tfor _, v := range s {\n\t\tret = append(ret, v)\n\t}\n\treturn\n}\ngot := f([]int{1, 2, 3})\ngot = g([]int{1, 2, 3})\nh := func() (n int, s string) { n++; s += \"x\"; return }\nn, s := h()\nn, s = h()\nfmt.Println(got, n, s)")
}

// A definition of several variables keeps each value, a call's beside a
// composite literal's: yaegi alone lost the call's ([] [1]). The output
// is that of go run.
func TestDefinitionsOfSeveralValues(t *testing.T) {
	checkPrinted(t, "[5] [1] map[1:2] [5] [5] 3\n", "func f() []int { return []int{5} }\nfunc g() {\n\ta, b := f(), []int{1}\n\tvar c, d = map[int]int{1: 2}, f()\n\tif e, h := f(), &struct{ x int }{3}; len(e) == 1 {\n\t\tfmt.Println(a, b, c, d, e, h.x)\n\t}\n}\ng()")
}

// A range loop into existing variables assigns them as each iteration
// starts: yaegi alone left them as they were in a loop that breaks at
// once. The output is that of go run.
func TestRangeIntoVariables(t *testing.T) {
	checkPrinted(t, "0 [10 2 3]\na 1\n30\n1\n", "func f() {\n\tx := []int{1, 2, 3}\n\ty := []int{10, 20, 30}\n\tvar i int\n\tfor i, x[i] = range y {\n\t\tbreak\n\t}\n\tfmt.Println(i, x)\n\tm := map[string]int{\"a\": 1}\n\tvar k string\n\tvar v int\n\tfor k, v = range m {\n\t}\n\tfmt.Println(k, v)\n\tfor _, v = range y {\n\t}\n\tfmt.Println(v)\n\tfor i = range y {\n\t\tif i == 1 {\n\t\t\tbreak\n\t\t}\n\t}\n\tfmt.Println(i)\n}\nf()")
}
