package grade_test

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"github.com/tensornb/tensornb/kernel/internal/grade"
	"github.com/tensornb/tensornb/kernel/internal/notebook"
)

// BenchmarkGrade grades submissions of the puzzles' first 25 cells (the
// teacher's answers, all of whose tests pass), each in a fresh sandboxed
// engine: one submission, and 30 at once on all cores.
//
//	go test -run '^$' -bench Grade -benchtime 3x ./kernel/internal/grade
func BenchmarkGrade(b *testing.B) {
	teacher, err := notebook.Read("../../../notebooks/05-stride-puzzles.ipynb")
	if err != nil {
		b.Fatal(err)
	}
	teacher.Cells = teacher.Cells[:25]
	path := b.TempDir() + "/submission.ipynb"
	if err := teacher.Write(path); err != nil {
		b.Fatal(err)
	}
	g, err := grade.New(teacher, grade.Options{Engine: engine})
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{1, 30} {
		paths := make([]string, n)
		for i := range paths {
			paths[i] = path
		}
		b.Run(fmt.Sprintf("%d submissions, %d at a time", n, runtime.NumCPU()), func(b *testing.B) {
			for b.Loop() {
				for _, r := range g.GradeAll(context.Background(), paths, runtime.NumCPU()) {
					if r.Error != "" || r.Score != r.MaxScore {
						b.Fatalf("%s: %g of %g: %s", r.Submission, r.Score, r.MaxScore, r.Error)
					}
				}
			}
		})
	}
}
