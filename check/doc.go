// Package check holds the checks of an exercise's test cells: the
// tensornb counterpart of the assert statements nbgrader's test cells
// hold. Each check returns quietly when the result is right; when it is
// not, it shows a picture of what differs (display.Compare and its
// kin), then panics with a *tensor.Error of class AssertionError, which
// the kernel shows as the cell's error and the grader (tensornb grade)
// gives the student as feedback.
//
// # Values
//
// [Equal] wants the same dtype, shape and elements; [Close] the same
// dtype and shape and elements within torch.testing.assert_close's
// default tolerances for the dtype, and [CloseWithin] within given ones.
//
// # Layout
//
// What only this field asks of an answer: [Shape], [Strides], [Offset],
// [Contiguous] and [NotContiguous] check one fact each, and [Layout] all
// of an expected tensor's at once.
//
// # Views and copies
//
// A right answer can be wrong in a way no value shows: a copy where a
// view was asked for. [ViewOf] wants a result that reads its input's
// storage, [NoCopy] code that allocates no storage while it runs, and
// [View] all of a view exercise at once — the values, then the storage,
// then the strides and offset — so that its message says which of them
// is wrong:
//
//	y := Diagonal(x)
//	check.View(y, x, x.Diagonal(0, 0, 1))
//
// fails, for a Diagonal that copies, with "right values, but a copy: ...".
//
// # Many layouts
//
// A check on one example passes an answer written for that example: the
// strides of a contiguous 4×4 typed in. [Agree] runs the student's
// function and the exercise's reference on many generated inputs —
// contiguous, permuted, sliced with steps and an offset, expanded, with
// dimensions of size 1 and 0, in several dtypes — seeded by the test
// cell's grade_id, and shows the smallest input it fails on, with the
// line of Go that makes it:
//
//	lastRow := func(x *tensor.Tensor) *tensor.Tensor { return x.Select(0, x.Size(0)-1) }
//	check.Agree(LastRow, lastRow, check.Inputs{Shapes: [][]int{{1, 3}, {4, 2}, {5, 5}}, View: true})
//
// # Anything else
//
// [That] fails with the teacher's own message when a condition is false.
package check
