package grade_test

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"testing"

	"github.com/tensornb/tensornb/kernel/internal/front"
	"github.com/tensornb/tensornb/kernel/internal/grade"
	"github.com/tensornb/tensornb/kernel/internal/interp/worker"
	"github.com/tensornb/tensornb/kernel/internal/notebook"
)

// BenchmarkGrade grades submissions of the puzzles' first 25 cells (the
// teacher's answers, all of whose tests pass), each in a fresh sandboxed
// engine: one submission, and 30 at once on all cores. With
// TENSORNB_GRADE_IMAGE set to an image of tensornb (scripts/image builds
// localhost/tensornb:image-test), it also grades them in its containers,
// as tensornb grade -image does.
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
	engines := []struct {
		name   string
		engine func(string) (front.Engine, error)
	}{{"here", engine}}
	if image := os.Getenv("TENSORNB_GRADE_IMAGE"); image != "" {
		c, err := grade.FindContainer(context.Background(), "auto", image, b.TempDir(), worker.MemoryLimit())
		if err != nil {
			b.Fatal(err)
		}
		engines = append(engines, struct {
			name   string
			engine func(string) (front.Engine, error)
		}{"in containers", func(string) (front.Engine, error) {
			e := worker.NewEngine(c.Command()...)
			e.Prepare, e.Ended = c.Prepare, c.Remove
			return e, nil
		}})
	}
	for _, how := range engines {
		g, err := grade.New(teacher, grade.Options{Engine: how.engine})
		if err != nil {
			b.Fatal(err)
		}
		for _, n := range []int{1, 30} {
			paths := make([]string, n)
			for i := range paths {
				paths[i] = path
			}
			b.Run(fmt.Sprintf("%s: %d submissions, %d at a time", how.name, n, runtime.NumCPU()), func(b *testing.B) {
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
}
