package tensor

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Both tile kernels, the assembly one where this CPU runs it and the Go
// one every machine runs, write and add the product of two random panels
// within the rounding error of a float32 sum of its depth, at depths
// around the unrolled and blocked lengths, into a c whose rows are wider
// than a tile, leaving the slots between the rows alone.
func TestTileKernelsMultiply(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	kernels := map[string]func(k int, a, b, c []float32, ldc int, add bool){"go": sgemmTileGo}
	if hasAVX512 {
		kernels["avx512"] = sgemmTile
	} else {
		t.Log("this CPU has no AVX-512: only the Go kernel is tested")
	}
	const ldc = sgemmCols + 3
	for name, tile := range kernels {
		for _, k := range []int{1, 2, 7, 256} {
			a, b := make([]float32, k*sgemmRows), make([]float32, k*sgemmCols)
			for i := range a {
				a[i] = float32(r.NormFloat64())
			}
			for i := range b {
				b[i] = float32(r.NormFloat64())
			}
			c := make([]float32, (sgemmRows-1)*ldc+sgemmCols+1)
			for i := range c {
				c[i] = float32(i)
			}
			initial := append([]float32{}, c...)
			for _, add := range []bool{false, true} {
				before := append([]float32{}, c...)
				tile(k, a, b, c, ldc, add)
				for i := range c {
					row, col := i/ldc, i%ldc
					if col >= sgemmCols || row >= sgemmRows {
						if c[i] != initial[i] {
							t.Fatalf("%s, k=%d: slot %d outside the tile changed to %v", name, k, i, c[i])
						}
						continue
					}
					want, size := 0.0, 0.0
					for p := range k {
						v := float64(a[p*sgemmRows+row]) * float64(b[p*sgemmCols+col])
						want, size = want+v, size+math.Abs(v)
					}
					if add {
						want += float64(before[i])
						size += math.Abs(float64(before[i]))
					}
					if math.Abs(float64(c[i])-want) > float64(k+2)*0x1p-24*size {
						t.Fatalf("%s, k=%d, add=%v: c[%d][%d] = %v, want %v", name, k, add, row, col, c[i], want)
					}
				}
			}
		}
	}
}

// The committed assembly is what sgemm_gen.go writes today: a change to
// the generator that was not followed by go generate fails here.
func TestKernelAssemblyIsGenerated(t *testing.T) {
	out := filepath.Join(t.TempDir(), "sgemm_amd64.s")
	if msg, err := exec.Command("go", "run", "sgemm_gen.go", "-o", out).CombinedOutput(); err != nil {
		t.Fatalf("go run sgemm_gen.go: %v\n%s", err, msg)
	}
	want, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("sgemm_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("sgemm_amd64.s differs from what sgemm_gen.go writes: run go generate in tensor/")
	}
}
