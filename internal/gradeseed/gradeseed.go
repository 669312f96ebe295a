// Package gradeseed holds the grade_id of the test cell that runs, when
// tensornb grade runs it: the checks that generate their inputs
// (check.Agree) seed the generation from it, so that a grade reproduces.
// Outside the grader it is "".
package gradeseed

import "sync/atomic"

var current atomic.Value

// Set records id as the grade_id of the cell that runs; "" once it ends.
func Set(id string) { current.Store(id) }

// ID returns the grade_id of the cell that runs, or "".
func ID() string {
	id, _ := current.Load().(string)
	return id
}
