package tensor

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Every tile kernel this CPU runs, for both element types, writes and
// adds the product of two random panels within the rounding error of a
// sum of its depth, at depths around the unrolled and blocked lengths,
// into a c whose rows are wider than a tile, leaving the slots between
// the rows alone.
func TestTileKernelsMultiply(t *testing.T) {
	for _, ks := range append(archKernels(), portableKernels) {
		if ks.lacks != "" {
			t.Logf("%s: not tested, %s", ks.name, ks.lacks)
			continue
		}
		t.Run(ks.name+"/float32", func(t *testing.T) { testTile(t, ks.f32, 0x1p-24) })
		t.Run(ks.name+"/float64", func(t *testing.T) { testTile(t, ks.f64, 0x1p-53) })
	}
}

// testTile checks kern against sums in float64, within (k+2)·u·Σ|a·b|.
func testTile[T float32 | float64](t *testing.T, kern gemmKernel[T], u float64) {
	r := rand.New(rand.NewPCG(3, 4))
	rows, cols := kern.rows, kern.cols
	ldc := cols + 3
	for _, k := range []int{1, 2, 4, 7, 256} {
		a, b := make([]T, k*rows), make([]T, k*cols)
		for i := range a {
			a[i] = T(r.NormFloat64())
		}
		for i := range b {
			b[i] = T(r.NormFloat64())
		}
		c := make([]T, (rows-1)*ldc+cols+1)
		for i := range c {
			c[i] = T(i)
		}
		initial := append([]T{}, c...)
		// The same rows of a in place, lda apart with a gap after each,
		// for a kernel that reads them so: its sums are the same, in the
		// same order, to the last bit.
		lda := k + 3
		inPlace := make([]T, rows*lda)
		for p := range k {
			for r := range rows {
				inPlace[r*lda+p] = a[p*rows+r]
			}
		}
		// And as the columns of a transposed matrix, pa apart: a step
		// that is neither one element nor a packed column, which the
		// unrolled loops of the AVX2 kernels leave to the plain one.
		pa := rows + 1
		columns := make([]T, k*pa)
		for p := range k {
			for r := range rows {
				columns[p*pa+r] = a[p*rows+r]
			}
		}
		for _, add := range []bool{false, true} {
			before := append([]T{}, c...)
			if kern.strided != nil {
				c2, c3 := append([]T{}, c...), append([]T{}, c...)
				kern.strided(k, 1, inPlace, lda, 1, 0, b, c2, ldc, add)
				kern.strided(k, 1, columns, 1, pa, 0, b, c3, ldc, add)
				kern.tile(k, a, b, c, ldc, add)
				for i := range c {
					if c2[i] != c[i] {
						t.Fatalf("k=%d, add=%v: slot %d is %v from rows in place, %v from packed ones", k, add, i, c2[i], c[i])
					}
					if c3[i] != c[i] {
						t.Fatalf("k=%d, add=%v: slot %d is %v from columns %d apart, %v from packed ones", k, add, i, c3[i], pa, c[i])
					}
				}
			} else {
				kern.tile(k, a, b, c, ldc, add)
			}
			for i := range c {
				row, col := i/ldc, i%ldc
				if col >= cols || row >= rows {
					if c[i] != initial[i] {
						t.Fatalf("k=%d: slot %d outside the tile changed to %v", k, i, c[i])
					}
					continue
				}
				want, size := 0.0, 0.0
				for p := range k {
					v := float64(a[p*rows+row]) * float64(b[p*cols+col])
					want, size = want+v, size+math.Abs(v)
				}
				if add {
					want += float64(before[i])
					size += math.Abs(float64(before[i]))
				}
				if math.Abs(float64(c[i])-want) > float64(k+2)*u*size {
					t.Fatalf("k=%d, add=%v: c[%d][%d] = %v, want %v", k, add, row, col, c[i], want)
				}
			}
		}
	}
}

// A kernel that reads rows in place computes a column of tiles in one
// call as it computes each tile alone, to the last bit, from rows in
// place (a gap between the tiles' rows), from packed panels and from the
// columns of a transposed matrix, and leaves the slots around them alone.
func TestTileKernelsMultiplyColumns(t *testing.T) {
	for _, ks := range archKernels() {
		if ks.lacks != "" {
			t.Logf("%s: not tested, %s", ks.name, ks.lacks)
			continue
		}
		if ks.f32.strided == nil {
			t.Logf("%s: not tested, its kernels compute one packed tile a call", ks.name)
			continue
		}
		t.Run(ks.name+"/float32", func(t *testing.T) { testTileColumn(t, ks.f32) })
		t.Run(ks.name+"/float64", func(t *testing.T) { testTileColumn(t, ks.f64) })
	}
}

func testTileColumn[T float32 | float64](t *testing.T, kern gemmKernel[T]) {
	r := rand.New(rand.NewPCG(5, 6))
	const tiles = 3
	rows, cols := kern.rows, kern.cols
	ldc := cols + 2
	for _, k := range []int{1, 5, 64} {
		b := make([]T, k*cols)
		for i := range b {
			b[i] = T(r.NormFloat64())
		}
		for _, layout := range []struct {
			name           string
			lda, pa, astep int
		}{
			{"in place", k + 1, 1, rows*(k+1) + 2},
			{"packed", 1, rows, rows * k},
			{"transposed", 1, tiles*rows + 3, rows},
		} {
			a := make([]T, (tiles-1)*layout.astep+(rows-1)*layout.lda+(k-1)*layout.pa+1)
			for i := range a {
				a[i] = T(r.NormFloat64())
			}
			for _, add := range []bool{false, true} {
				c := make([]T, (tiles*rows+1)*ldc)
				for i := range c {
					c[i] = T(i % 7)
				}
				want := append([]T{}, c...)
				for i := range tiles {
					kern.strided(k, 1, a[i*layout.astep:], layout.lda, layout.pa, 0, b, want[i*rows*ldc:], ldc, add)
				}
				kern.strided(k, tiles, a, layout.lda, layout.pa, layout.astep, b, c, ldc, add)
				for i := range c {
					if c[i] != want[i] {
						t.Fatalf("k=%d, %s, add=%v: slot %d (row %d, column %d) is %v in one call, %v tile by tile", k, layout.name, add, i, i/ldc, i%ldc, c[i], want[i])
					}
				}
			}
		}
	}
}

// The kernel a name asks for is used when the CPU runs it; otherwise the
// fastest one below it is, and the note says why.
func TestChooseMatmulKernel(t *testing.T) {
	known := []matmulKernels{{name: "avx512", lacks: "this CPU lacks AVX-512"}, {name: "avx2"}}
	for _, c := range []struct{ asked, want, note string }{
		{"", "avx2", ""},
		{"avx2", "avx2", ""},
		{"portable", "portable", ""},
		{"avx512", "avx2", "TENSORNB_MATMUL_KERNEL=avx512, but this CPU lacks AVX-512: the avx2 kernel runs instead"},
		{"neon", "avx2", "TENSORNB_MATMUL_KERNEL=neon is not a matrix product kernel of this build (avx512, avx2, portable): the avx2 kernel runs instead"},
	} {
		got, note := chooseMatmulKernel(known, c.asked)
		if got.name != c.want || note != c.note {
			t.Errorf("asked %q: got %s, %q; want %s, %q", c.asked, got.name, note, c.want, c.note)
		}
	}
}

// When TENSORNB_MATMUL_KERNEL forces a kernel (scripts/test does, for
// each one), it is the one in use: the other tests then test it. Asked
// for one this CPU lacks, the test is skipped and says so.
func TestForcedMatmulKernel(t *testing.T) {
	asked := os.Getenv(matmulKernelVar)
	if asked == "" {
		t.Skipf("%s is not set: the matmul tests ran the %s kernel, the fastest this CPU runs", matmulKernelVar, matmulKernel.name)
	}
	if matmulKernelNote != "" {
		t.Skipf("%s", matmulKernelNote)
	}
	if matmulKernel.name != asked {
		t.Fatalf("%s=%s, but the %s kernel is in use", matmulKernelVar, asked, matmulKernel.name)
	}
}

// The committed assembly is what gemm_gen.go writes today: a change to
// the generator that was not followed by go generate fails here.
func TestKernelAssemblyIsGenerated(t *testing.T) {
	dir := t.TempDir()
	if msg, err := exec.Command("go", "run", "gemm_gen.go", "-dir", dir).CombinedOutput(); err != nil {
		t.Fatalf("go run gemm_gen.go: %v\n%s", err, msg)
	}
	for _, name := range []string{"gemm_amd64.s", "gemm_arm64.s"} {
		want, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from what gemm_gen.go writes: run go generate in tensor/", name)
		}
		if !strings.HasPrefix(string(got), "// Code generated") {
			t.Errorf("%s does not say it is generated", name)
		}
	}
}

// BenchmarkTile times each tile kernel this CPU runs on panels 256 deep,
// which stay in L1: the kernel's own speed, which the whole product
// approaches, in GFLOPS on one core.
func BenchmarkTile(b *testing.B) {
	for _, ks := range append(archKernels(), portableKernels) {
		if ks.lacks != "" {
			continue
		}
		b.Run(ks.name+"/float32", func(b *testing.B) { benchTile(b, ks.f32) })
		b.Run(ks.name+"/float64", func(b *testing.B) { benchTile(b, ks.f64) })
	}
}

func benchTile[T float32 | float64](b *testing.B, kern gemmKernel[T]) {
	k := kern.depth()
	a, y := make([]T, k*kern.rows), make([]T, k*kern.cols)
	for i := range a {
		a[i] = T(i%7) / 8
	}
	for i := range y {
		y[i] = T(i%5) / 8
	}
	c := make([]T, kern.rows*kern.cols)
	for b.Loop() {
		kern.tile(k, a, y, c, kern.cols, false)
	}
	b.ReportMetric(float64(2*k*kern.rows*kern.cols)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOPS")
}
