// Package grade grades students' submissions of an exercise written in
// nbgrader's format (package nbgrader): each submission is restored to
// the teacher's tests (nbgrader.Restore) and run, cell by cell, in an
// instant engine of its own; a test cell that runs without an error
// earns its points, and one that fails earns none, with its error as the
// student's feedback. A cell past the timeout is interrupted and scores
// nothing, and grading goes on: the engine replays the cells before it.
// Each submission gets a Result, which Table and JSON print, and a
// feedback page (Page) with its cells, outputs and pictures.
package grade
