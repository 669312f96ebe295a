package interp_test

import "testing"

// BenchmarkWarmCell times an ordinary warm cell, one that has no generic
// code: the lowering looks at it and leaves it be.
func BenchmarkWarmCell(b *testing.B) {
	s, _ := newSession(b)
	run(b, s, "var x = tensor.Float32.Arange(6).View(2, 3)")
	run(b, s, "x.T().Strides()")
	b.ResetTimer()
	for range b.N {
		run(b, s, "x.T().Strides()")
	}
}

// BenchmarkGenericCell times a warm cell that calls a generic function of
// the cells' and the standard library's slices: its instances, written
// by the first run, are the session's, and are not declared again.
func BenchmarkGenericCell(b *testing.B) {
	s, _ := newSession(b)
	run(b, s, "import \"slices\"\nfunc Map[T, U any](xs []T, f func(T) U) []U {\n\tvar out []U\n\tfor _, x := range xs {\n\t\tout = append(out, f(x))\n\t}\n\treturn out\n}\nxs := []int{5, 2, 9}")
	const cell = "ys := Map(xs, func(x int) int { return 2 * x })\nslices.Sort(ys)\nslices.Max(ys)"
	run(b, s, cell)
	b.ResetTimer()
	for range b.N {
		run(b, s, cell)
	}
}

// BenchmarkFirstStdUse times a new session's first cell that uses slices,
// whose source the lowering then reads and type-checks, and whose
// instances it writes.
func BenchmarkFirstStdUse(b *testing.B) {
	for range b.N {
		b.StopTimer()
		s, _ := newSession(b)
		run(b, s, "xs := []int{3, 1, 2}")
		b.StartTimer()
		run(b, s, "import \"slices\"\nslices.Sort(xs)\nslices.Index(xs, 2)")
	}
}
