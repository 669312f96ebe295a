package grade

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/tensornb/tensornb/kernel/internal/front"
	"github.com/tensornb/tensornb/kernel/internal/nbgrader"
	"github.com/tensornb/tensornb/kernel/internal/notebook"
)

// DefaultTimeout bounds a cell unless Options say otherwise: nbgrader's
// own default.
const DefaultTimeout = 30 * time.Second

// DefaultStartLimit bounds an engine's start unless Options say otherwise:
// a container's start on a loaded server can take many seconds.
const DefaultStartLimit = 2 * time.Minute

// Options say how to grade.
type Options struct {
	// Timeout bounds how long each cell may run (DefaultTimeout if 0).
	Timeout time.Duration
	// StartLimit bounds how long a submission's engine may take to start
	// (DefaultStartLimit if 0), and to start again after a cell that
	// timed out. Neither is any cell's time: an engine that can say when
	// it is ready (a Readier) is made ready before each cell's timeout
	// begins.
	StartLimit time.Duration
	// Engine returns a fresh engine for one submission, whose cells run
	// with dir, an empty directory made for the submission, as their
	// working directory.
	Engine func(dir string) (front.Engine, error)
}

// A Readier is an engine that can start before its first cell and say
// when it is ready for it, as worker.Engine does.
type Readier interface {
	Ready(ctx context.Context) error
}

// A Test is how one test cell of a submission did.
type Test struct {
	GradeID   string  `json:"grade_id"`
	Points    float64 `json:"points"`
	MaxPoints float64 `json:"max_points"`
	// Feedback is "" for a test that passed, else the cell's error as the
	// kernel shows it: its name and message, and where.
	Feedback string `json:"feedback"`
}

// A Result is one submission graded: its score out of the test cells'
// points, and each test; or Error, if the file could not be graded.
type Result struct {
	Submission string  `json:"submission"`
	Score      float64 `json:"score"`
	MaxScore   float64 `json:"max_score"`
	Tests      []Test  `json:"tests"`
	// Manual are the grade_ids of the answers graded by hand, which the
	// score leaves out.
	Manual []string `json:"manual,omitempty"`
	Error  string   `json:"error,omitempty"`
	// Notebook is the notebook graded, with its outputs: the feedback
	// page shows it.
	Notebook *notebook.Notebook `json:"-"`
}

// A Grader grades the submissions of one assignment.
type Grader struct {
	teacher *notebook.Notebook
	opts    Options
	max     float64 // the points of all the test cells
}

// New returns a grader for the teacher's notebook, which must be in
// nbgrader's format and have at least one test cell.
func New(teacher *notebook.Notebook, opts Options) (*Grader, error) {
	if errs := nbgrader.Validate(teacher); len(errs) > 0 {
		return nil, fmt.Errorf("the assignment breaks nbgrader's format: %w", errors.Join(errs...))
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.StartLimit <= 0 {
		opts.StartLimit = DefaultStartLimit
	}
	g := &Grader{teacher: teacher, opts: opts}
	tests := 0
	for _, c := range teacher.Cells {
		if m, ok := nbgrader.Of(c); ok && m.Tests() {
			g.max += m.Points
			tests++
		}
	}
	if tests == 0 {
		return nil, fmt.Errorf("the assignment has no test cell (a code cell whose nbgrader metadata has grade: true and solution: false)")
	}
	return g, nil
}

// GradeAll grades the submissions at paths, jobs of them at a time, and
// returns their results in the order of paths.
func (g *Grader) GradeAll(ctx context.Context, paths []string, jobs int) []Result {
	results := make([]Result, len(paths))
	next := make(chan int)
	var wg sync.WaitGroup
	for range max(jobs, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = g.Grade(ctx, paths[i])
			}
		}()
	}
	for i := range paths {
		next <- i
	}
	close(next)
	wg.Wait()
	return results
}

// Grade grades the submission at path. A file that is not a notebook, or
// not of this assignment, gets a Result with Error; so does one whose
// engine cannot start.
func (g *Grader) Grade(ctx context.Context, path string) Result {
	r := Result{Submission: path, MaxScore: g.max, Tests: []Test{}}
	sub, err := notebook.Read(path)
	if err == nil {
		r.Notebook, err = nbgrader.Restore(g.teacher, sub)
	}
	if err == nil {
		err = g.run(ctx, &r)
	}
	if err != nil {
		r.Error = err.Error()
		r.Tests = []Test{}
		return r
	}
	for _, c := range r.Notebook.Cells {
		m, ok := nbgrader.Of(c)
		switch {
		case !ok:
		case m.Tests():
			v, _ := nbgrader.Judge(c)
			t := Test{GradeID: m.GradeID, MaxPoints: v.Max, Points: v.Points, Feedback: v.Feedback}
			r.Score += t.Points
			r.Tests = append(r.Tests, t)
		case m.Grade && m.Solution:
			r.Manual = append(r.Manual, m.GradeID)
		}
	}
	return r
}

// run runs the code cells of r's notebook in a fresh engine, in a fresh
// directory, each under the timeout, and stores their outputs.
func (g *Grader) run(ctx context.Context, r *Result) error {
	dir, err := os.MkdirTemp("", "tensornb-grade-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	engine, err := g.opts.Engine(dir)
	if err != nil {
		return fmt.Errorf("starting an engine: %w", err)
	}
	defer engine.Shutdown(false)
	count := 0
	for _, c := range r.Notebook.Cells {
		if c.Type != "code" {
			continue
		}
		count++
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := g.ready(ctx, engine); err != nil {
			return err
		}
		out := &outputs{count: count}
		cellCtx := front.WithExecutionCount(ctx, count)
		if m, ok := nbgrader.Of(c); ok && m.GradeID != "" {
			cellCtx = front.WithGradeID(cellCtx, m.GradeID)
		}
		cellCtx, cancel := context.WithTimeout(cellCtx, g.opts.Timeout)
		err := engine.Execute(cellCtx, c.Source, out)
		timedOut := errors.Is(cellCtx.Err(), context.DeadlineExceeded) && ctx.Err() == nil
		cancel()
		var ce *front.CellError
		switch {
		case timedOut:
			msg := fmt.Sprintf("the cell ran past the timeout of %v and was stopped", g.opts.Timeout)
			out.errorOutput("Timeout", msg, []string{"Timeout: " + msg})
		case errors.As(err, &ce):
			out.errorOutput(ce.Name, ce.Value, ce.Traceback)
		case err != nil:
			return fmt.Errorf("the engine failed: %w", err)
		}
		c.Outputs = out.final()
		n := count
		c.ExecutionCount = &n
	}
	return nil
}

// ready waits, if engine can say so, until it is ready for the next cell:
// started, or restarted after a cell that timed out with the cells before
// it replayed. That time is no cell's own.
func (g *Grader) ready(ctx context.Context, engine front.Engine) error {
	r, ok := engine.(Readier)
	if !ok {
		return nil
	}
	startCtx, cancel := context.WithTimeout(ctx, g.opts.StartLimit)
	defer cancel()
	err := r.Ready(startCtx)
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("the engine did not start within %v: grade again when the machine is less busy, or with fewer submissions at a time (-jobs)", g.opts.StartLimit)
	case err != nil:
		return fmt.Errorf("starting an engine: %w", err)
	}
	return nil
}
