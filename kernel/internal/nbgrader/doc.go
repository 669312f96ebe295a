// Package nbgrader reads exercises written in nbgrader's format, with Go
// comments for its markers, and makes from a teacher's notebook the
// student's version and, from a student's submission, the notebook to
// grade.
//
// # The format
//
// A cell's role is nbgrader's cell metadata (schema 3), under the key
// "nbgrader": an answer cell has "solution": true, a test cell "grade":
// true with its "points", a read-only cell "locked": true, and each of
// them a "grade_id" unique in the notebook ([Meta], [Validate]). In code
// cells, nbgrader's markers are Go comments:
//
//	// BEGIN SOLUTION
//	return x.AsStrided([]int{4}, []int{5}, 0)
//	// END SOLUTION
//
// in answer cells, and "// BEGIN HIDDEN TESTS" … "// END HIDDEN TESTS" in
// test cells. nbgrader matches the words, not the comment, so nbgrader
// itself reads these notebooks too.
//
// # The student's version
//
// [Assign] replaces each solution region, or a whole answer cell that has
// none, with [Stub]: a comment and a panic("not written yet"), which
// compiles wherever the solution stood (a panic ends a function that must
// return) and says what is missing when it runs. It removes the hidden
// tests, clears the outputs and marks the locked and test cells neither
// editable nor deletable, as JupyterLab and Notebook honour.
//
// # The notebook to grade
//
// [Restore] puts the teacher's test and read-only cells back into a
// submission, found by grade_id: changed or deleted, each is the
// teacher's again, hidden tests included; the student's answers and own
// cells stay as written. A submission with none of the assignment's
// cells, or with cells of another, is refused ([Foreign]).
//
// # A test cell's verdict
//
// [Judge] says how a test cell did once it ran, from its outputs: it
// passed, and earns its points, if none is an error; otherwise it earns
// nothing, and its error is the student's feedback ([Feedback]). It is
// the one rule of both tensornb grade (package grade) and the static
// site's self-check, whose pages ask the browser's engine for it.
package nbgrader
